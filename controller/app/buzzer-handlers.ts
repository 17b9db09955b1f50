/**
 * The buzzer tables' answers to the `buzzer/…` requests (docs/mqtt.md). A buzzer request to a game table is
 * answered `NOT_AVAILABLE`; refusals of the logic keep their stable codes (docs/buzzer.md).
 */
import { reject, type Rejection } from '../kernel/result.ts';
import type { BuzzerResult, BuzzerRuntime } from '../runtime/buzzer/buzzer-runtime.ts';
import type { ControllerTransport, HandlerResult, RequestName } from '../transport/index.ts';

export interface BuzzerHandlerDeps {
  readonly transport: ControllerTransport;
  readonly buzzers: ReadonlyMap<string, BuzzerRuntime>;
  readonly lastSeq: (table: string) => number;
}

type BuzzerRequest = Extract<RequestName, `buzzer/${string}`>;

function notAvailable(table: string): Rejection {
  return reject('NOT_AVAILABLE', `table ${table} is not in buzzer mode`);
}

export function registerBuzzerHandlers(deps: BuzzerHandlerDeps): void {
  const { transport, buzzers } = deps;
  const run = <N extends BuzzerRequest>(
    table: string, act: (b: BuzzerRuntime) => BuzzerResult, data: (b: BuzzerRuntime) => HandlerResult<N> & { ok: true },
  ): Promise<HandlerResult<N>> => {
    const runtime = buzzers.get(table);
    if (runtime === undefined) return Promise.resolve(notAvailable(table));
    const result = act(runtime);
    return Promise.resolve(result.ok ? data(runtime) : result);
  };
  const applied = (table: string) => ({ ok: true as const, data: { seq: deps.lastSeq(table) } });
  transport.onRequest('buzzer/arm', async (_p, c) => run<'buzzer/arm'>(c.table, (b) => b.arm(c.identity.id), () => applied(c.table)));
  transport.onRequest('buzzer/reset', async (_p, c) => run<'buzzer/reset'>(c.table, (b) => b.reset(c.identity.id), () => applied(c.table)));
  transport.onRequest('buzzer/mark', async (p, c) => run<'buzzer/mark'>(
    c.table, (b) => b.mark(p.correct, c.identity.id, p.contestant), () => applied(c.table),
  ));
  transport.onRequest('buzzer/score', async (p, c) => run<'buzzer/score'>(
    c.table, (b) => b.score(p.entrant, p.delta, c.identity.id, p.reason),
    (b) => ({ ok: true, data: { seq: deps.lastSeq(c.table), total: b.current.scores[p.entrant] ?? 0 } }),
  ));
  transport.onRequest('buzzer/new-session', async (_p, c) => run<'buzzer/new-session'>(c.table, (b) => b.newSession(), () => applied(c.table)));
}

/**
 * The game record requests (docs/mqtt.md, "The game record"): a table's games, a game's public record and the
 * public view after any of its steps, all rebuilt from the event log; and the full action log that `zaptable
 * replay` reads, which holds the hidden facts (the audit topic lists every such request, audit-log.ts).
 *
 * A response is one MQTT packet, and the broker closes a connection that sends one over 256 KiB
 * (transport/packet-size-guard.ts): the controller's own. So a long record or action log comes in pages of at
 * most PAGE_BYTES of JSON, each naming where the next starts (`next`).
 */
import { reject } from '../kernel/result.ts';
import type { GameRecords } from '../persistence/index.ts';
import { exportActionLog, type HasReader } from '../persistence/index.ts';
import type { ControllerTransport } from '../transport/index.ts';

/** The most JSON one page of steps or actions carries: well under the 256 KiB packet limit with the envelope. */
export const PAGE_BYTES = 96 * 1024;

/** Items from `from` while they fit in `budget` bytes of JSON (at least one, so every page moves on). */
export function page<T>(
  items: readonly T[], from: number, budget = PAGE_BYTES,
): { readonly items: T[]; readonly next: number | null } {
  const out: T[] = [];
  let bytes = 0;
  for (let i = from; i < items.length; i += 1) {
    const size = JSON.stringify(items[i]).length + 1;
    if (out.length > 0 && bytes + size > budget) return { items: out, next: i };
    out.push(items[i] as T);
    bytes += size;
  }
  return { items: out, next: null };
}

export interface RecordHandlerDeps {
  readonly transport: ControllerTransport;
  /** The game tables (a buzzer table has no games: NOT_AVAILABLE). */
  readonly tables: ReadonlySet<string>;
  readonly log: HasReader;
  readonly records: GameRecords;
}

export function registerRecordHandlers({ transport, tables, log, records }: RecordHandlerDeps): void {
  const notGame = (table: string) => reject('NOT_AVAILABLE', `table ${table} runs no game: it has no game record`);
  transport.onRequest('games', async (p, c) => {
    if (!tables.has(c.table)) return notGame(c.table);
    return Promise.resolve({ ok: true, data: { games: records.games(c.table, p.limit ?? 50) } });
  });
  transport.onRequest('record', async (p, c) => {
    if (!tables.has(c.table)) return notGame(c.table);
    const found = records.record(c.table, p.game);
    if (!found.ok) return found;
    const { game, steps, refusals, corrections } = found.record;
    const from = p.from ?? 0;
    if (from >= steps.length) return reject('NO_SUCH_STEP', `game ${game.id} has steps 0 to ${steps.length - 1}, not ${from}`);
    const part = page(steps, from);
    return Promise.resolve({
      ok: true,
      data: {
        game, steps: part.items, total: steps.length, next: part.next,
        refusals: from === 0 ? refusals : [], corrections: from === 0 ? corrections : [],
      },
    });
  });
  transport.onRequest('record-state', async (p, c) => {
    if (!tables.has(c.table)) return notGame(c.table);
    const found = records.viewAt(c.table, p.game, p.step);
    return Promise.resolve(found.ok ? { ok: true, data: { game: p.game, step: found.step, view: found.view } } : found);
  });
  transport.onRequest('action-log', async (p, c) => {
    if (!tables.has(c.table)) return notGame(c.table);
    const exported = log.reader.game(p.game)?.tableId === c.table ? exportActionLog(log, p.game) : undefined;
    if (exported === undefined) return reject('NO_SUCH_GAME', `table ${c.table} has no game ${p.game}`);
    const part = page(exported.actions, p.from ?? 0);
    return Promise.resolve({
      ok: true,
      data: {
        game: exported.game, config: exported.config, seed: exported.seed,
        actions: part.items, total: exported.actions.length, next: part.next,
      },
    });
  });
}

/**
 * The dashboard's record relay (dashboard/server/record-relay.ts): a room of phones opening the same record asks
 * the table once (answers cached, identical requests in flight merged), a running game is asked again once the
 * table's seq moves on, a finished game's record never again; pages are joined; the table's refusals become the
 * dashboard's error codes; the action log is never cached.
 */
import { describe, expect, it } from 'vitest';
import type { ResponsePayload } from '../../controller/transport/payloads.ts';
import type { MqttHub } from '../../dashboard/server/mqtt-hub.ts';
import { RecordRelay } from '../../dashboard/server/record-relay.ts';

interface Asked { readonly name: string; readonly params: Readonly<Record<string, unknown>> }

/** A stand-in for the hub: answers `record` in two pages, counts what it was asked, with the table's seq. */
function stubHub(ended: boolean) {
  const asked: Asked[] = [];
  let seq = 1;
  const game = { id: 7, endedAtMs: ended ? 2000 : null };
  const hub = {
    summary: () => ({ seq }),
    request: async (_table: string, name: string, params: Readonly<Record<string, unknown>>): Promise<ResponsePayload> => {
      asked.push({ name, params });
      await new Promise((resolve) => setTimeout(resolve, 5));
      const ok = (data: unknown): ResponsePayload => ({ status: 'ok', data: data as never, error: null, transaction: null });
      if (name === 'games') return ok({ games: [game] });
      if (name === 'record') {
        return params.from === 1 ? ok({ game, steps: [{ step: 1 }], total: 2, next: null, refusals: [] })
          : ok({ game, steps: [{ step: 0 }], total: 2, next: 1, refusals: [{ afterStep: 0 }] });
      }
      if (name === 'record-state' && params.step === 9) {
        return { status: 'error', data: null, error: { code: 'NO_SUCH_STEP', message: 'no step 9' }, transaction: null };
      }
      if (name === 'action-log') return ok({ game: 'g', config: {}, seed: 1, actions: [{ type: 'a' }], total: 1, next: null });
      return { status: 'error', data: null, error: { code: 'RATE_LIMITED', message: 'later' }, transaction: null };
    },
  };
  const moveOn = (): void => {
    seq += 1;
  };
  return { hub: hub as unknown as MqttHub, asked, moveOn };
}

describe('record relay', () => {
  it('spaces out what it asks, so viewers leave the client\'s request budget to the referee', async () => {
    const { hub, asked } = stubHub(false);
    const relay = new RecordRelay(hub, 'token-0123456789abcdef', 20);
    const started = performance.now();
    await Promise.all(Array.from({ length: 10 }, async (_, i) => relay.state('t', 7, i).catch(() => undefined)));
    // Ten different steps: ten requests, one every 20 ms at most.
    expect(asked.filter((a) => a.name === 'record-state')).toHaveLength(10);
    expect(performance.now() - started).toBeGreaterThanOrEqual(9 * 20 - 5);
  });

  it('asks the table once for many viewers, joins the pages, asks again when a running game moves on', async () => {
    const { hub, asked, moveOn } = stubHub(false);
    const relay = new RecordRelay(hub, 'token-0123456789abcdef');
    const answers = await Promise.all(Array.from({ length: 50 }, async () => relay.record('t', 7)));
    const joined = { game: { id: 7, endedAtMs: null }, steps: [{ step: 0 }, { step: 1 }], refusals: [{ afterStep: 0 }] };
    expect(answers[0]).toEqual(joined);
    expect(new Set(answers).size).toBe(1);
    expect(asked.map((a) => a.name)).toEqual(['record', 'record']);
    await relay.record('t', 7);
    expect(asked).toHaveLength(2);
    moveOn();
    await relay.record('t', 7);
    expect(asked).toHaveLength(4);
  });

  it('keeps a finished game for good; maps refusals to codes; never caches the action log', async () => {
    const { hub, asked, moveOn } = stubHub(true);
    const relay = new RecordRelay(hub, 'token-0123456789abcdef');
    await relay.record('t', 7);
    moveOn();
    await relay.record('t', 7);
    expect(asked.filter((a) => a.name === 'record')).toHaveLength(2);
    await expect(relay.state('t', 7, 9)).rejects.toMatchObject({ code: 'RECORD_NOT_FOUND', statusCode: 404 });
    await expect(relay.state('t', 7, 9)).rejects.toMatchObject({ code: 'RECORD_NOT_FOUND' });
    // A refusal is not cached: it was asked twice.
    expect(asked.filter((a) => a.name === 'record-state')).toHaveLength(2);
    await expect(relay.games('unknown-answer')).resolves.toEqual({ games: [{ id: 7, endedAtMs: 2000 }] });
    expect(await relay.actionLog('t', 7)).toEqual({ game: 'g', config: {}, seed: 1, actions: [{ type: 'a' }] });
    await relay.actionLog('t', 7);
    expect(asked.filter((a) => a.name === 'action-log')).toHaveLength(2);
  });
});

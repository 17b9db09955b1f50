/**
 * The simulator's answer (controller/app/simulate-outcome.ts) against a scripted table: it waits for the sensor
 * events the op causes — and for a queued play's batch, and a placed barrel's settled weight — and answers with
 * the table's verdict, the public refusal where the reason depends on a hand.
 */
import { describe, expect, it } from 'vitest';
import { simulateAndWait } from '../../controller/app/simulate-outcome.ts';
import { normaliseItem } from '../../controller/app/simulator.ts';
import type { SensorEvent } from '../../controller/hardware/interface.ts';
import type { PendingEvent } from '../../controller/runtime/ports.ts';
import type { InputOutcome, TableRuntime } from '../../controller/runtime/table-runtime.ts';

const TIME = { source: 'device', epoch: 1, deviceUs: 0, hostUs: 0, uncertaintyUs: 0, beforeUs: 0, afterUs: 0 } as const;
const sensor = (e: Record<string, unknown>): SensorEvent => ({ time: TIME, ...e }) as unknown as SensorEvent;

/** A table whose outcomes the test sends, in order, when the op is carried out (on later turns). */
function scripted(outcomes: readonly Partial<InputOutcome>[]): TableRuntime {
  const watchers = new Set<(o: InputOutcome) => void>();
  const runtime = {
    watchOutcomes(listener: (o: InputOutcome) => void) {
      watchers.add(listener);
      return () => watchers.delete(listener);
    },
    play() {
      let delay = 0;
      for (const o of outcomes) {
        delay += 5;
        setTimeout(() => {
          for (const w of [...watchers]) w({ events: [], refusals: [], queued: false, changed: false, ...o } as InputOutcome);
        }, delay);
      }
    },
  };
  return runtime as unknown as TableRuntime;
}

const engine = (event: Record<string, unknown>): PendingEvent => ({ source: 'engine', event });

interface RunOptions {
  readonly hasScale?: boolean;
  readonly offline?: boolean;
  readonly sensorWaitMs?: number;
  readonly game?: 'zip-zap' | 'zapp-zerapp';
}

async function run(runtime: TableRuntime, op: 'tap' | 'place' | 'press' | 'lift', uids: string[], extra: RunOptions = {}) {
  return simulateAndWait({
    runtime, game: extra.game ?? 'zip-zap', station: 'seat-1', op, uids, hasScale: extra.hasScale ?? false,
    act: () => {
      (runtime as unknown as { play(): void }).play();
    },
    ...(extra.offline === undefined ? {} : { offline: extra.offline }),
    ...(extra.sensorWaitMs === undefined ? {} : { sensorWaitMs: extra.sensorWaitMs }),
  });
}

describe('the simulator waits for the table and answers with its verdict', () => {
  it('answers a tapped card once its batch is applied: accepted, with the public events', async () => {
    const runtime = scripted([
      { cause: { kind: 'sensor', event: sensor({ kind: 'tag-arrived', station: 'seat-1', uid: 'U1' }) }, queued: true, events: [engine({ type: 'PLAY_QUEUED', player: 'ana' })] },
      // Another station's batch is none of this answer's business.
      { cause: { kind: 'plays', plays: [{ station: 'seat-2', player: 'ben' }] }, changed: true, events: [engine({ type: 'CARD_PLAYED', player: 'ben', card: 'R2' })] },
      { cause: { kind: 'plays', plays: [{ station: 'seat-1', player: 'ana' }] }, changed: true, events: [engine({ type: 'CARD_PLAYED', player: 'ana', card: 'R3' })] },
    ]);
    const answer = await run(runtime, 'tap', ['U1']);
    expect(answer).toEqual({ ok: true, outcome: 'applied', events: ['PLAY_QUEUED', 'CARD_PLAYED'], message: 'accepted: PLAY_QUEUED, CARD_PLAYED' });
  });

  it('answers a play refused in its batch with the public refusal: HIDDEN_REASON for a hand, the code for a pause', async () => {
    const refused = (code: string, message: string) => scripted([
      { cause: { kind: 'sensor', event: sensor({ kind: 'tag-arrived', station: 'seat-1', uid: 'U1' }) }, queued: true },
      { cause: { kind: 'plays', plays: [{ station: 'seat-1', player: 'ana' }] }, changed: true, events: [engine({ type: 'PLAY_REJECTED', player: 'ana', card: 'R4', code, message })] },
    ]);
    const hidden = await run(refused('CARD_NOT_IN_HAND', 'ana does not hold R4'), 'tap', ['U1']);
    expect(hidden).toMatchObject({ ok: false, code: 'HIDDEN_REASON' });
    expect(hidden.ok ? '' : hidden.message).toContain('depends on hidden information');
    expect(JSON.stringify(hidden)).not.toContain('R4');
    const paused = await run(refused('NOT_CONTROLLER', 'play is paused (ZAP); only ben may play (ZIP-33)'), 'tap', ['U1']);
    expect(paused).toEqual({ ok: false, code: 'NOT_CONTROLLER', message: 'play is paused (ZAP); only ben may play (ZIP-33)' });
  });

  it('answers a notice that changed nothing with its code and message', async () => {
    const runtime = scripted([{
      cause: { kind: 'sensor', event: sensor({ kind: 'button-pressed', station: 'seat-1', button: 'zap' }) },
      events: [{ source: 'table', event: { type: 'NOTICE', code: 'PADS_NOT_CLEAR', message: 'put every barrel back on the mountain before the next roll' } }],
    }]);
    expect(await run(runtime, 'press', [], { game: 'zapp-zerapp' })).toEqual({ ok: false, code: 'PADS_NOT_CLEAR', message: 'put every barrel back on the mountain before the next roll' });
  });

  it('answers a placed barrel only after its weight settled, and a violation as such', async () => {
    const placed = scripted([
      { cause: { kind: 'sensor', event: sensor({ kind: 'tag-arrived', station: 'seat-1', uid: 'B7' }) } },
      { cause: { kind: 'sensor', event: sensor({ kind: 'weight-settled', station: 'seat-1', grams: 51 }) }, changed: true, events: [engine({ type: 'BARREL_PLACED', player: 'ana' })] },
    ]);
    expect(await run(placed, 'place', ['B7'], { hasScale: true, game: 'zapp-zerapp' })).toMatchObject({ ok: true, outcome: 'applied', events: ['BARREL_PLACED'] });
    const second = scripted([{
      cause: { kind: 'sensor', event: sensor({ kind: 'tag-arrived', station: 'seat-1', uid: 'B8' }) }, changed: true,
      events: [engine({ type: 'VIOLATION_REPORTED', player: 'ana', kind: 'TWO_BARRELS_PLACED', detail: 'a second barrel on seat-1 after committing' })],
    }]);
    expect(await run(second, 'place', ['B8'], { game: 'zapp-zerapp' })).toMatchObject({ ok: true, outcome: 'violation', message: 'violation reported: ana TWO_BARRELS_PLACED (a second barrel on seat-1 after committing)' });
  });

  it('says NOT_SEEN when nothing is read, and answers at once for an unplugged station or an empty pad', async () => {
    expect(await run(scripted([]), 'tap', ['U1'], { sensorWaitMs: 50 })).toMatchObject({ ok: false, code: 'NOT_SEEN' });
    expect(await run(scripted([]), 'tap', ['U1'], { offline: true })).toMatchObject({ ok: true, outcome: 'done' });
    expect(await run(scripted([]), 'lift', [])).toMatchObject({ ok: true, outcome: 'unchanged' });
  });

  it('knows a ZAP card by either spelling, and refuses what the games do not have', () => {
    expect(normaliseItem({ kind: 'card', card: 'Z1' })).toEqual({ kind: 'zap', card: 'Z1' });
    expect(normaliseItem({ kind: 'zap', card: 'Z6' })).toEqual({ kind: 'zap', card: 'Z6' });
    expect(normaliseItem({ kind: 'card', card: 'R10' })).toEqual({ kind: 'card', card: 'R10' });
    expect(normaliseItem({ kind: 'zap', card: 'R4' })).toBeUndefined();
    expect(normaliseItem({ kind: 'card', card: 'W11' })).toBeUndefined();
  });
});

/**
 * The demo's bot host runs a buzzer quiz only until a person hosts: the first arm, mark or reset by anyone else
 * sends it away for good, its pending steps cancelled, so it never overtakes a human host (issue 20).
 */
import { describe, expect, it } from 'vitest';
import { BuzzerBots } from '../../controller/app/bots/buzzer-bots.ts';
import type { BuzzerEvent, BuzzerState } from '../../controller/buzzer/index.ts';
import type { SimulatedTable } from '../../controller/hardware/simulated/index.ts';
import type { BuzzerRuntime } from '../../controller/runtime/buzzer/buzzer-runtime.ts';

/** A stand-in runtime that records who armed, marked and reset, and lets the test announce events. */
function fakeRuntime() {
  const calls: string[] = [];
  let listener: ((state: BuzzerState, events: readonly BuzzerEvent[]) => void) | undefined;
  const state = { question: 1, round: 1, phase: 'idle', decision: null } as unknown as BuzzerState;
  const runtime = {
    options: { setup: { contestants: [{ station: 'seat-1' }, { station: 'seat-2' }] } },
    current: state,
    onChange: (l: typeof listener) => {
      listener = l;
      return () => undefined;
    },
    arm: (by: string) => calls.push(`arm by ${by}`),
    mark: (correct: boolean, by: string) => calls.push(`mark ${String(correct)} by ${by}`),
    reset: (by: string) => calls.push(`reset by ${by}`),
  };
  const emit = (events: BuzzerEvent[]): void => listener?.(state, events);
  return { runtime: runtime as unknown as BuzzerRuntime, calls, emit };
}

const table = { names: () => [], pressButton: () => undefined } as unknown as SimulatedTable;
const sleep = async (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** Waits (polling, up to 5 s) until `ok` holds: a loaded machine may run the bots' timers late, never early. */
async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !ok(); i++) await sleep(10);
}

describe('the buzzer demo\'s bot host', () => {
  it('hosts when every seat is a bot, and steps back for good once a person arms', async () => {
    const { runtime, calls, emit } = fakeRuntime();
    const bots = new BuzzerBots({ table, runtime, stations: ['seat-1', 'seat-2'], speed: 1000, seed: 1 });
    bots.start();
    await until(() => calls.length > 0); // 2 s of quiz time
    expect(calls).toEqual(['arm by bot host']);
    expect(bots.botHosting).toBe(true);
    // The bot's arm is announced; its 4 s "nobody buzzed" reset is now pending. Then a person resets and arms.
    emit([{ type: 'BUZZER_ARMED', question: 1, round: 1, liveAtMs: 0, by: 'bot host' }]);
    emit([{ type: 'RESET', question: 1, auto: false, by: 'referee' }]);
    expect(bots.botHosting).toBe(false);
    emit([{ type: 'BUZZER_ARMED', question: 2, round: 1, liveAtMs: 0, by: 'referee' }]);
    await sleep(60); // 6 s: the bot's reset and re-arm would both have come by now
    expect(calls).toEqual(['arm by bot host']);
    bots.stop();
  });

  it('never hosts when a person plays a seat', async () => {
    const { runtime, calls } = fakeRuntime();
    const bots = new BuzzerBots({ table, runtime, stations: ['seat-1'], speed: 1000, seed: 1 });
    bots.start();
    await sleep(30);
    expect(calls).toEqual([]);
    expect(bots.botHosting).toBe(false);
    bots.stop();
  });
});

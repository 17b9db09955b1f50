/**
 * Fake sensor events and a fake scale API for the set-up flows' tests.
 */
import type { EventTime, SensorEvent } from '../../controller/hardware/interface.ts';
import type { ScaleCommands, ScaleReply } from '../../controller/runtime/setup/calibrate-types.ts';

const TIME: EventTime = { source: 'device', epoch: 0, deviceUs: 0, hostUs: 0, uncertaintyUs: 0, beforeUs: 0, afterUs: 0 };

export const tagArrived = (uid: string, station = 'seat-1'): SensorEvent => ({ kind: 'tag-arrived', uid, station, time: TIME });
export const tagLeft = (uid: string, station = 'seat-1'): SensorEvent => ({ kind: 'tag-left', uid, station, time: TIME });
export const settled = (grams: number, station = 'seat-1'): SensorEvent => ({ kind: 'weight-settled', grams, station, time: TIME });

type Failure = { readonly ok: false; readonly code: string; readonly message: string };

/** A scale API answering from a script: each command takes the next scripted failure, or succeeds. */
export function fakeScale(): ScaleCommands & {
  readonly calls: string[];
  failNext(verb: 'tare' | 'calibrate', failure: Failure): void;
} {
  const calls: string[] = [];
  const failures: Record<string, Failure[]> = { tare: [], calibrate: [] };
  const answer = async <T extends object>(verb: string, ok: T): Promise<ScaleReply<T>> => {
    await Promise.resolve();
    return failures[verb]?.shift() ?? { ok: true, ...ok };
  };
  return {
    calls,
    failNext(verb, failure) {
      failures[verb]?.push(failure);
    },
    tare(station) {
      calls.push(`tare ${station}`);
      return answer('tare', { tareCounts: 84_213 });
    },
    calibrate(station, grams) {
      calls.push(`calibrate ${station} ${grams}`);
      return answer('calibrate', { perKg: 420_000 });
    },
  };
}

/** A scheduler whose timers run only when the test says so. */
export function manualTimers(): { after(ms: number, fn: () => void): () => void; fire(): void; readonly pending: number } {
  let timers: { fn: () => void; live: boolean }[] = [];
  return {
    after(_ms, fn) {
      const t = { fn, live: true };
      timers.push(t);
      return () => {
        t.live = false;
      };
    },
    fire() {
      const due = timers.filter((t) => t.live);
      timers = [];
      for (const t of due) t.fn();
    },
    get pending() {
      return timers.filter((t) => t.live).length;
    },
  };
}

/**
 * Memory fakes of the runtime's ports (log, publisher, lamps, scheduler, clock), for runtime tests.
 */
import type { Clock, EventTime, LampPattern, SensorEvent } from '../../controller/hardware/interface.ts';
import { PUBLIC } from '../../controller/rules/common/viewer.ts';
import type { BaseAction } from '../../controller/rules/engine.ts';
import { getEngine, toPublicEvents } from '../../controller/rules/games.ts';
import type { Correction, GameInfo, Lamps, RuntimeLog, RuntimePublisher, Scheduler } from '../../controller/runtime/ports.ts';

export type LogRow =
  | { kind: 'start'; info: GameInfo; gameId: string }
  | { kind: 'sensor'; event: SensorEvent }
  | { kind: 'action'; action: BaseAction; seq: number }
  | { kind: 'rejected'; action: BaseAction; code: string }
  | { kind: 'correction'; correction: Correction }
  | { kind: 'end'; result: unknown }
  | { kind: 'commit' };

export function memoryLog(): RuntimeLog & { rows: LogRow[] } {
  const rows: LogRow[] = [];
  let games = 0;
  let current: GameInfo | undefined;
  let inForce: { action: BaseAction; seq: number }[] = [];
  return {
    rows,
    undoLast(_t, _g, by, reason) {
      const last = inForce.at(-1);
      if (!last || !current) return { ok: false, code: 'NOTHING_TO_UNDO', message: 'nothing to undo' };
      inForce = inForce.slice(0, -1);
      rows.push({ kind: 'correction', correction: { kind: 'enter', by, reason: `undo ${last.seq} ${reason ?? ''}`, action: last.action } });
      const engine = getEngine(current.game);
      const setup = engine.setup(current.config, current.seed);
      if (!setup.ok) throw new Error(setup.message);
      let state = setup.state;
      for (const { action } of inForce) {
        const outcome = engine.apply(state, action);
        if (!outcome.ok) throw new Error(outcome.message);
        state = outcome.state;
      }
      return { ok: true, undoneSeq: last.seq, state };
    },
    startGame(info) {
      current = info;
      inForce = [];
      const gameId = `g${++games}`;
      rows.push({ kind: 'start', info, gameId });
      return gameId;
    },
    sensor: (_t, _g, event) => rows.push({ kind: 'sensor', event }),
    action: (_t, _g, action) => {
      const seq = rows.push({ kind: 'action', action, seq: rows.length }) - 1;
      inForce.push({ action, seq });
      return seq;
    },
    rejected: (_t, _g, action, code) => rows.push({ kind: 'rejected', action, code }),
    correction: (_t, _g, correction) => rows.push({ kind: 'correction', correction }),
    endGame: (_g, result) => rows.push({ kind: 'end', result }),
    commit: () => rows.push({ kind: 'commit' }),
  };
}

export interface MemoryPublisher extends RuntimePublisher {
  readonly states: unknown[];
  /** Every published event, in order. */
  readonly published: unknown[];
  last(): unknown;
}

export function memoryPublisher(): MemoryPublisher {
  const states: unknown[] = [];
  const published: unknown[] = [];
  return {
    states,
    published,
    state: (_t, game, state) => states.push(getEngine(game).view(state, PUBLIC)),
    events: (_t, game, list) => {
      for (const p of list) published.push(...(p.source === 'engine' ? toPublicEvents(game, [p.event]) : [p.event]));
    },
    last: () => states.at(-1),
  };
}

export function memoryLamps(): Lamps & { shown: Record<string, LampPattern> } {
  const shown: Record<string, LampPattern> = {};
  return {
    shown,
    setLamp: (station, pattern) => {
      shown[station] = pattern;
    },
  };
}

/** A scheduler driven by hand: `advance(ms)` runs what falls due. */
export function manualScheduler(clock: { now: number }): Scheduler & { advance(ms: number): void } {
  let timers: { due: number; fn: () => void; live: boolean }[] = [];
  return {
    after(ms, fn) {
      const t = { due: clock.now + ms * 1000, fn, live: true };
      timers.push(t);
      return () => {
        t.live = false;
      };
    },
    advance(ms) {
      const end = clock.now + ms * 1000;
      for (;;) {
        const next = timers.filter((t) => t.live && t.due <= end).sort((a, b) => a.due - b.due)[0];
        if (!next) break;
        clock.now = next.due;
        next.live = false;
        next.fn();
      }
      timers = timers.filter((t) => t.live);
      clock.now = end;
    },
  };
}

export function fakeClock(): Clock & { now: number } {
  const c = { now: 1_000_000, nowUs: () => c.now, wallMs: () => 1_700_000_000_000 + c.now / 1000 };
  return c;
}

/** A device-stamped event time (synced, 100 µs uncertainty), the sensor's interval `beforeUs` before the stamp. */
export function at(hostUs: number, beforeUs = 0): EventTime {
  return { source: 'device', epoch: 0, deviceUs: hostUs, rawUs: hostUs % 2 ** 32, hostUs, uncertaintyUs: 100, beforeUs, afterUs: 0 };
}

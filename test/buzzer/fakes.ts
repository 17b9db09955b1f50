/** Memory fakes of the buzzer runtime's ports, and a rig that runs a BuzzerRuntime on given hardware. */
import type { BuzzerAction, BuzzerEvent, BuzzerSetup, BuzzerView } from '../../controller/buzzer/index.ts';
import type { Clock, LampPattern, SensorEvent, TableHardware } from '../../controller/hardware/interface.ts';
import { BuzzerRuntime } from '../../controller/runtime/buzzer/buzzer-runtime.ts';
import type { BuzzerLog, BuzzerPublisher } from '../../controller/runtime/buzzer/ports.ts';
import type { Scheduler } from '../../controller/runtime/ports.ts';

export class MemoryBuzzerLog implements BuzzerLog {
  readonly sensors: SensorEvent[] = [];
  readonly actions: BuzzerAction[] = [];
  readonly refusals: { action: BuzzerAction; code: string }[] = [];
  sessions = 0;
  commits = 0;
  sensor(_t: string, event: SensorEvent): number {
    this.sensors.push(event);
    return this.sensors.length;
  }

  session(_t: string, _s: BuzzerSetup): void {
    this.sessions++;
  }

  action(_t: string, action: BuzzerAction): void {
    this.actions.push(action);
  }

  refused(_t: string, action: BuzzerAction, code: string): void {
    this.refusals.push({ action, code });
  }

  commit(): void {
    this.commits++;
  }
}

export class MemoryBuzzerPublisher {
  readonly views: BuzzerView[] = [];
  readonly events: BuzzerEvent[] = [];
  state(_t: string, view: BuzzerView): void {
    this.views.push(view);
  }

  events_(_t: string, events: readonly BuzzerEvent[]): void {
    this.events.push(...events);
  }

  get last(): BuzzerView | undefined {
    return this.views.at(-1);
  }
}

/** `BuzzerPublisher` is structural: `events` is both the list and the port method, so wrap it. */
export function publisherPort(p: MemoryBuzzerPublisher): BuzzerPublisher {
  return {
    state: (t, v) => {
      p.state(t, v);
    },
    events: (t, e) => {
      p.events_(t, e);
    },
  };
}

/** A scheduler on a virtual (or fake) timer source. */
export function schedulerOn(time: { setTimeout(fn: () => void, ms: number): unknown; clearTimeout(h: never): void }): Scheduler {
  return {
    after(ms, fn) {
      const h = time.setTimeout(fn, ms);
      return () => {
        time.clearTimeout(h as never);
      };
    },
  };
}

export interface BuzzerRig {
  readonly runtime: BuzzerRuntime;
  readonly log: MemoryBuzzerLog;
  readonly published: MemoryBuzzerPublisher;
  readonly lamps: { station: string; pattern: LampPattern }[];
}

export function buzzerRig(
  setup: BuzzerSetup, hardware: TableHardware, clock: Clock, scheduler: Scheduler, sound?: { beep(hz: number, ms: number): void },
): BuzzerRig {
  const log = new MemoryBuzzerLog();
  const published = new MemoryBuzzerPublisher();
  const lamps: { station: string; pattern: LampPattern }[] = [];
  const runtime = new BuzzerRuntime({ tableId: 'quiz', setup, sound: true }, {
    log, publisher: publisherPort(published), clock, scheduler,
    lamps: {
      setLamp: (station, pattern) => {
        lamps.push({ station, pattern });
        void hardware.setLamp(station, pattern);
      },
    },
    ...(sound === undefined ? {} : { sound }),
  });
  hardware.onEvent((e) => {
    runtime.handleSensor(e);
  });
  return { runtime, log, published, lamps };
}

/** The runtime's clock and timers set by hand: `advanceTo(us)` moves time and runs what fell due, in order. */
export class ManualTime implements Clock, Scheduler {
  private timers: { dueUs: number; fn: () => void }[] = [];

  constructor(public us = 0) {}

  nowUs(): number {
    return this.us;
  }

  wallMs(): number {
    return 1_760_000_000_000 + Math.floor(this.us / 1000);
  }

  after(ms: number, fn: () => void): () => void {
    const t = { dueUs: this.us + ms * 1000, fn };
    this.timers.push(t);
    return () => {
      this.timers = this.timers.filter((x) => x !== t);
    };
  }

  advanceTo(us: number): void {
    this.us = us;
    const due = this.timers.filter((t) => t.dueUs <= us);
    this.timers = this.timers.filter((t) => t.dueUs > us);
    for (const t of due) t.fn();
  }
}

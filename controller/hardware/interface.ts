/**
 * The one hardware interface of the table (design principle 3). Three implementations sit behind it: serial
 * seat stations (our firmware over USB serial), the johnny-five buzzer hub (StandardFirmata), and the
 * simulated table. The table runtime sees only this file's types.
 *
 * Times: every event carries its time twice — as the station stamped it (`deviceUs`, unwrapped, comparable
 * only within one station boot = `epoch`) and mapped to the controller's monotonic clock (`hostUs`) with the
 * half width of the interval that holds the true time (`uncertaintyUs`). Host-stamped sources (the
 * johnny-five hub) set `source: 'host'` and state their own uncertainty honestly. The time kernel
 * (`controller/kernel/`: `EventTime`, `compareIntervals`, `arbitrate`) decides "who was first" from these fields and
 * reports overlaps as ties.
 */
import type { EventTime } from '../kernel/event-time.ts';
import type { Result } from '../kernel/result.ts';

/** A station's id as announced in its boot banner (not its port path: ports change, ids do not). */
export type StationId = string;

// The event time is declared once, in the kernel (controller/kernel/event-time.ts); re-exported for the
// hardware layer's users.
export type { EventTime, TimeSource } from '../kernel/event-time.ts';

interface EventBase {
  readonly station: StationId;
  readonly time: EventTime;
  /** The station's event sequence number (gaps mean lost lines); undefined for host-stamped sources. */
  readonly seq?: number;
}

/**
 * Why a tag's arrival is dated by its poll window although slaps fell inside it (serial/slap-matching.ts):
 * several slaps in its window, or one slap that also fits another new tag's window. Matching never guesses.
 */
export type SlapAmbiguity = 'several-slaps' | 'several-tags';

/** A tag arrived on the reader. `time` is the tag read, with its poll window as `beforeUs`. */
export interface TagArrival extends EventBase {
  readonly kind: 'tag-arrived';
  readonly uid: string;
  /**
   * The slap that dated the landing, when exactly one slap of the station fits the tag's window and fits no
   * other new tag's (serial/slap-matching.ts): its time (the `micros()` stamp of the slap sensor's edge, with
   * the interrupt latency as `beforeUs`) is when the card hit the pad, far tighter than the poll window.
   */
  readonly slap?: { readonly seq?: number; readonly time: EventTime };
  /** Set when slaps fell in the window but could not be matched without guessing; the window dates it. */
  readonly slapAmbiguous?: SlapAmbiguity;
}

/** A typed sensor event. */
export type SensorEvent =
  | TagArrival
  | (EventBase & { readonly kind: 'tag-left'; readonly uid: string })
  | (EventBase & { readonly kind: 'weight-settled'; readonly grams: number })
  | (EventBase & { readonly kind: 'button-pressed'; readonly button: string })
  | (EventBase & { readonly kind: 'button-released'; readonly button: string })
  /**
   * Something hit the pad (its optional piezo slap sensor). It names no item: the driver matches it to the
   * `tag-arrived` that follows (its `slap`); it is delivered as well, so that it is logged like every sensor
   * event — a slap that no tag follows is a knock on the table.
   */
  | (EventBase & { readonly kind: 'slap' });

/** When a sensor event's physical thing happened: a tag's matched slap if it has one, else its own time. */
export function landingTime(event: SensorEvent): EventTime {
  return event.kind === 'tag-arrived' && event.slap !== undefined ? event.slap.time : event.time;
}

export type SensorEventKind = SensorEvent['kind'];

/** Lamp patterns every implementation understands. */
export type LampPattern = 'off' | 'on' | 'blink-slow' | 'blink-fast' | 'pulse' | 'error';

/** Per-station counters of things that went wrong; never reset while the controller runs. */
export interface ErrorCounters {
  /** Lines that failed to parse or had a bad checksum (rejected, never executed). */
  readonly badLines: number;
  /** Lost events detected from sequence-number gaps. */
  readonly lostEvents: number;
  /** Commands that got no reply in time. */
  readonly timeouts: number;
  /** Commands answered with `err <code>`. */
  readonly commandErrors: number;
  /** Station restarts seen (banner or time jump). */
  readonly resets: number;
  /** Disconnections (unplugged, port error). */
  readonly disconnects: number;
}

/**
 * What lies on a station's pad, as the controller publishes it with the station's health: the settled weight
 * and the item whose tag is read now. The controller withholds both (`hidden: true`, nulls) whenever they would
 * tell a secret: a placed barrel before the reveal (its weight gives its number), cards on a seat pad (a
 * refused card goes back to its hand). The hardware layer never fills it; the composition root does.
 */
export interface PadReading {
  readonly grams: number | null;
  readonly tag: { readonly kind: string; readonly label: string } | null;
  readonly hidden?: boolean;
}

/** How a station is doing, for the dashboard and the referee. */
export interface StationHealth {
  readonly station: StationId;
  readonly kind: 'seat' | 'pile' | 'hub' | 'simulated';
  readonly online: boolean;
  /** Firmware version and protocol version from the banner (hub: Firmata version). */
  readonly firmware?: string;
  readonly protocol?: number;
  /** Where it is connected now (port path), for people; identification is by `station`. */
  readonly port?: string;
  /** Controller time (ms since the epoch, wall clock) of the last line or event received. */
  readonly lastSeenMs?: number;
  readonly errors: ErrorCounters;
  /** Clock sync figures; undefined for host-stamped sources or before the first sync. */
  readonly clock?: {
    readonly offsetUs: number;
    readonly driftPpm: number;
    readonly uncertaintyUs: number;
  };
  /** The pad reading (seat and pile stations, filled by the controller; see PadReading). */
  readonly pad?: PadReading;
}

/** The answer to a command sent to a station. */
export type CommandResult = Result;

/** The controller's monotonic clock in µs. Injected so that tests and simulations control time. */
export interface Clock {
  nowUs(): number;
  /** Wall-clock time in ms since 1970, for "last seen" figures. */
  wallMs(): number;
}

export const systemClock: Clock = {
  nowUs: () => Number(process.hrtime.bigint() / 1000n),
  wallMs: () => Date.now(),
};

/**
 * A source of sensor events and a sink of lamp/sound commands. Contract:
 * - `start()` resolves once the implementation is running (stations may still come online later, each
 *   reported through `onHealth`); it rejects only for a configuration that cannot work at all.
 * - Events are delivered in arrival order; ordering by time is arbitration's job, not the driver's.
 * - A bad line, a station unplugged, a timeout: counted in the station's health, never thrown.
 * - `stop()` closes every port and timer; it is safe to call twice.
 */
export interface TableHardware {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Subscribes to sensor events; returns the unsubscribe function. */
  onEvent(listener: (event: SensorEvent) => void): () => void;
  /** Subscribes to health changes (online/offline, errors, clock); returns the unsubscribe function. */
  onHealth(listener: (health: StationHealth) => void): () => void;
  /** The current health of every known station. */
  health(): StationHealth[];
  /** Sets a station's lamp. Resolves with the station's answer (or a timeout/offline error). */
  setLamp(station: StationId, pattern: LampPattern): Promise<CommandResult>;
}

export const NO_ERRORS: ErrorCounters = { badLines: 0, lostEvents: 0, timeouts: 0, commandErrors: 0, resets: 0, disconnects: 0 };

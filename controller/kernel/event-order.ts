/**
 * Ordering timestamped events into places, with explicit ties (design principle 4): the buzzer's ranking and
 * the timing benchmark rank by `arbitrate()`; every comparison is `compareIntervals()` (interval.ts) on the
 * events' intervals (clock-bounds.ts). Pure.
 *
 * Every event stands for an **interval** in which the physical thing happened (docs/timing.md §3): the stamp
 * `deviceUs`, widened by the sensor's own interval (`beforeUs` before it, `afterUs` after it: a button's
 * interrupt latency, a tag's poll window and power-up, a weight's filter window) and, across clocks, by the
 * clock mapping's `uncertaintyUs` on both sides. Two events are compared
 * - on the **same station and boot** by their device times: one clock, no mapping error, only each stamp's
 *   resolution (`deviceResolutionUs`, 4 µs for `micros()` on a 16 MHz AVR) and the sensor intervals;
 * - otherwise by their mapped controller times, each ± its `uncertaintyUs` (from clock sync), with the sensor
 *   intervals scaled from device to controller µs by the worst clock rate (`maxRateError`, 1 %).
 * The earlier one wins when the intervals do not overlap: a's latest possible time is before b's earliest.
 * Otherwise they tie.
 *
 * Overlap is not transitive (A ~ B, B ~ C, but A before C), so a place is a connected group: every claimed
 * order between two places holds for every pair across them; inside a tie nothing is claimed. Arrival
 * order is never used: events are sorted by their (mapped) times, equal times by station and device time,
 * only to make the output deterministic; such events are tied anyway.
 */
import { deviceInterval, hostInterval, type ClockBounds, type StampedTime } from './clock-bounds.ts';
import { compareIntervals } from './interval.ts';

/** What arbitration needs to know of an event. Extra fields are carried through untouched. */
export interface TimedEvent extends StampedTime {
  /** The station that stamped the event. */
  readonly station: string;
  /** The station's boot the stamp belongs to (device times of different boots are not comparable). */
  readonly epoch: number;
}

/** How stamps are widened for arbitration (clock-bounds.ts: 4 µs resolution, 1 % rate error by default). */
export type ArbitrationOptions = ClockBounds;

/** One place of the ranking: a single event, or a tie between events the timestamps cannot separate. */
export type Placing<E extends TimedEvent> =
  | { readonly tie: false; readonly event: E }
  | {
    readonly tie: true;
    /** The tied events, in order of their (mapped) times; no order is claimed between them. */
    readonly members: readonly E[];
    /** Spread of the members' best estimates (interval middles, controller µs): last minus first. */
    readonly separationUs: number;
    /** The widest combined uncertainty among the members' pairs (µs; see `Comparison.combinedUncertaintyUs`). */
    readonly combinedUncertaintyUs: number;
  };

/** How two events compare. */
export interface Comparison {
  /** 'before': a happened first; 'after': b did; 'tie': their intervals overlap. */
  readonly order: 'before' | 'after' | 'tie';
  /** b − a in µs between the stamps, device time on one station and boot, else controller time. */
  readonly separationUs: number;
  /**
   * How far apart the stamps must be for an order (µs): the widths of both intervals on the side that faces
   * the other event, in the direction the stamps point (a first when `separationUs` ≥ 0). With symmetric
   * intervals this is the sum of both half widths.
   */
  readonly combinedUncertaintyUs: number;
}

function sameClock(a: TimedEvent, b: TimedEvent): boolean {
  return a.station === b.station && a.epoch === b.epoch;
}

/** Compares two events by the rule above: their intervals on one device clock, else in controller time. */
export function compareEvents(a: TimedEvent, b: TimedEvent, options: ArbitrationOptions = {}): Comparison {
  const frame = sameClock(a, b) ? deviceInterval : hostInterval;
  const c = compareIntervals(frame(a, options), frame(b, options));
  return { order: c.order, separationUs: c.separation, combinedUncertaintyUs: c.combinedUncertainty };
}

/**
 * The middle of an event's interval (µs), in device time on its own clock or in controller time: the best
 * single estimate of when it happened, used to sort (never to decide: overlapping intervals tie).
 */
export function intervalCentre(e: TimedEvent, clock: 'device' | 'host'): number {
  return (clock === 'device' ? e.deviceUs : e.hostUs) + ((e.afterUs ?? 0) - (e.beforeUs ?? 0)) / 2;
}

interface Keyed<E> {
  readonly event: E;
  readonly key: number;
  readonly index: number;
}

/**
 * Sort keys: the middle of the mapped interval, except that on one station and boot the device order is
 * authoritative. Two events of one station mapped at different moments (the sync learnt more in between) can
 * come out a few µs reversed; the later one's key is raised to the earlier one's so that sorting never
 * contradicts the device.
 */
function sortKeys<E extends TimedEvent>(events: readonly E[]): Keyed<E>[] {
  const keys = events.map((event, index) => ({ event, key: intervalCentre(event, 'host'), index }));
  const byClock = new Map<string, Keyed<E>[]>();
  for (const k of keys) {
    const id = JSON.stringify([k.event.station, k.event.epoch]);
    const list = byClock.get(id) ?? [];
    list.push(k);
    byClock.set(id, list);
  }
  const fixed = new Map<number, number>();
  for (const list of byClock.values()) {
    list.sort((x, y) => intervalCentre(x.event, 'device') - intervalCentre(y.event, 'device'));
    let floor = -Infinity;
    for (const k of list) {
      floor = Math.max(floor, k.key);
      fixed.set(k.index, floor);
    }
  }
  return keys.map((k) => ({ ...k, key: fixed.get(k.index) ?? k.key }));
}

function deterministicOrder<E extends TimedEvent>(x: Keyed<E>, y: Keyed<E>): number {
  if (x.key !== y.key) return x.key - y.key;
  if (x.event.station !== y.event.station) return x.event.station < y.event.station ? -1 : 1;
  if (x.event.epoch !== y.event.epoch) return x.event.epoch - y.event.epoch;
  return x.event.deviceUs - y.event.deviceUs;
}

function placing<E extends TimedEvent>(members: readonly E[], options: ArbitrationOptions): Placing<E> {
  const [first] = members;
  if (members.length === 1 && first !== undefined) return { tie: false, event: first };
  let combined = 0;
  for (let i = 0; i < members.length; i++) {
    for (let j = i + 1; j < members.length; j++) {
      combined = Math.max(combined, compareEvents(members[i] as E, members[j] as E, options).combinedUncertaintyUs);
    }
  }
  const centres = members.map((m) => intervalCentre(m, 'host'));
  return { tie: true, members, separationUs: Math.max(...centres) - Math.min(...centres), combinedUncertaintyUs: combined };
}

/**
 * Ranks events into places, earliest first. A tie is a place of its own with all its members. Input order
 * does not matter (arrival order is never consulted). Throws a RangeError for a non-finite `hostUs` or a
 * negative or non-finite sensor interval (programmer errors: an unsynced station's event carries its arrival
 * time with infinite uncertainty).
 */
export function arbitrate<E extends TimedEvent>(events: readonly E[], options: ArbitrationOptions = {}): Placing<E>[] {
  for (const e of events) {
    if (!Number.isFinite(e.hostUs)) throw new RangeError(`arbitrate: hostUs must be finite, got ${e.hostUs}`);
    for (const w of [e.beforeUs ?? 0, e.afterUs ?? 0]) {
      if (!(w >= 0) || !Number.isFinite(w)) throw new RangeError(`arbitrate: beforeUs/afterUs must be finite and ≥ 0, got ${w}`);
    }
  }
  const sorted = sortKeys(events).sort(deterministicOrder);
  const groups: E[][] = [];
  for (const { event } of sorted) {
    // Find the earliest place holding an event that is not definitely before this one; merge from there on.
    let from = groups.length;
    for (let g = groups.length - 1; g >= 0; g--) {
      if ((groups[g] as E[]).some((m) => compareEvents(m, event, options).order !== 'before')) from = g;
    }
    if (from === groups.length) {
      groups.push([event]);
    } else {
      const merged = groups.splice(from).flat();
      merged.push(event);
      groups.push(merged);
    }
  }
  return groups.map((members) => placing(members, options));
}

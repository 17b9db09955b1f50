/**
 * First-press arbitration: orders timestamped events from several stations into places, and reports as a
 * tie whatever the timestamps cannot separate (design principle 4). Pure.
 *
 * Two events are compared
 * - on the **same station and boot** by their device times: one clock, no mapping error, only each stamp's
 *   resolution (`deviceResolutionUs`, 4 µs for `micros()` on a 16 MHz AVR);
 * - otherwise by their mapped controller times, each ± its `uncertaintyUs` (from clock sync).
 * The earlier one wins when their intervals do not overlap: `|Δ| > u₁ + u₂`. Otherwise they tie.
 *
 * Overlap is not transitive (A ~ B, B ~ C, but A before C), so a place is a connected group: every claimed
 * order between two places holds for every pair across them; inside a tie nothing is claimed. Arrival
 * order is never used: events are sorted by their (mapped) times, equal times by station and device time,
 * only to make the output deterministic; such events are tied anyway.
 */

/** What arbitration needs to know of an event. Extra fields are carried through untouched. */
export interface TimedEvent {
  /** The station that stamped the event. */
  readonly station: string;
  /** The station's boot the stamp belongs to (device times of different boots are not comparable). */
  readonly epoch: number;
  /** Unwrapped device time (µs). */
  readonly deviceUs: number;
  /** Mapped controller time (µs). Must be finite. */
  readonly hostUs: number;
  /** Half width of the interval holding the true controller time (µs); Infinity for a station not synced. */
  readonly uncertaintyUs: number;
}

export interface ArbitrationOptions {
  /** Half width (µs) of a device stamp's interval, for comparisons on one station. Default 4. */
  readonly deviceResolutionUs?: number;
}

/** One place of the ranking: a single event, or a tie between events the timestamps cannot separate. */
export type Placing<E extends TimedEvent> =
  | { readonly tie: false; readonly event: E }
  | {
    readonly tie: true;
    /** The tied events, in order of their (mapped) times; no order is claimed between them. */
    readonly members: readonly E[];
    /** Spread of the members' nominal times (µs): last minus first. */
    readonly separationUs: number;
    /** The widest combined uncertainty (u₁ + u₂, or 2 × device resolution) among the members' pairs (µs). */
    readonly combinedUncertaintyUs: number;
  };

/** How two events compare. */
export interface Comparison {
  /** 'before': a happened first; 'after': b did; 'tie': their intervals overlap. */
  readonly order: 'before' | 'after' | 'tie';
  /** b − a in µs, device time on one station and boot, else controller time. */
  readonly separationUs: number;
  /** The sum of both intervals' half widths (µs). */
  readonly combinedUncertaintyUs: number;
}

function sameClock(a: TimedEvent, b: TimedEvent): boolean {
  return a.station === b.station && a.epoch === b.epoch;
}

/** Compares two events by the rule above. */
export function compareEvents(a: TimedEvent, b: TimedEvent, options: ArbitrationOptions = {}): Comparison {
  const resolution = options.deviceResolutionUs ?? 4;
  const separationUs = sameClock(a, b) ? b.deviceUs - a.deviceUs : b.hostUs - a.hostUs;
  const combinedUncertaintyUs = sameClock(a, b) ? 2 * resolution : a.uncertaintyUs + b.uncertaintyUs;
  const order = separationUs > combinedUncertaintyUs ? 'before' : -separationUs > combinedUncertaintyUs ? 'after' : 'tie';
  return { order, separationUs, combinedUncertaintyUs };
}

interface Keyed<E> {
  readonly event: E;
  readonly key: number;
  readonly index: number;
}

/**
 * Sort keys: the mapped time, except that on one station and boot the device order is authoritative. Two
 * events of one station mapped at different moments (the sync learnt more in between) can come out a few µs
 * reversed; the later one's key is raised to the earlier one's so that sorting never contradicts the device.
 */
function sortKeys<E extends TimedEvent>(events: readonly E[]): Keyed<E>[] {
  const keys = events.map((event, index) => ({ event, key: event.hostUs, index }));
  const byClock = new Map<string, Keyed<E>[]>();
  for (const k of keys) {
    const id = JSON.stringify([k.event.station, k.event.epoch]);
    const list = byClock.get(id) ?? [];
    list.push(k);
    byClock.set(id, list);
  }
  const fixed = new Map<number, number>();
  for (const list of byClock.values()) {
    list.sort((x, y) => x.event.deviceUs - y.event.deviceUs);
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
  const hosts = members.map((m) => m.hostUs);
  return { tie: true, members, separationUs: Math.max(...hosts) - Math.min(...hosts), combinedUncertaintyUs: combined };
}

/**
 * Ranks events into places, earliest first. A tie is a place of its own with all its members. Input order
 * does not matter (arrival order is never consulted). Throws a RangeError for a non-finite `hostUs`
 * (a programmer error: an unsynced station's event carries its arrival time with infinite uncertainty).
 */
export function arbitrate<E extends TimedEvent>(events: readonly E[], options: ArbitrationOptions = {}): Placing<E>[] {
  for (const e of events) if (!Number.isFinite(e.hostUs)) throw new RangeError(`arbitrate: hostUs must be finite, got ${e.hostUs}`);
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

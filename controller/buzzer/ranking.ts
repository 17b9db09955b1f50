/**
 * The ranking of a round's presses, by the time kernel's `arbitrate()` (controller/kernel/event-order.ts): mapped device
 * time across stations, raw device time on one station and boot, each press widened by its button's interrupt
 * latency (`beforeUs`), an explicit tie wherever the intervals overlap. Arrival order is never used. Pure.
 *
 * Host-stamped presses (the johnny-five hub) have no device clock: each is given a clock of its own, so two
 * presses of one hub button are never compared as if `micros()` had stamped them.
 */
import { arbitrate, compareEvents, type TimedEvent } from '../kernel/event-order.ts';
import type { AcceptedPress, BuzzerSetup } from './types.ts';

interface Timed extends TimedEvent {
  readonly press: AcceptedPress;
}

/** One row of a ranking. Tied presses share a place. */
export interface RankedPress {
  readonly press: AcceptedPress;
  /** 1 = first; tied presses have the same place. */
  readonly place: number;
  readonly tie: boolean;
  /** Index of the tie group within the ranking (null when not tied). */
  readonly tieGroup: number | null;
  /** µs behind the (earliest) winner: device time on one station, else mapped time; 0 for the winners. */
  readonly delayUs: number;
}

export interface Ranking {
  readonly rows: readonly RankedPress[];
  /** The first place: one press, or several tied ones with the figures. */
  readonly first: {
    readonly presses: readonly AcceptedPress[];
    readonly separationUs: number;
    readonly combinedUncertaintyUs: number;
  } | null;
}

function timed(press: AcceptedPress, index: number): Timed {
  const t = press.time;
  const station = t.source === 'host' ? `${press.station}#host-${index}` : press.station;
  return {
    station, epoch: t.epoch, deviceUs: t.deviceUs, hostUs: t.hostUs, uncertaintyUs: t.uncertaintyUs,
    beforeUs: t.beforeUs, afterUs: t.afterUs, press,
  };
}

/**
 * Ranks presses, earliest first. With `teamLockout`, only an entrant's earliest press counts; its other
 * presses are dropped here (the caller records them as locked out by the team).
 */
export function rankPresses(presses: readonly AcceptedPress[], setup: Pick<BuzzerSetup, 'deviceResolutionUs'>): Ranking {
  const options = { deviceResolutionUs: setup.deviceResolutionUs };
  const events = presses.map(timed);
  const placings = arbitrate(events, options);
  const rows: RankedPress[] = [];
  const firstPlacing = placings[0];
  const anchor = firstPlacing === undefined ? undefined : firstPlacing.tie ? firstPlacing.members[0] : firstPlacing.event;
  let place = 1;
  let group = 0;
  for (const placing of placings) {
    const members = placing.tie ? placing.members : [placing.event];
    const tieGroup = placing.tie ? group++ : null;
    for (const m of members) {
      const behind = anchor === undefined || placing === firstPlacing ? 0 : compareEvents(anchor, m, options).separationUs;
      const delayUs = Math.max(0, behind);
      rows.push({ press: m.press, place, tie: placing.tie, tieGroup, delayUs });
    }
    place += members.length;
  }
  let first: Ranking['first'] = null;
  if (firstPlacing?.tie === true) {
    const { separationUs, combinedUncertaintyUs } = firstPlacing;
    first = { presses: firstPlacing.members.map((m) => m.press), separationUs, combinedUncertaintyUs };
  } else if (firstPlacing !== undefined) {
    first = { presses: [firstPlacing.event.press], separationUs: 0, combinedUncertaintyUs: 0 };
  }
  return { rows, first };
}

/** The winner's margin over the next place: separation and combined uncertainty (null without a second place). */
export function margin(
  ranking: Ranking, setup: Pick<BuzzerSetup, 'deviceResolutionUs'>,
): { marginUs: number; uncertaintyUs: number } | null {
  const winner = ranking.rows[0];
  const next = ranking.rows.find((r) => r.place > 1);
  if (winner === undefined || next === undefined || winner.tie) return null;
  const c = compareEvents(timed(winner.press, 0), timed(next.press, 1), { deviceResolutionUs: setup.deviceResolutionUs });
  return { marginUs: c.separationUs, uncertaintyUs: c.combinedUncertaintyUs };
}

/**
 * When a card landed, as the engines take it (Zip-Zap's `LandingInterval`, Killer-21's `at ± uncertaintyMs`;
 * docs/timing.md §3): the sensor
 * event's interval — the slap that dated the tag if slap matching found one, else the tag read with its poll
 * window; the ZAP button's interrupt stamp — widened by the clock mapping's uncertainty, in controller ms. The
 * card landed somewhere in `[atEarliest, atLatest]`; `at` is the middle, the best single estimate. Pure.
 *
 * The engine compares plays in controller time only, so two plays on one station get the clock mapping's
 * uncertainty too, which a comparison in device time would not need: a few hundred µs more, on the safe side
 * (more ties, never a wrong order).
 */
import { DEFAULT_MAX_RATE_ERROR } from '../../hardware/clock/arbitration.ts';
import { landingTime, type EventTime, type SensorEvent } from '../../hardware/interface.ts';

/** What dated the landing: the tag read (with its poll window), the slap matched to it, or the button's stamp. */
export type TimedBy = 'tag' | 'slap' | 'button';

/** A landing interval in controller ms: it happened in `[atEarliest, atLatest]`; `at` is the middle. */
export interface Landing {
  readonly at: number;
  readonly atEarliest: number;
  readonly atLatest: number;
  readonly timedBy: TimedBy;
}

/**
 * The half width given to a play from a station whose clock is not synced yet (its time is only the arrival):
 * 1000 s, so that it ties with every contending play rather than being ordered by arrival.
 */
export const UNSYNCED_UNCERTAINTY_US = 1e9;

/** The interval of an event time in controller ms (its `hostUs` already on the runtime's game clock). */
export function intervalMs(time: EventTime, timedBy: TimedBy): Landing {
  const u = Number.isFinite(time.uncertaintyUs) ? time.uncertaintyUs : UNSYNCED_UNCERTAINTY_US;
  const scale = 1 + DEFAULT_MAX_RATE_ERROR;
  const earliest = (time.hostUs - time.beforeUs * scale - u) / 1000;
  const latest = (time.hostUs + time.afterUs * scale + u) / 1000;
  return { at: (earliest + latest) / 2, atEarliest: earliest, atLatest: latest, timedBy };
}

/** The landing interval of a play's sensor event: a card read (dated by its slap when it has one) or a ZAP press. */
export function landingOf(event: SensorEvent): Landing {
  if (event.kind === 'tag-arrived') return intervalMs(landingTime(event), event.slap === undefined ? 'tag' : 'slap');
  return intervalMs(event.time, 'button');
}

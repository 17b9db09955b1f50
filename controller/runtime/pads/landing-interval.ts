/**
 * When a card landed, as the engines take it (Zip-Zap's `LandingInterval`, Killer-21's `at ± uncertaintyMs`;
 * docs/timing.md §3): the sensor
 * event's interval — the slap that dated the tag if slap matching found one, else the tag read with its poll
 * window; the ZAP button's interrupt stamp — widened by the clock mapping's uncertainty, in controller ms. The
 * card landed somewhere in `[atEarliest, atLatest]`; `at` is the middle, the best single estimate. Pure.
 *
 * The widening is the time kernel's (`hostInterval`: the sensor interval scaled by the 1 % rate error, the
 * clock mapping's bound on both sides), so the engines' comparisons (`compareIntervals`) decide on exactly the
 * intervals the buzzer's `arbitrate()` would. The engine compares plays in controller time only, so two plays
 * on one station get the clock mapping's uncertainty too, which a comparison in device time would not need: a
 * few hundred µs more, on the safe side (more ties, never a wrong order).
 */
import { finiteUncertaintyUs, hostInterval } from '../../kernel/clock-bounds.ts';
import { earliestOf, latestOf } from '../../kernel/interval.ts';
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
 * The interval of an event time in controller ms (its `hostUs` already on the runtime's game clock). A station
 * not synced yet gets the kernel's `UNSYNCED_UNCERTAINTY_US` (1000 s): it ties with every contending play
 * rather than being ordered by arrival.
 */
export function intervalMs(time: EventTime, timedBy: TimedBy): Landing {
  const us = hostInterval({ ...time, uncertaintyUs: finiteUncertaintyUs(time.uncertaintyUs) });
  const earliest = earliestOf(us) / 1000;
  const latest = latestOf(us) / 1000;
  return { at: (earliest + latest) / 2, atEarliest: earliest, atLatest: latest, timedBy };
}

/** The landing interval of a play's sensor event: a card read (dated by its slap when it has one) or a ZAP press. */
export function landingOf(event: SensorEvent): Landing {
  if (event.kind === 'tag-arrived') return intervalMs(landingTime(event), event.slap === undefined ? 'tag' : 'slap');
  return intervalMs(event.time, 'button');
}

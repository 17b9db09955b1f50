/**
 * Time intervals and their order with ties: the one comparison every race of the table is decided by — the
 * buzzer ranking, the Zip-Zap race, the Killer-21 red 0 against its Killer and its deadline (docs/timing.md
 * §3). Pure, unit-free (µs or ms, as long as both sides use the same).
 *
 * A thing happened somewhere in `[at − before, at + after]`: `at` is the best single estimate (a stamp, or the
 * middle), `before` and `after` (≥ 0) how far the interval reaches on either side — the convention of
 * `EventTime.beforeUs`/`afterUs`, so that no figure is got by subtracting two large times. `a` is **before** `b`
 * only when a's latest possible moment lies before b's earliest — strictly, and by more than an optional extra
 * `margin`. Otherwise they **tie**: the times cannot order them, and nothing (arrival order least of all) may
 * be used instead. Touching intervals tie (they share a possible moment).
 */

/** Where a thing happened: in `[at − before, at + after]` (`before`, `after` ≥ 0; Infinity: unbounded). */
export interface TimeInterval {
  readonly at: number;
  readonly before: number;
  readonly after: number;
}

/** 'before': a happened first; 'after': b did; 'tie': the intervals (widened by the margin) meet. */
export type IntervalOrder = 'before' | 'after' | 'tie';

/** How two intervals compare, with the figures a referee is shown. */
export interface IntervalComparison {
  readonly order: IntervalOrder;
  /** b.at − a.at: how far apart the best estimates are (negative when b's is the earlier). */
  readonly separation: number;
  /**
   * How far apart the best estimates must be for an order, in the direction they point (a first when
   * `separation` ≥ 0): the earlier one's reach after its `at` plus the later one's reach before its own, plus
   * the margin. With symmetric intervals and no margin, the sum of both half widths.
   */
  readonly combinedUncertainty: number;
}

export interface CompareOptions {
  /**
   * Extra distance (≥ 0) the intervals must keep to be ordered: Zip-Zap's `tieWindowMs`. Default 0: the
   * intervals alone decide.
   */
  readonly margin?: number;
}

/** An exact time: an interval of one point (a referee's entry, a deadline). */
export function exactly(at: number): TimeInterval {
  return { at, before: 0, after: 0 };
}

/** The interval `at ± halfWidth` (halfWidth ≥ 0; Infinity gives an interval that ties with everything). */
export function around(at: number, halfWidth: number): TimeInterval {
  return { at, before: halfWidth, after: halfWidth };
}

/** The interval `[earliest, latest]` around `at` (default: its middle). */
export function between(earliest: number, latest: number, at = (earliest + latest) / 2): TimeInterval {
  return { at, before: at - earliest, after: latest - at };
}

/** The earliest moment of an interval. */
export function earliestOf(i: TimeInterval): number {
  return i.at - i.before;
}

/** The latest moment of an interval. */
export function latestOf(i: TimeInterval): number {
  return i.at + i.after;
}

/** Compares two intervals by the rule above. */
export function compareIntervals(a: TimeInterval, b: TimeInterval, options: CompareOptions = {}): IntervalComparison {
  const margin = options.margin ?? 0;
  const separation = b.at - a.at;
  const aFirst = a.after + b.before + margin; // a's latest is before b's earliest when the separation exceeds this
  const bFirst = b.after + a.before + margin;
  const order: IntervalOrder = separation > aFirst ? 'before' : -separation > bFirst ? 'after' : 'tie';
  return { order, separation, combinedUncertainty: separation >= 0 ? aFirst : bFirst };
}

/** Whether `a` certainly happened before `b` (a's latest before b's earliest, by more than the margin). */
export function isBefore(a: TimeInterval, b: TimeInterval, options: CompareOptions = {}): boolean {
  return compareIntervals(a, b, options).order === 'before';
}

/** Where an interval lies against a deadline: wholly at or before it, wholly after it, or across it. */
export type DeadlineOrder = 'within' | 'after' | 'straddles';

/**
 * An interval against a deadline that is itself known within an interval (a window of fixed length from a
 * landing known within its own interval; `exactly(d)` for a fixed one). A deadline is inclusive: `within` when
 * the latest possible moment is at or before the deadline's earliest; `after` when the earliest possible
 * moment is past the deadline's latest; otherwise it `straddles` it and the times cannot say.
 */
export function againstDeadline(i: TimeInterval, deadline: TimeInterval): DeadlineOrder {
  if (latestOf(i) <= earliestOf(deadline)) return 'within';
  if (earliestOf(i) > latestOf(deadline)) return 'after';
  return 'straddles';
}

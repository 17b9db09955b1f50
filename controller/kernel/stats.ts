/**
 * The small statistics every benchmark and measurement prints, declared once so that "p99" means the same
 * thing in every table of the docs (docs/performance.md, Percentiles).
 *
 * **The percentile convention is nearest rank**: the p-th percentile of n samples is the smallest sample such
 * that at least p % of the samples are ≤ it — the sample at (1-based) rank ⌈p/100 · n⌉, and the smallest
 * sample for p = 0. So p50 of 1,000 samples is the 500th smallest, p99 the 990th, p100 the largest; p50 of
 * an even count is the lower of the two middle samples. Every figure is a sample that was measured, never
 * an interpolation between two.
 *
 * No samples is not zero: every figure of an empty set is `NaN`, which prints as `NaN` and fails every goal
 * it is compared with (a lost sample or an empty cell is a failure, never a smaller denominator).
 */

/** A numeric sample set sorted ascending (a plain array or a typed array). */
export type Sorted = ArrayLike<number>;

/** The values sorted ascending, as a new array (the input is left alone). */
export function sortedAscending(values: Iterable<number>): Float64Array {
  return Float64Array.from(values).sort();
}

/**
 * The p-th percentile of `sorted` (ascending), p in [0, 100], by nearest rank (see the module comment);
 * `NaN` when there are no samples. Throws a RangeError for p outside [0, 100] (a caller's bug).
 */
export function percentile(sorted: Sorted, p: number): number {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile: p must be in [0, 100], got ${p}`);
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  // p · n / 100 can land a hair above a whole number in binary (99.9 · 1000 / 100 = 999.0000000000001).
  const rank = Math.max(1, Math.ceil((p * n) / 100 - 1e-9));
  return sorted[Math.min(n, rank) - 1] as number;
}

/** The arithmetic mean; `NaN` when there are no samples. */
export function mean(values: ArrayLike<number>): number {
  if (values.length === 0) return Number.NaN;
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i] as number;
  return sum / values.length;
}

/** The figures a benchmark prints for one sample set. Every field is `NaN` when `count` is 0. */
export interface Summary {
  readonly count: number;
  readonly min: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
  readonly mean: number;
}

/** Count, min, p50/p90/p99 (nearest rank), max and mean of `values` (in any order; the input is left alone). */
export function summarise(values: Iterable<number>): Summary {
  const sorted = sortedAscending(values);
  const n = sorted.length;
  return {
    count: n,
    min: n === 0 ? Number.NaN : sorted[0] as number,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: n === 0 ? Number.NaN : sorted[n - 1] as number,
    mean: mean(sorted),
  };
}

/**
 * A rolling measurement of how late the host ran (the buzzer hub's host delay on `<base>/bridge/health`): the
 * window's figures and the edge counts since start. Declared here so the hardware that measures it and the
 * transport that publishes it share one shape.
 */
export interface HostDelaySnapshot {
  /** Length of the rolling window, s. */
  readonly windowS: number;
  /** Probe samples in the window (a fully busy loop gives fewer: each late probe counts once). */
  readonly samples: number;
  /** Lateness of the probe timer in the window, ms (0.1 ms steps; 0 without samples). */
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** The allowance the stamps assume, ms (`hardware.buzzerHub.hostDelayMs`). */
  readonly allowanceMs: number;
  /** Edges judged since start, and those whose bound exceeded the allowance. */
  readonly edges: number;
  readonly edgesOver: number;
}

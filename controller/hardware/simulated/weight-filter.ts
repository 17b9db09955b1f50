/**
 * The seat firmware's load-cell arithmetic and stability filter (firmware/src/weight_filter.cpp), the same
 * integer arithmetic in TypeScript, so the simulated table reports weights exactly as a station does.
 */

/** Samples in the filter window (0.5 s at the HX711's 10 samples/s). */
export const WEIGHT_WINDOW = 5;
/** Settled: the window's samples lie within 1.0 g. */
export const WEIGHT_STABLE_BAND_DG = 10;
/** While settled, a drift of the mean by 0.5 g is reported again. */
export const WEIGHT_REPORT_STEP_DG = 5;
/** `calibrate` fails when the mass moved the reading by less than this. */
export const WEIGHT_MIN_CAL_COUNTS = 1000;

const I32_MIN = -0x8000_0000;
const I32_MAX = 0x7fff_ffff;

/** Integer division rounding half away from zero (the firmware's rounding). */
function divRound(num: number, den: number): number {
  const n = den < 0 ? -num : num;
  const d = Math.abs(den);
  return n >= 0 ? Math.trunc((n + Math.trunc(d / 2)) / d) : Math.trunc((n - Math.trunc(d / 2)) / d);
}

/** Decigrams from a raw reading, or undefined when uncalibrated (`perKg` 0) or out of range. */
export function weightDecigrams(raw: number, tare: number, perKg: number): number | undefined {
  if (perKg === 0) return undefined;
  const dg = divRound((raw - tare) * 10_000, perKg);
  return dg < I32_MIN || dg > I32_MAX ? undefined : dg;
}

/** Counts per kg from the average reading with `grams` on the pad, or undefined (calibration failed). */
export function weightCalibration(average: number, tare: number, grams: number): number | undefined {
  const delta = average - tare;
  if (grams === 0 || Math.abs(delta) < WEIGHT_MIN_CAL_COUNTS) return undefined;
  const perKg = divRound(delta * 1000, grams);
  return perKg === 0 || perKg < I32_MIN || perKg > I32_MAX ? undefined : perKg;
}

/** A report the filter wants sent. */
export interface WeightReport {
  readonly dg: number;
  readonly stable: boolean;
}

/**
 * Reports only changes of state: unsettled → settled (`S`, window mean); settled and the mean drifted by
 * ≥ 0.5 g (`S`, new mean); settled → unsettled (`U`, latest sample, once). Nothing before the window fills.
 */
export class WeightFilter {
  private window: number[] = [];
  private settled = false;
  private reported = 0;

  reset(): void {
    this.window = [];
    this.settled = false;
    this.reported = 0;
  }

  /** The filter's current flag (sent with every sample while streaming). */
  get stable(): boolean {
    return this.settled;
  }

  feed(dg: number): WeightReport | undefined {
    this.window.push(dg);
    if (this.window.length > WEIGHT_WINDOW) this.window.shift();
    if (this.window.length < WEIGHT_WINDOW) return undefined;
    const lo = Math.min(...this.window);
    const hi = Math.max(...this.window);
    if (hi - lo > WEIGHT_STABLE_BAND_DG) {
      if (!this.settled) return undefined;
      this.settled = false;
      return { dg, stable: false };
    }
    const sum = this.window.reduce((acc, v) => acc + (v - lo), 0);
    const mean = lo + Math.trunc((sum + Math.trunc(WEIGHT_WINDOW / 2)) / WEIGHT_WINDOW);
    if (this.settled && Math.abs(mean - this.reported) < WEIGHT_REPORT_STEP_DG) return undefined;
    this.settled = true;
    this.reported = mean;
    return { dg: mean, stable: true };
  }
}

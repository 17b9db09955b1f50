/**
 * The terms that widen a stamp into the interval holding the true time (docs/timing.md §2–3), declared once:
 * the device stamp's resolution, the worst clock rate error, the stand-in for "not synced yet", and the two
 * frames an event's interval is taken in (its own device clock, or the controller's). Pure.
 */
import type { TimeInterval } from './interval.ts';

/** The default largest |rate error| of a device clock against the controller's (the clock sync's `maxSkewPpm`). */
export const DEFAULT_MAX_RATE_ERROR = 0.01;

/** Half width (µs) of a device stamp: `micros()` counts in 4 µs steps on a 16 MHz AVR. */
export const DEFAULT_DEVICE_RESOLUTION_US = 4;

/**
 * The finite half width (µs) given to a time from a station whose clock is not synced yet (its time is only
 * the arrival; its `uncertaintyUs` is Infinity, which JSON cannot carry): 1000 s, so that it ties with every
 * contending time rather than being ordered by arrival.
 */
export const UNSYNCED_UNCERTAINTY_US = 1e9;

/** How a stamp is widened; both terms default as above. */
export interface ClockBounds {
  /** Half width (µs) of a device stamp's resolution, for comparisons on one station and boot. Default 4. */
  readonly deviceResolutionUs?: number;
  /**
   * Largest |rate error| of a device clock against the controller's (default 0.01 = 1 %): sensor intervals
   * measured in device µs are widened by it when taken in controller time.
   */
  readonly maxRateError?: number;
}

/** What widening needs of a stamped time (hardware's `EventTime` has it all). */
export interface StampedTime {
  /** Unwrapped device time (µs). */
  readonly deviceUs: number;
  /** Mapped controller time (µs). */
  readonly hostUs: number;
  /** Half width of the clock mapping's interval (µs); Infinity for a station not synced. */
  readonly uncertaintyUs: number;
  /** How long before the stamp the physical thing may have happened (device µs, ≥ 0; default 0). */
  readonly beforeUs?: number;
  /** How long after the stamp it may have happened (device µs, ≥ 0; default 0). */
  readonly afterUs?: number;
}

/** `uncertaintyUs` made finite for JSON: Infinity (not synced) becomes `UNSYNCED_UNCERTAINTY_US`. */
export function finiteUncertaintyUs(uncertaintyUs: number): number {
  return Number.isFinite(uncertaintyUs) ? uncertaintyUs : UNSYNCED_UNCERTAINTY_US;
}

/**
 * The interval on the station's own clock (device µs): the sensor interval plus the stamp's resolution on
 * both sides; no clock mapping. `at` is the stamp. Comparable only with times of the same station and boot.
 */
export function deviceInterval(t: StampedTime, bounds: ClockBounds = {}): TimeInterval {
  const resolution = bounds.deviceResolutionUs ?? DEFAULT_DEVICE_RESOLUTION_US;
  return { at: t.deviceUs, before: (t.beforeUs ?? 0) + resolution, after: (t.afterUs ?? 0) + resolution };
}

/**
 * The interval in controller time (µs): the sensor interval scaled by the worst clock rate, plus the clock
 * mapping's uncertainty on both sides. `at` is the mapped stamp.
 */
export function hostInterval(t: StampedTime, bounds: ClockBounds = {}): TimeInterval {
  const scale = 1 + (bounds.maxRateError ?? DEFAULT_MAX_RATE_ERROR);
  return { at: t.hostUs, before: (t.beforeUs ?? 0) * scale + t.uncertaintyUs, after: (t.afterUs ?? 0) * scale + t.uncertaintyUs };
}

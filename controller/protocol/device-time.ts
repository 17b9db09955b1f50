/**
 * Device time arithmetic. Stations stamp events with the low 32 bits of `micros()`, which wraps every
 * 2^32 µs (~71.6 minutes). The host never compares raw stamps: it takes the signed modular difference to a
 * recent reference stamp from the same station (the last event or `ping` reply), which is exact as long as
 * the two lie less than 2^31 µs (~35.8 minutes) apart — a host pinging every few seconds is far inside that.
 */

const PERIOD = 2 ** 32;
const HALF = 2 ** 31;

/** `t - ref` in µs, both raw 32-bit device stamps, as a signed value in [-2^31, 2^31). */
export function deviceTimeDelta(t: number, ref: number): number {
  const d = (((t - ref) % PERIOD) + PERIOD) % PERIOD;
  return d >= HALF ? d - PERIOD : d;
}

/**
 * Extends a raw 32-bit stamp to a monotonic-scale value, given the previous extended value of the same
 * station (start with the first raw stamp itself). Exact while consecutive stamps are < 2^31 µs apart.
 */
export function unwrapDeviceTime(previous: number, t: number): number {
  return previous + deviceTimeDelta(t, previous % PERIOD);
}

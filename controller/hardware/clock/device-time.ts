/**
 * Device time: extending a station's raw 32-bit `micros()` readings to one timeline per boot, and noticing
 * when the station has restarted.
 *
 * The AVR's `micros()` counts µs in a `uint32_t` and wraps every 2^32 µs (~71.6 min). A station also
 * restarts now and then (watchdog, brown-out, someone pressing reset), after which `micros()` starts again
 * near 0. The host therefore keeps, per station, the furthest reading seen and its extended ("unwrapped")
 * value, and places every new reading relative to it. Each boot is an **epoch**: unwrapped values are only
 * comparable within one epoch, which is why every result carries the epoch number.
 *
 * Pure functions over a plain state value; the caller keeps the state (one per station).
 */

/** The size of the raw reading's range. */
export const U32_RANGE = 2 ** 32;

/** Why a reading was taken to start a new epoch. */
export type ResetReason =
  /** The station announced a different boot counter (its banner); the reliable signal. */
  | 'boot-id'
  /** The reading lies further behind the furthest reading than any reordering on the link explains. */
  | 'backwards'
  /** Device time advanced by a very different amount than host time did (a restart without a banner). */
  | 'inconsistent-with-host';

/** What the host remembers of a station's timeline. Plain data; start with `undefined`. */
export interface DeviceTimeState {
  /** Number of restarts seen since the host started watching this station (0 for the first epoch). */
  readonly epoch: number;
  /** The boot counter of the current epoch, if the station announced one. */
  readonly bootId: number | undefined;
  /** The raw reading at the furthest point of the timeline reached so far. */
  readonly lastRaw: number;
  /** That reading's unwrapped value. */
  readonly lastUs: number;
  /** Host time (µs) at which that reading arrived, if the caller gave one. */
  readonly lastHostUs: number | undefined;
}

/** One raw reading from a station. */
export interface DeviceReading {
  /** The raw `micros()` value, an integer in [0, 2^32). */
  readonly raw: number;
  /** Host time (µs) when the line carrying it arrived; enables the host-consistency check. */
  readonly hostUs?: number | undefined;
  /** The boot counter of the station's latest banner, if known. */
  readonly bootId?: number | undefined;
}

/** Thresholds of the reset detection. */
export interface DeviceTimeOptions {
  /**
   * How far (µs) a reading may lie behind the furthest one seen without meaning a restart. Lines leave a
   * station in the order they are queued, not stamped (a button is reported after its 5 ms debounce,
   * a ping reply at once), so small steps back are normal. Default 1 s.
   */
  readonly backwardToleranceUs?: number;
  /**
   * Allowed disagreement (µs) between device and host elapsed time, beyond the rate tolerance: host arrival
   * times carry USB and scheduling delays and occasional stalls of tens of ms. Default 1 s.
   */
  readonly hostSlackUs?: number;
  /** Allowed relative rate error between device and host clock (0.02 = 2 %, well above a ±0.5 % resonator). */
  readonly maxRateError?: number;
}

/** A reading placed on the station's timeline. */
export interface UnwrappedReading {
  /** The state to keep for the next reading. */
  readonly state: DeviceTimeState;
  /** The unwrapped device time (µs), comparable with other readings of the same epoch only. */
  readonly deviceUs: number;
  /** The epoch the reading belongs to. */
  readonly epoch: number;
  /** Set when this reading starts a new epoch. */
  readonly reset: ResetReason | undefined;
}

const DEFAULTS: Required<DeviceTimeOptions> = { backwardToleranceUs: 1_000_000, hostSlackUs: 1_000_000, maxRateError: 0.02 };

/**
 * `later − earlier` for two raw readings, modulo 2^32, as a signed value in [−2^31, 2^31). Exact as long as
 * the true distance is below 2^31 µs (~35.8 min).
 */
export function u32Delta(later: number, earlier: number): number {
  // The difference of two values in [0, 2^32) lies in (−2^32, 2^32); `| 0` reduces it modulo 2^32 into int32.
  return (later - earlier) | 0;
}

function checkRaw(raw: number): void {
  if (!Number.isInteger(raw) || raw < 0 || raw >= U32_RANGE) throw new RangeError(`device time must be an integer in [0, 2^32), got ${raw}`);
}

function newEpoch(previous: DeviceTimeState | undefined, reading: DeviceReading,
  reset: ResetReason | undefined): UnwrappedReading {
  const epoch = previous === undefined ? 0 : previous.epoch + 1;
  const state: DeviceTimeState = {
    epoch, bootId: reading.bootId, lastRaw: reading.raw, lastUs: reading.raw, lastHostUs: reading.hostUs,
  };
  // A new epoch's timeline starts at the raw value itself, so the first 71 minutes need no unwrapping at all.
  return { state, deviceUs: reading.raw, epoch, reset };
}

/**
 * Places a raw reading on the station's timeline.
 *
 * Without host times the reading is placed by the signed modular difference to the furthest reading (exact
 * while readings are less than ~35.8 min apart). With host times on both readings the number of wraps is
 * chosen so that device elapsed time best matches host elapsed time, which also survives a station that
 * stayed silent for hours.
 *
 * A new epoch starts (and `reset` says why) when the boot counter changes, when the reading lies more than
 * `backwardToleranceUs` behind, or when device and host elapsed times disagree by more than
 * `hostSlackUs + maxRateError × host elapsed`. The last check catches a restart without a banner unless
 * the restarted counter happens to land within about a second of where the old one would be (a chance of
 * about 2 s in 71.6 min); the banner's boot counter is the signal to rely on.
 *
 * Throws a RangeError for a raw value outside [0, 2^32) (a programmer error: the codec validates lines).
 */
export function advanceDeviceTime(state: DeviceTimeState | undefined, reading: DeviceReading,
  options: DeviceTimeOptions = {}): UnwrappedReading {
  checkRaw(reading.raw);
  if (state === undefined) return newEpoch(undefined, reading, undefined);
  const o = { ...DEFAULTS, ...options };
  // A banner is printed only at start-up, so any boot counter other than the epoch's own means a restart
  // (also when the host joined a running station and never saw its first banner).
  if (reading.bootId !== undefined && reading.bootId !== state.bootId) {
    return newEpoch(state, reading, 'boot-id');
  }
  const hostElapsed = reading.hostUs !== undefined && state.lastHostUs !== undefined
    ? reading.hostUs - state.lastHostUs
    : undefined;
  let elapsed = u32Delta(reading.raw, state.lastRaw);
  if (hostElapsed !== undefined) {
    // Choose the wrap count that brings device elapsed time closest to host elapsed time.
    const unsigned = elapsed < 0 ? elapsed + U32_RANGE : elapsed;
    elapsed = unsigned + Math.round((hostElapsed - unsigned) / U32_RANGE) * U32_RANGE;
    if (Math.abs(elapsed - hostElapsed) > o.hostSlackUs + o.maxRateError * Math.abs(hostElapsed)) {
      return newEpoch(state, reading, 'inconsistent-with-host');
    }
  }
  if (elapsed < -o.backwardToleranceUs) return newEpoch(state, reading, 'backwards');
  const deviceUs = state.lastUs + elapsed;
  // A reading from slightly in the past keeps the furthest point as the reference.
  if (elapsed <= 0) return { state, deviceUs, epoch: state.epoch, reset: undefined };
  const next: DeviceTimeState = {
    epoch: state.epoch, bootId: state.bootId, lastRaw: reading.raw, lastUs: deviceUs,
    lastHostUs: reading.hostUs ?? state.lastHostUs,
  };
  return { state: next, deviceUs, epoch: state.epoch, reset: undefined };
}

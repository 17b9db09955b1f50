/**
 * Clock sync for one station: maps the station's device time (µs, unwrapped, one epoch) to controller time,
 * with a bound on the error, from ping/pong exchanges. Pure: no I/O, no clock; host times are passed in.
 *
 * ## Model
 * - The host sends `ping` at host time `send`; the station takes `micros()` (`d`) after the ping line has
 *   arrived and replies at once; the reply arrives at host time `recv`. So the host time at which the
 *   station read `d` lies in `[send + outboundMin, recv − inboundMin]`, where the minima are the parts of
 *   each one-way trip that can never be skipped (the bytes of the line on the serial wire at the baud rate).
 *   Everything else (USB frames, scheduling, busy loops, stalls) only adds delay, in either direction,
 *   with no assumption of symmetry.
 * - The device → host mapping `H(d)` is smooth: its slope `1 + s` stays within `±maxSkewPpm` of 1 (resonator
 *   tolerance) and changes by at most `maxSkewRatePpmPerS` per second (temperature). So near a query point
 *   `q`, `H(d) = H(q) + (1 + s)(d − q) + r` with `|r| ≤ ½ ρ (d − q)²`.
 * - `micros()` has a 4 µs resolution (`stampResolutionUs`), added as slack to every sample.
 *
 * ## Estimate and bound
 * For a query `q`, every sample in the window becomes a slab on the line `(H(q), s)`; the intersection is
 * a convex polygon (see feasible-region.ts). The range of `H(q)` over that polygon is a **hard** interval:
 * if the assumptions above hold, the true host time is inside it. `toHost` returns its middle and its half
 * width. This is the lower/upper envelope of the one-way delays: the lower bound is set by the samples whose
 * outbound trip was fastest, the upper by those whose return trip was fastest, so the bound is much tighter
 * than half the smallest round trip. The half width naturally contains the three parts one would add up by
 * hand: the best samples' residual one-way delays, the fit (slope) error, and its growth when extrapolating
 * past the last sample (plus the `½ρΔ²` allowance for drift changing since).
 *
 * ## Resets
 * `restart()` (a new epoch) clears the samples but keeps what is known about the skew, widened by the
 * allowed skew change since: the resonator is the same after a reset, so one good sample after a reboot
 * already gives a tight mapping. If later samples contradict the kept knowledge (or each other), the
 * oldest conflicting samples and then the kept skew are dropped; `inconsistentSamples` counts them (a
 * health figure: a steady count means the minima or the skew-rate limit are set too tight).
 */
import { FeasibleRegion } from './feasible-region.ts';

/** One ping/pong exchange. Device time is unwrapped and of the sync's current epoch. */
export interface SyncSample {
  /** Host time (µs) just before the ping was written. */
  readonly hostSendUs: number;
  /** The device's `micros()` in the reply, unwrapped (see device-time.ts). */
  readonly deviceUs: number;
  /** Host time (µs) when the reply line arrived. */
  readonly hostRecvUs: number;
  /** This exchange's minimal host → device latency (µs); overrides the configured one (line lengths vary). */
  readonly outboundMinUs?: number | undefined;
  /** This exchange's minimal device → host latency (µs); overrides the configured one. */
  readonly inboundMinUs?: number | undefined;
}

/** Assumptions of the model; every figure is a bound the real system must not exceed. */
export interface ClockSyncConfig {
  /** Least possible host → device latency of a ping, µs (ping bytes × 10 bits / baud). Default 0. */
  readonly outboundMinUs: number;
  /** Least possible device → host latency of a reply, µs (reply bytes × 10 bits / baud). Default 0. */
  readonly inboundMinUs: number;
  /** Resolution of the device's `micros()`, µs: 4 on a 16 MHz AVR. */
  readonly stampResolutionUs: number;
  /** Largest rate error of the station's clock, ppm. Default 10 000 (1 %, twice a ±0.5 % ceramic resonator). */
  readonly maxSkewPpm: number;
  /** Largest change of the rate error per second, ppm/s (temperature). Default 0.1. */
  readonly maxSkewRatePpmPerS: number;
  /** How far back (device µs) samples are kept. Default 60 s: older ones are loose anyway (½ρΔ² = 180 µs). */
  readonly windowUs: number;
  /** At most this many samples are kept (the newest). Default 256. */
  readonly maxSamples: number;
  /** Replies slower than this round trip (µs) are discarded: a stall carries no information. Default 50 ms. */
  readonly maxRoundTripUs: number;
}

export const DEFAULT_CLOCK_SYNC_CONFIG: ClockSyncConfig = {
  outboundMinUs: 0,
  inboundMinUs: 0,
  stampResolutionUs: 4,
  maxSkewPpm: 10_000,
  maxSkewRatePpmPerS: 0.1,
  windowUs: 60_000_000,
  maxSamples: 256,
  maxRoundTripUs: 50_000,
};

/** A device time mapped to controller time. */
export interface HostTime {
  /** Best estimate of the host time (µs): the middle of the interval the samples allow. */
  readonly timeUs: number;
  /** Half width of that interval (µs): under the model's assumptions the true time is within ±this. */
  readonly uncertaintyUs: number;
}

/** The sync's current view of the station's clock, for health reports and logs. */
export interface ClockEstimate {
  /** Host minus device time (µs) at the newest sample. */
  readonly offsetUs: number;
  /** Middle of the allowed skew range (ppm): positive means the device's µs are longer than the host's. */
  readonly skewPpm: number;
  /** Half width of the allowed skew range (ppm). */
  readonly skewUncertaintyPpm: number;
  /** Samples in the window. */
  readonly samples: number;
  /** Smallest round trip in the window (µs). */
  readonly bestRoundTripUs: number;
}

/** Why `addSample` refused a sample. */
export type SampleRejection = 'round-trip-too-long' | 'shorter-than-minimum' | 'not-after-previous' | 'bad-times';

interface StoredSample {
  readonly d: number;
  readonly lo: number;
  readonly hi: number;
}

/** Skew known from earlier samples (ppm as a fraction), valid at host time `atUs`. */
interface SkewPrior {
  readonly lo: number;
  readonly hi: number;
  readonly atUs: number;
}

/** Half width of the initial α range: far wider than any real offset, so only the samples bound it. */
const FREE_ALPHA_US = 1e12;

/** The estimator. A small class with no I/O: the constructor only stores the configuration. */
export class ClockSync {
  /** The model's assumptions in force. */
  readonly config: ClockSyncConfig;
  private samples: StoredSample[] = [];
  private prior: SkewPrior | undefined;
  private readonly region = new FeasibleRegion();
  private dropped = 0;

  constructor(config: Partial<ClockSyncConfig> = {}) {
    this.config = { ...DEFAULT_CLOCK_SYNC_CONFIG, ...config };
  }

  /** Samples in the window. */
  get sampleCount(): number {
    return this.samples.length;
  }

  /** Samples dropped so far because they contradicted newer ones (see the class comment). */
  get inconsistentSamples(): number {
    return this.dropped;
  }

  /**
   * Adds one ping/pong exchange. Samples must come in device-time order (replies arrive in order on one
   * serial line). Returns undefined when the sample was taken, else why it was refused; a refused sample
   * changes nothing.
   */
  addSample(sample: SyncSample): SampleRejection | undefined {
    const { hostSendUs, deviceUs, hostRecvUs } = sample;
    if (![hostSendUs, deviceUs, hostRecvUs].every(Number.isFinite) || hostRecvUs < hostSendUs) return 'bad-times';
    if (hostRecvUs - hostSendUs > this.config.maxRoundTripUs) return 'round-trip-too-long';
    const lo = hostSendUs + (sample.outboundMinUs ?? this.config.outboundMinUs);
    const hi = hostRecvUs - (sample.inboundMinUs ?? this.config.inboundMinUs);
    if (hi < lo) return 'shorter-than-minimum';
    const last = this.samples.at(-1);
    if (last !== undefined && deviceUs <= last.d) return 'not-after-previous';
    this.samples.push({ d: deviceUs, lo, hi });
    this.trim(deviceUs);
    return undefined;
  }

  /**
   * Maps a device time of the current epoch to host time. Returns undefined before the first sample of the
   * epoch. Works for any device time, before or after the samples; the uncertainty grows with the distance
   * (slope error and the allowed drift change).
   */
  toHost(deviceUs: number): HostTime | undefined {
    const fit = this.fit(deviceUs);
    if (fit === undefined) return undefined;
    const { min, max } = this.region.range(0);
    return { timeUs: fit.baseUs + (min + max) / 2, uncertaintyUs: (max - min) / 2 };
  }

  /** The current estimate at the newest sample, or undefined before the first sample of the epoch. */
  estimate(): ClockEstimate | undefined {
    const newest = this.samples.at(-1);
    if (newest === undefined) return undefined;
    const mapped = this.toHost(newest.d);
    if (mapped === undefined) return undefined;
    const skew = this.region.skewRange();
    const bestRoundTrip = Math.min(...this.samples.map((s) => s.hi - s.lo));
    return {
      offsetUs: mapped.timeUs - newest.d,
      skewPpm: ((skew.min + skew.max) / 2) * 1e6,
      skewUncertaintyPpm: ((skew.max - skew.min) / 2) * 1e6,
      samples: this.samples.length,
      bestRoundTripUs: bestRoundTrip + this.config.outboundMinUs + this.config.inboundMinUs,
    };
  }

  /**
   * Starts a new epoch (the station restarted): forgets the samples, keeps the skew range learnt so far
   * (the resonator has not changed), which then widens by the allowed skew rate as host time passes.
   */
  restart(): void {
    const newest = this.samples.at(-1);
    if (newest !== undefined && this.fit(newest.d) !== undefined) this.keepSkew(newest);
    this.samples = [];
  }

  /** Drops samples beyond the window, in batches, remembering the skew they pinned down. */
  private trim(newestUs: number): void {
    const { windowUs, maxSamples } = this.config;
    const first = this.samples[0];
    if (first === undefined) return;
    // Trim only once the window has overrun by a quarter, so the cost of keeping the skew is paid rarely.
    if (first.d >= newestUs - windowUs * 1.25 && this.samples.length <= maxSamples * 1.25) return;
    const newest = this.samples.at(-1) as StoredSample;
    if (this.fit(newest.d) !== undefined) this.keepSkew(newest);
    let cut = this.samples.findIndex((s) => s.d >= newestUs - windowUs);
    cut = Math.max(cut, this.samples.length - maxSamples);
    this.samples = this.samples.slice(cut);
  }

  /** Records the region's skew range (the region must just have been fitted at `at.d`). */
  private keepSkew(at: StoredSample): void {
    const { min, max } = this.region.skewRange();
    this.prior = { lo: min, hi: max, atUs: (at.lo + at.hi) / 2 };
  }

  /**
   * Builds the feasible region for a query at device time `q`, dropping contradicting samples (oldest
   * first) or the kept skew when needed. Leaves the region fitted; returns the host time its α is relative to.
   */
  private fit(q: number): { readonly baseUs: number } | undefined {
    for (;;) {
      const newest = this.samples.at(-1);
      if (newest === undefined) return undefined;
      // α is H(q) relative to the newest sample's midpoint carried forward at rate 1: small numbers, exact sums.
      const baseUs = (newest.lo + newest.hi) / 2 + (q - newest.d);
      const failed = this.build(q, baseUs);
      if (failed < 0) return { baseUs };
      if (this.prior !== undefined && failed >= this.samples.length - 2) {
        // Two samples (or one) disagree with the kept skew: the skew knowledge is what is wrong.
        this.prior = undefined;
        continue;
      }
      this.dropped += failed + 1;
      this.samples = this.samples.slice(failed + 1);
    }
  }

  /** Clips the region by every sample, newest first. Returns −1, or the index of the sample that emptied it. */
  private build(q: number, baseUs: number): number {
    const { maxSkewPpm, maxSkewRatePpmPerS, stampResolutionUs } = this.config;
    const maxSkew = maxSkewPpm * 1e-6;
    // ρ: allowed change of skew per µs of elapsed time (ppm/s → fraction/µs).
    const rho = maxSkewRatePpmPerS * 1e-12;
    let skewLo = -maxSkew;
    let skewHi = maxSkew;
    if (this.prior !== undefined) {
      // The kept skew range widens by ρ per µs since it was learnt; 1 % extra for device vs host µs.
      const widen = rho * Math.abs(baseUs - this.prior.atUs) * 1.01;
      skewLo = Math.max(skewLo, this.prior.lo - widen);
      skewHi = Math.min(skewHi, this.prior.hi + widen);
      if (skewLo > skewHi) {
        this.prior = undefined;
        skewLo = -maxSkew;
        skewHi = maxSkew;
      }
    }
    this.region.reset(-FREE_ALPHA_US, FREE_ALPHA_US, skewLo, skewHi);
    for (let i = this.samples.length - 1; i >= 0; i--) {
      const s = this.samples[i] as StoredSample;
      const delta = s.d - q;
      const slack = stampResolutionUs + 0.5 * rho * delta * delta;
      // lo − slack ≤ H(q) + (1 + skew)·delta ≤ hi + slack, with H(q) = baseUs + α:
      const shift = baseUs + delta;
      if (!this.region.clipSlab(delta, s.lo - slack - shift, s.hi + slack - shift)) return i;
    }
    return -1;
  }
}

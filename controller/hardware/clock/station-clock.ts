/**
 * One station's clock as the runtime sees it: raw `micros()` readings in, controller times out. Ties
 * device-time.ts (wrap, epochs, restart detection) to clock-sync.ts (mapping with a bound). No I/O: the
 * caller passes every host time in.
 */
import { ClockSync, type ClockSyncConfig, type SampleRejection } from './clock-sync.ts';
import { advanceDeviceTime, type DeviceTimeOptions, type DeviceTimeState, type ResetReason } from './device-time.ts';

/** Options of a station clock. */
export interface StationClockConfig {
  /** The sync model's assumptions (see ClockSyncConfig). */
  readonly sync?: Partial<ClockSyncConfig>;
  /** Restart detection thresholds (see DeviceTimeOptions). */
  readonly deviceTime?: DeviceTimeOptions;
  /**
   * What an event's own stamp adds to the mapping's uncertainty, µs: `micros()` resolution (4 µs) plus the
   * spread of the interrupt latency before the ISR reads it. Default 8.
   */
  readonly eventStampUncertaintyUs?: number;
}

/** An event's device time placed on the station's timeline and mapped to controller time. */
export interface StampedTime {
  /** The station's epoch (boot) the stamp belongs to. */
  readonly epoch: number;
  /** Unwrapped device time (µs), comparable only within the epoch. */
  readonly deviceUs: number;
  /** Controller time (µs). When `synced` is false this is only the arrival time and decides nothing. */
  readonly hostUs: number;
  /** Half width of the interval holding the true controller time (µs); Infinity when not synced. */
  readonly uncertaintyUs: number;
  /** False until the epoch has its first ping/pong sample. */
  readonly synced: boolean;
  /** Set when this reading revealed a restart. */
  readonly reset: ResetReason | undefined;
}

/** A ping/pong exchange with the raw device stamp. */
export interface RawSyncSample {
  readonly hostSendUs: number;
  /** The raw `t=` of the reply, in [0, 2^32). */
  readonly raw: number;
  readonly hostRecvUs: number;
  readonly outboundMinUs?: number | undefined;
  readonly inboundMinUs?: number | undefined;
}

export class StationClock {
  /** The estimator for the current epoch (read it for health figures). */
  readonly sync: ClockSync;
  private time: DeviceTimeState | undefined;
  private bootId: number | undefined;
  private readonly config: StationClockConfig;

  constructor(config: StationClockConfig = {}) {
    this.config = config;
    this.sync = new ClockSync(config.sync);
  }

  /** The current epoch (0 until the first restart is seen). */
  get epoch(): number {
    return this.time?.epoch ?? 0;
  }

  /** The station printed its banner: every later reading belongs to this boot. */
  banner(bootId: number): void {
    this.bootId = bootId;
  }

  /** Feeds a ping/pong exchange. Returns a restart seen on the way and the sample's rejection, if any. */
  pong(sample: RawSyncSample): { readonly reset: ResetReason | undefined; readonly rejected: SampleRejection | undefined } {
    const reset = this.place(sample.raw, sample.hostRecvUs);
    const rejected = this.sync.addSample({ ...sample, deviceUs: reset.deviceUs });
    return { reset: reset.reset, rejected };
  }

  /** Places an event stamp and maps it to controller time. `hostRecvUs` is when its line arrived. */
  event(raw: number, hostRecvUs: number): StampedTime {
    const placed = this.place(raw, hostRecvUs);
    const mapped = this.sync.toHost(placed.deviceUs);
    if (mapped === undefined) {
      return {
        epoch: placed.epoch, deviceUs: placed.deviceUs, hostUs: hostRecvUs,
        uncertaintyUs: Infinity, synced: false, reset: placed.reset,
      };
    }
    return {
      epoch: placed.epoch, deviceUs: placed.deviceUs, hostUs: mapped.timeUs,
      uncertaintyUs: mapped.uncertaintyUs + (this.config.eventStampUncertaintyUs ?? 8), synced: true, reset: placed.reset,
    };
  }

  private place(raw: number, hostUs: number): { deviceUs: number; epoch: number; reset: ResetReason | undefined } {
    const placed = advanceDeviceTime(this.time, { raw, hostUs, bootId: this.bootId }, this.config.deviceTime);
    this.time = placed.state;
    if (placed.reset !== undefined) this.sync.restart();
    return placed;
  }
}

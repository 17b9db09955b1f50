/**
 * What the driver knows about one station, keyed by the id from its banner (not by port: a station moved
 * to another port is the same station, with the same counters and clock history).
 */
import type { FaultDevice, StationKind } from '../../protocol/index.ts';
import { StationClock, type StationClockConfig } from '../clock/index.ts';
import type { ErrorCounters, StationHealth, StationId } from '../interface.ts';
import type { ClockPinger } from './clock-pinger.ts';
import { SlapMatcher, type SlapMatchTiming } from './slap-matching.ts';
import type { StationFacts } from './station-facts.ts';
import type { StationLink } from './station-link.ts';

/** A serial station's health: the interface's figures plus what only a serial station has. */
export interface SerialStationHealth extends StationHealth {
  readonly kind: StationKind;
  /** Boot counter from the latest banner or `info`. */
  readonly boot: number;
  /** The clock epoch events currently carry (starts at 0, +1 per restart seen). */
  readonly epoch: number;
  /** Sensors that reported `FAULT+` and not yet `FAULT-` (cleared by a banner: a fresh boot reports anew). */
  readonly faults: readonly FaultDevice[];
}

type MutableCounters = { -readonly [K in keyof ErrorCounters]: ErrorCounters[K] };

export class StationRecord {
  readonly id: StationId;
  readonly clock: StationClock;
  readonly errors: MutableCounters = { badLines: 0, lostEvents: 0, timeouts: 0, commandErrors: 0, resets: 0, disconnects: 0 };
  facts: StationFacts;
  port: string;
  online = false;
  lastSeenMs: number | undefined;
  /** The sequence number the next event must carry; undefined when unknown (identified without a banner). */
  expectedSeq: number | undefined;
  readonly faults = new Set<FaultDevice>();
  link: StationLink | undefined;
  pinger: ClockPinger | undefined;
  clockFigures: StationHealth['clock'];
  /**
   * The boot id given to the `StationClock`: bumped at every banner (a banner always means a restart,
   * even if a failing EEPROM left the boot counter unchanged) and when `info` shows another boot counter.
   */
  clockBoot = 0;
  /** Controller µs of the last health report caused only by a clock update. */
  lastClockReportUs: number | undefined;
  /** Slaps matched to the tag arrivals that follow them (slap-matching.ts); it follows the clock's epochs. */
  readonly slaps: SlapMatcher;
  /** While tag arrivals wait for slap matching: the ping that brings a fresh stamp, and the last-resort flush. */
  slapTimers: { ping?: symbol; flush?: symbol } = {};

  constructor(facts: StationFacts, port: string, clockConfig: StationClockConfig, slapTiming: Partial<SlapMatchTiming> = {}) {
    this.id = facts.station;
    this.facts = facts;
    this.port = port;
    this.clock = new StationClock(clockConfig);
    this.slaps = new SlapMatcher(slapTiming);
  }

  health(): SerialStationHealth {
    return {
      station: this.id,
      kind: this.facts.kind,
      online: this.online,
      firmware: this.facts.firmware,
      protocol: this.facts.protocol,
      port: this.port,
      ...(this.lastSeenMs === undefined ? {} : { lastSeenMs: this.lastSeenMs }),
      errors: { ...this.errors },
      ...(this.clockFigures === undefined ? {} : { clock: this.clockFigures }),
      boot: this.facts.boot,
      epoch: this.clock.epoch,
      faults: [...this.faults].sort(),
    };
  }
}

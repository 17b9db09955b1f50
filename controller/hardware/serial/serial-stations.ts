/**
 * The serial station driver: seat and pile stations running our firmware over USB serial, behind the
 * table's one hardware interface (`TableHardware`).
 *
 * - `start()` opens the configured ports and, when discovery is configured, every port whose USB vendor id
 *   matches (rescanned periodically, so a station plugged in later is found).
 * - Stations are identified by the **id in their banner**, never by port: a station moved to another port
 *   keeps its id, counters and clock history. A second port announcing an id that is online elsewhere is
 *   refused and reported (`ports()`), and its lines are ignored until its next banner.
 * - Every line is decoded by the protocol codec; a bad line is counted in the station's health, logged,
 *   and never acted on.
 * - Events become typed `SensorEvent`s with the station's device time mapped to controller time by its
 *   `StationClock` (fed by a `ClockPinger`) and the interval in which the physical thing happened
 *   (`beforeUs`/`afterUs`, event-interval.ts); lost events are counted from sequence gaps, a restart (new
 *   boot counter, or a time jump) starts a new clock epoch and is counted.
 * - A port that closes or fails is reopened with exponential backoff (port-supervisor.ts).
 *
 * Nothing here throws at run time: failures are values (`CommandResult`, typed outcomes) and counters.
 */
import type { Result } from '../../kernel/result.ts';
import { isValidStationId, SUPPORTED_PROTOCOL_VERSIONS, type EventMessage } from '../../protocol/index.ts';
import { SeededRandom } from '../../kernel/random.ts';
import type { RawSyncSample, StationClockConfig } from '../clock/index.ts';
import {
  systemClock,
  type Clock, type CommandResult, type EventTime, type LampPattern, type SensorEvent, type StationHealth, type StationId,
  type TableHardware,
} from '../interface.ts';
import { DEFAULT_BACKOFF, type BackoffPolicy } from './backoff.ts';
import { DEFAULT_SENSOR_TIMING, eventInterval, type SensorTiming } from './event-interval.ts';
import { DEFAULT_SLAP_MATCH_TIMING, type MatchOutput, type SlapMatchTiming } from './slap-matching.ts';
import { ClockPinger, DEFAULT_PING_SCHEDULE, type PingSchedule } from './clock-pinger.ts';
import type { CommandBody, CommandOutcome } from './command-queue.ts';
import { driverFailure, failureOf, parseI32Field, type CommandFailure } from './command-results.ts';
import { lostBetween, nextSequence } from './event-sequence.ts';
import { lampCommand } from './lamp-commands.ts';
import { consoleLogger, printableLine, type HardwareLogger } from './logger.ts';
import { PortSupervisor, type PortStatus } from './port-supervisor.ts';
import { toSensorEvent } from './sensor-events.ts';
import { listPortsByVendor, nativeBinding, STATION_BAUD_RATE, type SerialBinding } from './serial-binding.ts';
import { factsFromInfo, type StationFacts } from './station-facts.ts';
import { DEFAULT_LINK_TIMING, StationLink, type LinkSignal, type LinkTiming } from './station-link.ts';
import { StationRecord, type SerialStationHealth } from './station-record.ts';
import { systemScheduler, TimerSet, type RandomSource, type Scheduler } from './timers.ts';

/** Finding station ports by USB vendor id. */
export interface SerialDiscovery {
  /** USB vendor ids in hex, e.g. `2341` (Arduino), `1a86` (CH340), `0403` (FTDI), `2a03` (arduino.org). */
  readonly vendorIds: readonly string[];
  /** How often to list ports again, ms. Default 5000 (on Linux each listing runs `udevadm` per port). */
  readonly rescanMs?: number;
}

/** Configuration of the driver; everything but `ports`/`discovery` has a default. */
export interface SerialStationsOptions {
  /** Port paths to open (`/dev/ttyACM0`, `/dev/serial/by-id/…`). A path that is not there yet is retried. */
  readonly ports?: readonly string[];
  /** Open every port with a matching USB vendor id, now and whenever one appears. */
  readonly discovery?: SerialDiscovery;
  /** The serialport binding. Default: serialport's native binding; the simulated table and the emulator pass theirs. */
  readonly binding?: SerialBinding;
  /** Default 115200 (the firmware's rate). */
  readonly baudRate?: number;
  /** Controller time. Default: the system clock. */
  readonly clock?: Clock;
  /** Timers. Default: Node's. */
  readonly scheduler?: Scheduler;
  /** Jitter of the reconnect backoff. Default: a seeded generator (replayable). */
  readonly random?: RandomSource;
  readonly logger?: HardwareLogger;
  readonly timing?: Partial<LinkTiming>;
  readonly ping?: Partial<PingSchedule>;
  readonly backoff?: Partial<BackoffPolicy>;
  /** Clock sync and restart detection (see clock/station-clock.ts). */
  readonly stationClock?: StationClockConfig;
  /**
   * The physical allowances behind every event's interval (`beforeUs`/`afterUs`: interrupt latency, tag
   * power-up, the protocol-1 inventory cycle, the weight filter window; event-interval.ts). Default
   * `DEFAULT_SENSOR_TIMING`.
   */
  readonly sensorTiming?: Partial<SensorTiming>;
  /**
   * Slap matching (slap-matching.ts): on a station that sends `SLAP`, a `TAG+` waits until a line stamped
   * `burstUs` after it has arrived (the driver pings for one), at most `maxHoldMs` of controller time.
   */
  readonly slapMatching?: Partial<SlapMatchTiming> & { readonly maxHoldMs?: number };
  /**
   * Least gap between health reports caused only by new clock figures, ms (pings arrive 10 times a second;
   * online/offline and counter changes are reported at once). Default 5000.
   */
  readonly clockReportMs?: number;
}

/** The `info` reply. */
export type StationInfo = StationFacts;

interface Settings {
  readonly ports: readonly string[];
  readonly discovery: SerialDiscovery | undefined;
  readonly binding: SerialBinding;
  readonly baudRate: number;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  readonly random: RandomSource;
  readonly logger: HardwareLogger;
  readonly timing: LinkTiming;
  readonly ping: PingSchedule;
  readonly backoff: BackoffPolicy;
  readonly stationClock: StationClockConfig;
  readonly sensorTiming: SensorTiming;
  readonly slapMatching: SlapMatchTiming & { readonly maxHoldMs: number };
  readonly clockReportMs: number;
}

type OkOutcome = Extract<CommandOutcome, { readonly ok: true }>;

const SEAT_ONLY = 'lamp, scale and button are seat-only';

/**
 * The longest a tag arrival waits for slap matching when no line of its station arrives (a ping is answered
 * within a few ms, so only a stalled link gets here): it is then decided on what has arrived.
 */
export const DEFAULT_SLAP_HOLD_MAX_MS = 250;

export class SerialStations implements TableHardware {
  private readonly options: SerialStationsOptions;
  private settings: Settings | undefined;
  private timers: TimerSet | undefined;
  private readonly records = new Map<StationId, StationRecord>();
  private readonly bound = new Map<StationLink, StationRecord>();
  private readonly supervisors = new Map<string, PortSupervisor>();
  private readonly eventListeners = new Set<(event: SensorEvent) => void>();
  private readonly healthListeners = new Set<(health: StationHealth) => void>();
  private readonly portListeners = new Set<(status: PortStatus) => void>();
  private stopping: Promise<void> | undefined;

  /** Stores the options; nothing is opened before `start()`. */
  constructor(options: SerialStationsOptions) {
    this.options = options;
  }

  // ------------------------------------------------------------------------------------ lifecycle

  /**
   * Opens the configured ports and starts discovery. Resolves once the driver runs; stations come online
   * later, each reported through `onHealth`. Rejects only for a configuration that cannot work (no ports
   * and no discovery, an empty path), or when called after `stop()`.
   */
  async start(): Promise<void> {
    if (this.stopping !== undefined) throw new Error('SerialStations: start() after stop()');
    if (this.settings !== undefined) return;
    const settings = this.resolveSettings();
    this.settings = settings;
    this.timers = new TimerSet(settings.scheduler);
    for (const path of settings.ports) this.addPort(path, false);
    if (settings.discovery !== undefined) await this.rescan(settings.discovery);
  }

  /** Closes every port and cancels every timer; known stations go offline. Safe to call twice. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.timers?.clear();
      for (const record of this.records.values()) record.pinger?.stop();
      await Promise.all([...this.supervisors.values()].map((s) => s.stop()));
      for (const record of this.records.values()) {
        this.matched(record, record.slaps.flush());
        if (record.link === undefined && !record.online) continue;
        record.link = undefined;
        record.online = false;
        this.reportHealth(record);
      }
      this.bound.clear();
    })();
    return this.stopping;
  }

  // ---------------------------------------------------------------------------------- subscriptions

  onEvent(listener: (event: SensorEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  onHealth(listener: (health: StationHealth) => void): () => void {
    this.healthListeners.add(listener);
    return () => this.healthListeners.delete(listener);
  }

  /** Subscribes to port changes (opening, identified, no banner, refused, retrying); returns the unsubscribe function. */
  onPort(listener: (status: PortStatus) => void): () => void {
    this.portListeners.add(listener);
    return () => this.portListeners.delete(listener);
  }

  /** Every station seen since start, online or not. */
  health(): SerialStationHealth[] {
    return [...this.records.values()].map((r) => r.health());
  }

  /** Every port opened or being retried. */
  ports(): PortStatus[] {
    return [...this.supervisors.values()].map((s) => s.status());
  }

  // ------------------------------------------------------------------------------------ commands

  /**
   * Sets a station's lamp (`lamp on|off|blink …`; timings in lamp-commands.ts). Failures: `UNKNOWN_STATION`,
   * `OFFLINE`, `NOT_SUPPORTED` (a pile station has no lamp; not sent), `TIMEOUT`, `DISCONNECTED`, or the
   * station's `err` code by name.
   */
  async setLamp(station: StationId, pattern: LampPattern): Promise<CommandResult> {
    // Only the newest pattern matters: a lamp command still waiting for its turn is replaced by this one.
    const result = await this.seatCommand(station, lampCommand(pattern), 'lamp');
    return result.ok ? { ok: true } : result;
  }

  /**
   * `tare`: the station averages 8 readings (~0.8 s) with the pad empty and stores the zero point in EEPROM.
   * Resolves with the stored zero in HX711 counts. Station failures: `SENSOR_TIMEOUT`, `EEPROM_FAILED`.
   */
  async tare(station: StationId): Promise<Result<{ readonly tareCounts: number }>> {
    const result = await this.seatCommand(station, { verb: 'tare' });
    if (!result.ok) return result;
    const tareCounts = parseI32Field(result.fields.tare);
    return tareCounts === undefined ? driverFailure('BAD_REPLY', 'tare=') : { ok: true, tareCounts };
  }

  /**
   * `calibrate <grams>`: a known mass of 1..100000 g lies on the pad (after `tare`); the station averages 8
   * readings and stores counts per kg. Failures: `INVALID_ARGUMENT` (not sent), `CALIBRATION_FAILED` (the
   * mass moved the reading by < 1000 counts), `SENSOR_TIMEOUT`, `EEPROM_FAILED`.
   */
  async calibrate(station: StationId, grams: number): Promise<Result<{ readonly perKg: number }>> {
    if (!Number.isInteger(grams) || grams < 1 || grams > 100_000) {
      return driverFailure('INVALID_ARGUMENT', `grams must be an integer in 1..100000, got ${grams}`);
    }
    const result = await this.seatCommand(station, { verb: 'calibrate', grams });
    if (!result.ok) return result;
    const perKg = parseI32Field(result.fields.per_kg);
    return perKg === undefined ? driverFailure('BAD_REPLY', 'per_kg=') : { ok: true, perKg };
  }

  /** `raw`: one fresh signed 24-bit HX711 reading, in counts. Failure: `SENSOR_TIMEOUT`. */
  async raw(station: StationId): Promise<Result<{ readonly counts: number }>> {
    const result = await this.seatCommand(station, { verb: 'raw' });
    if (!result.ok) return result;
    const counts = parseI32Field(result.fields.raw);
    return counts === undefined ? driverFailure('BAD_REPLY', 'raw=') : { ok: true, counts };
  }

  /** `scale`: the stored calibration; `perKg` 0 means uncalibrated (the station then sends no weights). */
  async scale(station: StationId): Promise<Result<{ readonly tareCounts: number; readonly perKg: number }>> {
    const result = await this.seatCommand(station, { verb: 'scale' });
    if (!result.ok) return result;
    const tareCounts = parseI32Field(result.fields.tare);
    const perKg = parseI32Field(result.fields.per_kg);
    return tareCounts === undefined || perKg === undefined
      ? driverFailure('BAD_REPLY', 'tare= per_kg=')
      : { ok: true, tareCounts, perKg };
  }

  /**
   * `id set <newId>`: stores a new id in the station's EEPROM. The station keeps running under its old id
   * until it restarts; its next banner carries the new id, and from then on the driver knows it by that
   * one (the old id stays in `health()`, offline). Failures: `INVALID_ARGUMENT` (1..16 of
   * `[A-Za-z0-9._-]`; not sent), `EEPROM_FAILED`.
   */
  async setStationId(station: StationId, newId: string): Promise<Result<{ readonly station: StationId }>> {
    if (!isValidStationId(newId)) return driverFailure('INVALID_ARGUMENT', `station id "${newId}": 1..16 of A-Z a-z 0-9 . _ -`);
    const result = await this.command(station, { verb: 'id-set', station: newId });
    if (!result.ok) return result;
    const stored = result.fields.id;
    return stored === undefined ? driverFailure('BAD_REPLY', 'id=') : { ok: true, station: stored };
  }

  /** `info`: the banner's facts, asked anew (firmware, protocol, kind, stored id, boot counter). */
  async info(station: StationId): Promise<Result<StationInfo>> {
    const result = await this.command(station, { verb: 'info' });
    if (!result.ok) return result;
    const facts = factsFromInfo(result.fields);
    return facts === undefined ? driverFailure('BAD_REPLY', 'fw= proto= kind= id= boot=') : { ok: true, ...facts };
  }

  /**
   * Sends one line exactly as typed (a terminal for people wiring a station; the contract tests' bad lines).
   * It takes its turn behind other commands, and the next reply of any id is its answer: `fields` for an
   * `ok`, the station's code for an `err`. A line the station ignores (an empty one) times out.
   */
  async sendLine(station: StationId, line: string): Promise<Result<{ readonly fields: Readonly<Record<string, string>> }>> {
    const link = this.linkOf(station);
    if ('ok' in link) return link;
    const outcome = await link.commandRaw(line);
    return outcome.ok ? { ok: true, fields: outcome.fields } : failureOf(outcome);
  }

  // ------------------------------------------------------------------------------------ internals

  private resolveSettings(): Settings {
    const o = this.options;
    const ports = o.ports ?? [];
    if (ports.length === 0 && o.discovery === undefined) {
      throw new Error('SerialStations: configure `ports` (paths) or `discovery` (USB vendor ids)');
    }
    const empty = ports.filter((p) => p.trim() === '');
    if (empty.length > 0) throw new Error('SerialStations: a port path is empty');
    if (o.discovery?.vendorIds.length === 0) throw new Error('SerialStations: `discovery.vendorIds` is empty');
    const seeded = new SeededRandom('serial-stations backoff');
    return {
      ports: [...new Set(ports)],
      discovery: o.discovery,
      binding: o.binding ?? nativeBinding(),
      baudRate: o.baudRate ?? STATION_BAUD_RATE,
      clock: o.clock ?? systemClock,
      scheduler: o.scheduler ?? systemScheduler,
      random: o.random ?? (() => seeded.next()),
      logger: o.logger ?? consoleLogger,
      timing: { ...DEFAULT_LINK_TIMING, ...o.timing },
      ping: { ...DEFAULT_PING_SCHEDULE, ...o.ping },
      backoff: { ...DEFAULT_BACKOFF, ...o.backoff },
      stationClock: o.stationClock ?? {},
      sensorTiming: { ...DEFAULT_SENSOR_TIMING, ...o.sensorTiming },
      slapMatching: { ...DEFAULT_SLAP_MATCH_TIMING, maxHoldMs: DEFAULT_SLAP_HOLD_MAX_MS, ...o.slapMatching },
      clockReportMs: o.clockReportMs ?? 5000,
    };
  }

  private get s(): Settings {
    if (this.settings === undefined) throw new Error('SerialStations: not started');
    return this.settings;
  }

  private addPort(path: string, discovered: boolean): void {
    if (this.supervisors.has(path) || this.stopping !== undefined) return;
    const s = this.s;
    const supervisor = new PortSupervisor(path, discovered, {
      createLink: (linkPath, onSignal) => new StationLink({
        path: linkPath, binding: s.binding, baudRate: s.baudRate, clock: s.clock, scheduler: s.scheduler, timing: s.timing,
      }, onSignal),
      scheduler: s.scheduler,
      backoff: s.backoff,
      random: s.random,
      onSignal: (sup, link, signal) => {
        this.linkSignal(sup, link, signal);
      },
      onStatus: (status) => {
        this.emit(this.portListeners, status);
      },
    });
    this.supervisors.set(path, supervisor);
    supervisor.start();
  }

  /** Lists ports, opens new matches, forgets vanished ones that are not connected; then schedules the next scan. */
  private async rescan(discovery: SerialDiscovery): Promise<void> {
    try {
      const found = await listPortsByVendor(this.s.binding, discovery.vendorIds);
      if (this.stopping !== undefined) return;
      const paths = new Set(found.map((p) => p.path));
      for (const path of paths) this.addPort(path, true);
      for (const [path, supervisor] of this.supervisors) {
        const status = supervisor.status();
        if (status.discovered && !paths.has(path) && supervisor.link === undefined) {
          this.supervisors.delete(path);
          void supervisor.stop();
        }
      }
    } catch (error) {
      // On Linux, listing needs `udevadm` (package udev); configured paths still work without it.
      this.s.logger.warn('serial: listing ports failed', { error: error instanceof Error ? error.message : String(error) });
    }
    if (this.stopping !== undefined) return;
    this.timers?.after(discovery.rescanMs ?? 5000, () => {
      void this.rescan(discovery);
    });
  }

  private linkSignal(supervisor: PortSupervisor, link: StationLink, signal: LinkSignal): void {
    const record = this.bound.get(link);
    const log = this.s.logger;
    switch (signal.type) {
      case 'line-received':
        if (record !== undefined) record.lastSeenMs = this.s.clock.wallMs();
        return;
      case 'identified':
        this.identify(supervisor, link, signal.facts, signal.via);
        return;
      case 'no-banner':
        if (record !== undefined) return;
        supervisor.silent();
        log.warn('serial: no banner and no answer to info', { port: link.path, waitedMs: signal.waitedMs });
        return;
      case 'event':
        if (record === undefined) {
          log.debug('serial: event from an unidentified station ignored', { port: link.path, seq: signal.event.seq });
          return;
        }
        this.event(record, signal.event, signal.receivedUs);
        return;
      case 'bad-line':
        if (record === undefined) supervisor.count('badLines');
        else this.count(record, 'badLines');
        log.warn('serial: bad line ignored', {
          port: link.path, station: record?.id, error: signal.error.error, detail: signal.error.message,
          line: printableLine(signal.line),
        });
        return;
      case 'stray-reply':
        log.info('serial: reply to no command in flight ignored', { port: link.path, station: record?.id, line: printableLine(signal.line) });
        return;
      case 'command-error':
        if (record !== undefined) this.count(record, 'commandErrors');
        log.info('serial: command refused', { port: link.path, station: record?.id, code: signal.code, line: printableLine(signal.line) });
        return;
      case 'command-timeout':
        if (record === undefined) supervisor.count('timeouts');
        else this.count(record, 'timeouts');
        log.warn('serial: command timed out', { port: link.path, station: record?.id, line: printableLine(signal.line) });
        return;
      case 'port-error':
        log.warn('serial: port error', { port: link.path, station: record?.id, error: signal.message });
        return;
      case 'closed':
        this.bound.delete(link);
        if (record?.link !== link) return;
        this.goOffline(record, !signal.requested);
        log.warn('serial: station disconnected', { port: link.path, station: record.id, reason: signal.message });
        return;
    }
  }

  private identify(supervisor: PortSupervisor, link: StationLink, facts: StationFacts, via: 'banner' | 'info'): void {
    const log = this.s.logger;
    const previous = this.bound.get(link);
    if (previous !== undefined && previous.id !== facts.station) {
      // The station came back under another id (after `id set` and a restart): the old id goes offline.
      this.bound.delete(link);
      this.goOffline(previous, false);
    }
    if (!SUPPORTED_PROTOCOL_VERSIONS.includes(facts.protocol)) {
      if (previous?.id === facts.station) {
        this.bound.delete(link);
        this.goOffline(previous, false);
      }
      supervisor.refused(facts.station, 'protocol-version');
      log.warn('serial: station refused: protocol version not spoken here', {
        port: link.path, station: facts.station, protocol: facts.protocol, spoken: SUPPORTED_PROTOCOL_VERSIONS.join(','),
      });
      return;
    }
    const existing = this.records.get(facts.station);
    if (existing?.link !== undefined && existing.link !== link && existing.link.isOpen) {
      supervisor.refused(facts.station, 'duplicate-id');
      log.warn('serial: station refused: its id is already online on another port', {
        port: link.path, station: facts.station, servedOn: existing.link.path,
      });
      return;
    }
    const record = existing ?? new StationRecord(facts, link.path, this.s.stationClock, this.s.slapMatching);
    this.records.set(record.id, record);
    const sameBoot = record.link === link && record.facts.boot === facts.boot;
    if (via === 'banner') record.expectedSeq = 0;
    else if (existing !== undefined && existing.facts.boot !== facts.boot) record.expectedSeq = undefined;
    if (via === 'banner') record.faults.clear();
    record.facts = facts;
    record.port = link.path;
    record.link = link;
    record.online = true;
    record.lastSeenMs = this.s.clock.wallMs();
    // A banner always means a restart; without one (identified by `info`) only a new boot counter does.
    const restarted = existing !== undefined && (via === 'banner' || existing.facts.boot !== facts.boot);
    if (restarted) record.clockBoot++;
    record.clock.banner(record.clockBoot);
    this.bound.set(link, record);
    supervisor.identified(record.id);
    record.pinger?.stop();
    record.pinger = new ClockPinger(link, this.s.scheduler, this.s.ping, (sample) => {
      this.pong(record, sample);
    });
    record.pinger.start();
    record.lastClockReportUs = undefined;
    this.reportHealth(record);
    if (!sameBoot) {
      log.info('serial: station online', {
        station: record.id, port: link.path, via, kind: facts.kind, firmware: facts.firmware, boot: facts.boot,
      });
    }
  }

  private event(record: StationRecord, message: EventMessage, receivedUs: number): void {
    let changed = false;
    const lost = lostBetween(record.expectedSeq, message.seq);
    record.expectedSeq = nextSequence(message.seq);
    if (lost > 0) {
      record.errors.lostEvents += lost;
      changed = true;
      this.s.logger.warn('serial: events lost (sequence gap)', { station: record.id, lost, seq: message.seq });
    }
    const stamped = record.clock.event(message.t, receivedUs);
    if (stamped.reset !== undefined) {
      record.errors.resets++;
      changed = true;
      this.s.logger.warn('serial: station restart seen in its timestamps', { station: record.id, reason: stamped.reset });
    }
    if (message.event === 'FAULT+' || message.event === 'FAULT-') {
      const before = record.faults.has(message.device);
      if (message.event === 'FAULT+') record.faults.add(message.device);
      else record.faults.delete(message.device);
      changed ||= before !== record.faults.has(message.device);
      const what = message.event === 'FAULT+' ? 'fault' : 'recovered';
      this.s.logger.warn(`serial: sensor ${what}`, { station: record.id, device: message.device });
    }
    const time: EventTime = {
      source: 'device', epoch: stamped.epoch, deviceUs: stamped.deviceUs, rawUs: message.t,
      hostUs: stamped.hostUs, uncertaintyUs: stamped.uncertaintyUs, ...eventInterval(message, this.s.sensorTiming),
    };
    const sensorEvent = toSensorEvent(record.id, message, time);
    if (changed) this.reportHealth(record);
    this.deliver(record, sensorEvent, time);
  }

  /**
   * Delivers an event through the station's slap matching: a tag arrival may wait for it (and comes out with
   * its slap's time), every other line's stamp tells the matcher how far the station has got.
   */
  private deliver(record: StationRecord, event: SensorEvent | undefined, time: EventTime): void {
    const matcher = record.slaps;
    if (event?.kind === 'tag-arrived') {
      this.matched(record, matcher.tag(event));
    } else if (event?.kind === 'slap') {
      this.matched(record, matcher.slap(event));
      this.emit(this.eventListeners, event);
    } else {
      // A tag's departure must not overtake its own arrival.
      if (event?.kind === 'tag-left' && matcher.isHeld(event.uid)) this.matched(record, matcher.flush());
      this.matched(record, matcher.observe(time.epoch, time.deviceUs));
      if (event !== undefined) this.emit(this.eventListeners, event);
    }
    this.armSlapTimers(record);
  }

  /** Emits what slap matching released and logs what it noticed. */
  private matched(record: StationRecord, outputs: readonly MatchOutput[]): void {
    for (const o of outputs) {
      switch (o.kind) {
        case 'tag':
          this.emit(this.eventListeners, o.event);
          break;
        case 'knock':
          this.s.logger.info('serial: a slap that no tag followed (a knock on the table?): dropped', {
            station: record.id, seq: o.slap.seq, t: o.slap.time.rawUs,
          });
          break;
        case 'late':
          this.s.logger.warn('serial: a slap fitted two tags read further apart than slapMatching.burstUs: the later one keeps its window', {
            station: record.id, slap: o.slap.seq, earlier: o.earlier.uid, uid: o.event.uid,
          });
          break;
      }
    }
  }

  /**
   * While tag arrivals wait for slap matching: ping once their burst has passed (the reply's stamp releases
   * them), and flush after `maxHoldMs` if no line comes at all. Cleared when nothing waits.
   */
  private armSlapTimers(record: StationRecord): void {
    const timers = this.timers;
    if (timers === undefined) return;
    const t = record.slapTimers;
    if (!record.slaps.holding) {
      timers.cancel(t.ping);
      timers.cancel(t.flush);
      record.slapTimers = {};
      return;
    }
    const { burstUs, maxHoldMs } = this.s.slapMatching;
    // Device µs run up to 1 % slow against controller µs (the clock model's bound): wait a little longer.
    t.ping ??= timers.after((burstUs * 1.02) / 1000 + 1, () => {
      t.ping = undefined;
      record.pinger?.pingNow();
      this.armSlapTimers(record);
    });
    t.flush ??= timers.after(maxHoldMs, () => {
      t.flush = undefined;
      this.matched(record, record.slaps.flush());
      this.armSlapTimers(record);
    });
  }

  private pong(record: StationRecord, sample: RawSyncSample): void {
    const { reset, rejected } = record.clock.pong(sample);
    let report = false;
    if (reset !== undefined) {
      record.errors.resets++;
      report = true;
    }
    if (rejected !== undefined) this.s.logger.debug('serial: ping sample not used', { station: record.id, reason: rejected });
    const estimate = record.clock.sync.estimate();
    // The bound a stamp taken now would get (the mapping at the newest sample, plus the stamp's own).
    const now = record.clock.event(sample.raw, sample.hostRecvUs);
    // The reply was queued after every line the station had queued before: tags waiting for slap matching
    // whose burst it covers can go.
    this.matched(record, record.slaps.observe(now.epoch, now.deviceUs));
    this.armSlapTimers(record);
    if (estimate !== undefined && now.synced) {
      // ClockSync's skew is the slope error of device → host (positive: the station's µs are long, it runs
      // slow); health reports the station's rate against the controller's (positive: it runs fast).
      const driftPpm = (1 / (1 + estimate.skewPpm * 1e-6) - 1) * 1e6;
      record.clockFigures = { offsetUs: estimate.offsetUs, driftPpm, uncertaintyUs: now.uncertaintyUs };
      const last = record.lastClockReportUs;
      if (last === undefined || sample.hostRecvUs - last >= this.s.clockReportMs * 1000) report = true;
    }
    if (report) {
      record.lastClockReportUs = sample.hostRecvUs;
      this.reportHealth(record);
    }
  }

  private goOffline(record: StationRecord, disconnected: boolean): void {
    // Nothing more will come from this boot's lines: decide the tags waiting for slap matching.
    this.matched(record, record.slaps.flush());
    this.armSlapTimers(record);
    record.pinger?.stop();
    record.pinger = undefined;
    record.link = undefined;
    record.online = false;
    if (disconnected) record.errors.disconnects++;
    this.reportHealth(record);
  }

  private count(record: StationRecord, what: 'badLines' | 'timeouts' | 'commandErrors'): void {
    record.errors[what]++;
    this.reportHealth(record);
  }

  private reportHealth(record: StationRecord): void {
    this.emit(this.healthListeners, record.health());
  }

  /** Calls every listener; one that throws is logged and does not stop the driver or the others. */
  private emit<T>(listeners: ReadonlySet<(value: T) => void>, value: T): void {
    for (const listener of listeners) {
      try {
        listener(value);
      } catch (error) {
        this.settings?.logger.warn('serial: a listener threw', { error: error instanceof Error ? error.message : String(error) });
      }
    }
  }

  private linkOf(station: StationId): StationLink | CommandFailure {
    const record = this.records.get(station);
    if (record === undefined) return driverFailure('UNKNOWN_STATION', station);
    if (record.link === undefined || !record.online) return driverFailure('OFFLINE', station);
    return record.link;
  }

  private async command(station: StationId, body: CommandBody, slot?: string): Promise<OkOutcome | CommandFailure> {
    const link = this.linkOf(station);
    if ('ok' in link) return link;
    const outcome = await link.command(body, undefined, slot);
    return outcome.ok ? outcome : failureOf(outcome);
  }

  private async seatCommand(station: StationId, body: CommandBody, slot?: string): Promise<OkOutcome | CommandFailure> {
    const record = this.records.get(station);
    if (record !== undefined && record.facts.kind !== 'seat') {
      return driverFailure('NOT_SUPPORTED', `${station} is a ${record.facts.kind} station; ${SEAT_ONLY}`);
    }
    return this.command(station, body, slot);
  }
}

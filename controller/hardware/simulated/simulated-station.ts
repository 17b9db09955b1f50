/**
 * A software model of a seat or pile station running our firmware, at the protocol level: what
 * firmware/src/station.cpp does, line for line, with the physical world (tags on the reader, mass on the
 * pad, a finger on the button) driven by a script instead of sensors.
 *
 * - It boots like an Uno/Nano: a bootloader pause (input is lost meanwhile), then the banner with the
 *   EEPROM boot counter +1, `micros()` from 0 (32-bit, wrapping, with an optional rate error), event
 *   sequence from 0, lamp off, streaming off.
 * - It answers every command exactly as protocol.md says, through the same codec (`parseCommandLine` for
 *   input, `formatDeviceLine` for output), so a malformed command gets the same `err` a station sends.
 * - `tare`, `calibrate` and `raw` wait for their load-cell samples, and meanwhile no input is read (it
 *   waits in a 64-byte receive buffer; bytes beyond are lost), as on the board.
 * - The RFID reader, protocol 2 (firmware 0.4.0, fast-poll-reader.ts): a poll every step (`rfidPollUs`) that
 *   only a tag just entered and powered up (`tagPowerUpUs`) answers, one read per poll in answer order,
 *   presence checks of the known tags in rounds of at least `presenceRoundMs`, a field reset and full
 *   inventory for a tag that missed two checks (`TAG-` at its end); `TAG±` carry their window. Protocol 1 (firmware
 *   0.2.0, tag-presence.ts): an inventory cycle every `inventoryCycleMs`, `TAG±` without a window. The load
 *   cell is sampled every 100 ms through the firmware's stability filter, the button debounced for 5 ms and
 *   stamped with its first edge.
 * - A station with a slap sensor (`slapSensor`, protocol 2) sends `SLAP`, stamped when a card hits the pad (an
 *   item placed or tapped, or a knock), as the firmware does from its interrupt: one per impact, none for
 *   another impact within `slapDeadMs` of the last edge (the sensor still rings).
 *
 * Bytes come in through `receive()` (when they reach the station's UART) and go out through the `output`
 * callback (when the station writes them); the wire in between is the table's business.
 */
import {
  formatDeviceLine, parseCommandLine, PROTOCOL_VERSION,
  type Command, type DeviceMessage, type EventMessage, type FaultDevice, type StationKind,
} from '../../protocol/index.ts';
import type { Clock } from '../interface.ts';
import { TimerSet, type Scheduler } from '../serial/timers.ts';
import { lampLit, type LampMode } from './simulated-lamp.ts';
import { SimulatedPad } from './simulated-pad.ts';
import { StationLineReader } from './station-line-reader.ts';
import { FastPollReader } from './fast-poll-reader.ts';
import { TagPresence } from './tag-presence.ts';
import { weightCalibration, weightDecigrams, WeightFilter } from './weight-filter.ts';

/** Firmware timing (firmware/src/station.h, button.h). */
const SCALE_SAMPLE_MS = 100;
/** Field on before the first poll after boot (ISO 14443-3 guard time). */
const RFID_FIELD_GUARD_US = 6000;
/** How often the firmware checks the reader chip's health (and reports `FAULT±` rfid). */
const RFID_HEALTH_MS = 20;
const BUTTON_QUIET_MS = 5;
const SCALE_AVERAGE_SAMPLES = 8;
const SCALE_FAULT_MS = 1000;
const SCALE_COMMAND_TIMEOUT_MS = 2000;
/** The AVR core's serial receive buffer. */
const RX_BUFFER_BYTES = 64;
const U32_RANGE = 2 ** 32;

/** How a simulated station is built and behaves. */
export interface SimulatedStationConfig {
  /** Station id stored in its EEPROM: what its banner announces. */
  readonly id: string;
  readonly kind: StationKind;
  /** Firmware version in the banner. Default `0.4.0` (protocol 2). */
  readonly firmware: string;
  /**
   * Protocol version in the banner and on the lines. Default 2; 1 sends `TAG±` without their window and no
   * `SLAP` (firmware 0.1–0.2); another value makes the driver refuse the station.
   */
  readonly protocol: number;
  /**
   * Protocol 2: the time from one RFID poll to the next, µs (a step: the poll, and a presence check when tags
   * rest on the reader). Default 3000: about firmware 0.4.0's longest measured window with cards resting (3.06 ms
   * with 4-byte UIDs, 3.47-3.58 ms with 7-byte ones; 1.04 ms with an empty reader; hardware/protocol.md).
   */
  readonly rfidPollUs: number;
  /** Protocol 2: the least time between two rounds of presence checks, ms. Default 10 (`RFID_CHECK_PERIOD_US`). */
  readonly presenceRoundMs: number;
  /** Protocol 1: the inventory cycle period, ms. Default 50 (firmware 0.2's `RFID_CYCLE_US`). */
  readonly inventoryCycleMs: number;
  /**
   * How long a tag that entered the field takes before it answers a poll, µs. Default 2500 (within the 5 ms
   * ISO 14443 allows, which the host assumes).
   */
  readonly tagPowerUpUs: number;
  /** A piezo slap sensor under the pad: `SLAP` when something hits it (protocol 2). Default false. */
  readonly slapSensor: boolean;
  /** The slap sensor's dead time: an impact within this many ms of its last edge sends no new `SLAP`. Default 20. */
  readonly slapDeadMs: number;
  /** The EEPROM boot counter before the first start; the first banner shows this + 1. Default 0. */
  readonly bootCounter: number;
  /** Rate error of the resonator, ppm (a Nano's ceramic resonator: up to ±5000). Default 0. */
  readonly skewPpm: number;
  /** `micros()` at the first start (later starts begin at 0); near 2^32 to exercise the wrap. Default 0. */
  readonly firstBootMicros: number;
  /** Bootloader pause after a reset, ms (a real Uno/Nano: ~1.5–2 s). Default 1600. */
  readonly bootloaderMs: number;
  /** Resets when the host opens the port (DTR), as an Uno/Nano does. Default true. */
  readonly resetOnOpen: boolean;
  /** Prints nothing and answers nothing: a board that is not running our firmware. Default false. */
  readonly silent: boolean;
  /** Load cell reading with an empty pad, counts. Default 84213. */
  readonly zeroCounts: number;
  /** Load cell counts per kg. Default 420000. */
  readonly countsPerKg: number;
  /** Starts with a stored calibration matching the load cell (else uncalibrated: no weights). Default true. */
  readonly calibrated: boolean;
  /** Peak load-cell noise in grams (uniform, seeded). Default 0. */
  readonly noiseGrams: number;
  /** Time a mass takes to come to rest on the pad, ms. Default 300. */
  readonly settleMs: number;
  /**
   * The reader's range for a 25 mm tag, mm from the antenna: a tag held closer answers every poll; up to 3 mm
   * beyond it comes and goes (in the field 150 ms, out 150 ms); farther, never. Default 30 (a well-tuned
   * MFRC522 module). Only `holdTag` uses it; items placed on the pad are always in range.
   */
  readonly readRangeMm: number;
  /** Antenna to a tag lying on the pad's surface, mm (hardware/bill-of-materials.md, `card-distance`). Default 14.1. */
  readonly antennaDepthMm: number;
  /** Seed of the noise. */
  readonly seed: string | number;
  /**
   * How many received commands `received()` keeps at least (the oldest go first, once twice as many are kept): a
   * long run's memory. Default RECEIVED_KEPT.
   */
  readonly receivedLimit: number;
}

/** How many received command lines a station keeps at least (`received()`). */
export const RECEIVED_KEPT = 1000;

export const DEFAULT_STATION_CONFIG: Omit<SimulatedStationConfig, 'id' | 'kind'> = {
  firmware: '0.4.0',
  protocol: PROTOCOL_VERSION,
  rfidPollUs: 3000,
  presenceRoundMs: 10,
  inventoryCycleMs: 50,
  tagPowerUpUs: 2500,
  slapSensor: false,
  slapDeadMs: 20,
  bootCounter: 0,
  skewPpm: 0,
  firstBootMicros: 0,
  bootloaderMs: 1600,
  resetOnOpen: true,
  silent: false,
  zeroCounts: 84_213,
  countsPerKg: 420_000,
  calibrated: true,
  noiseGrams: 0,
  settleMs: 300,
  readRangeMm: 30,
  antennaDepthMm: 14.1,
  seed: 1,
  receivedLimit: RECEIVED_KEPT,
};

/** Beyond the read range, this many mm of distance where a tag comes and goes. */
const MARGINAL_MM = 3;
/** How long a marginal tag stays in, then out of, the field, ms. */
const MARGINAL_FLICKER_MS = 150;

/** What the station needs from its surroundings. */
export interface SimulatedStationDeps {
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  /** Bytes the station writes to its serial port (lines with `\n`, or raw garbage). */
  readonly output: (bytes: string | Buffer) => void;
}

/** A command line the station received, as decoded (the lamp, tare, … the driver asked for). */
export interface ReceivedCommand {
  /** Controller time (µs) when the station read it. */
  readonly atUs: number;
  readonly line: string;
  /** The decoded command, or undefined when it was refused with `code`. */
  readonly command: Command | undefined;
  readonly code: number | undefined;
}

/** The lamp as last commanded, with its level now. */
export type LampState = LampMode & { readonly lit: boolean };

/** An item on the pad / a tag in the reader's field. */
export interface PlacedItem {
  /** The tag's UID (4, 7 or 10 bytes in uppercase hex); omit for a mass without a tag. */
  readonly uid?: string;
  /** Mass in grams. */
  readonly grams: number;
  /** It hits the pad hard enough for a slap sensor (if the station has one). Default true. */
  readonly slap?: boolean;
}

/**
 * How one happening reaches the firmware, where a script wants it to differ from the station's defaults (a
 * benchmark's world drawing the physics per happening).
 */
export interface HappeningPhysics {
  /** The tag's power-up before it answers a poll, µs. Default: the station's `tagPowerUpUs`. */
  readonly powerUpUs?: number;
  /** From the edge (slap, button) to the `micros()` stamp in the interrupt, µs. Default 0. */
  readonly stampDelayUs?: number;
}

interface PendingScaleCommand {
  readonly verb: 'tare' | 'calibrate' | 'raw';
  readonly id: number;
  readonly grams: number;
  readonly wanted: number;
  got: number;
  sum: number;
  progressMs: number;
}

export class SimulatedStation {
  readonly config: SimulatedStationConfig;
  private readonly deps: SimulatedStationDeps;
  /** Timers of the running firmware: cleared by a reset or power loss. */
  private readonly firmware: TimerSet;
  /** Timers of the physical world (a card lifted after a tap): they outlive a reset. */
  private readonly world: TimerSet;
  private readonly log: ReceivedCommand[] = [];

  private power: 'off' | 'bootloader' | 'running' = 'off';
  private starts = 0;
  private bootHostUs = 0;
  private bootMicros = 0;
  private storedId: string;
  private bootCount: number;
  private tare: number;
  private perKg: number;
  private seq = 0;
  private lamp: LampMode = { mode: 'off' };
  private streaming = false;
  private readonly lineReader = new StationLineReader();
  private rx: number[] = [];
  private pending: PendingScaleCommand | undefined;
  private tags: TagPresence;
  /** Protocol 2's reader (undefined while not running, and for protocol 1). */
  private reader: FastPollReader | undefined;
  /** Controller µs of the slap sensor's last edge. */
  private lastSlapUs = -Infinity;
  private readonly filter = new WeightFilter();
  private lastSampleMs = 0;
  private reportedFault = { rfid: false, scale: false };

  // The physical world: the tags in the field, with the controller time each entered it.
  private readonly field = new Map<string, number>();
  /** Tags held above the pad by `holdTag`, with the token of the current hold (a marginal one flickers while it holds). */
  private readonly held = new Map<string, symbol>();
  private readonly pad: SimulatedPad;
  private readonly broken = { rfid: false, scale: false };

  constructor(config: SimulatedStationConfig, deps: SimulatedStationDeps) {
    this.config = config;
    this.deps = deps;
    this.firmware = new TimerSet(deps.scheduler);
    this.world = new TimerSet(deps.scheduler);
    this.pad = new SimulatedPad(config, `${String(config.seed)}:${config.id}`);
    this.tags = new TagPresence(config.kind === 'pile' ? 32 : 16);
    this.storedId = config.id;
    this.bootCount = config.bootCounter;
    this.tare = config.calibrated ? config.zeroCounts : 0;
    this.perKg = config.calibrated ? config.countsPerKg : 0;
  }

  // ------------------------------------------------------------------------------------------- power

  /** Powers the board (USB plugged in): bootloader pause, then the sketch starts. No effect when on. */
  powerOn(): void {
    if (this.power !== 'off') return;
    this.power = 'bootloader';
    this.firmware.after(this.config.bootloaderMs, () => {
      this.setup();
    });
  }

  /** Cuts power (USB unplugged): the firmware stops; what lies on the pad stays there. */
  powerOff(): void {
    this.power = 'off';
    this.firmware.clear();
    this.pending = undefined;
    this.rx = [];
  }

  /** A reset (reset button, watchdog, DTR when the host opens the port): reboots through the bootloader. */
  reset(): void {
    this.powerOff();
    this.powerOn();
  }

  /** The host opened the port: an Uno/Nano resets (DTR), unless configured otherwise. */
  portOpened(): void {
    if (this.config.resetOnOpen && this.power !== 'off') this.reset();
  }

  /** Stops every timer for good. */
  dispose(): void {
    this.powerOff();
    this.world.clear();
  }

  /** True while the sketch runs (not off, not in the bootloader). */
  get running(): boolean {
    return this.power === 'running';
  }

  // ------------------------------------------------------------------------------------ readback

  /** The id stored in EEPROM now (after `id set`, the banner carries it from the next start). */
  get storedStationId(): string {
    return this.storedId;
  }

  /** The boot counter of the current (or last) start. */
  get boot(): number {
    return this.bootCount;
  }

  /** The station's `micros()` now (0 while it is not running). */
  micros(): number {
    return this.microsAt(this.deps.clock.nowUs());
  }

  /** The lamp as last commanded, with its level now. */
  lampState(): LampState {
    return { ...this.lamp, lit: lampLit(this.lamp, this.nowMs()) };
  }

  /** Whether `stream on` is active. */
  get isStreaming(): boolean {
    return this.streaming;
  }

  /** The stored calibration (`perKg` 0: uncalibrated). */
  calibration(): { readonly tare: number; readonly perKg: number } {
    return { tare: this.tare, perKg: this.perKg };
  }

  /**
   * The command lines read, in order: every one since the start, up to the latest `receivedLimit`–2×`receivedLimit`
   * (a station left running — the demo — is pinged and lamped for ever; the whole list grew without bound).
   */
  received(): readonly ReceivedCommand[] {
    return this.log;
  }

  private remember(command: ReceivedCommand): void {
    this.log.push(command);
    // Cut back to the latest `receivedLimit` once twice as many are kept: one splice per many commands.
    const keep = this.config.receivedLimit;
    if (this.log.length >= 2 * keep) this.log.splice(0, this.log.length - keep);
  }

  // ----------------------------------------------------------------------------- physical world

  /**
   * Puts an item on the pad: it hits the pad now (`SLAP` on a station with a slap sensor, unless `slap` is
   * false), its tag enters the reader's field now, its mass settles over `settleMs`.
   */
  placeItem(item: PlacedItem): void {
    if (item.slap !== false) this.slapEdge();
    if (item.uid !== undefined) this.enterField(item.uid);
    this.pad.place(item.uid, item.grams, this.deps.clock.nowUs());
  }

  /** Lifts an item: its tag leaves the field (reported after two missed polls), its mass leaves the pad. */
  liftItem(uid: string): void {
    this.held.delete(uid);
    this.leaveField(uid);
    this.pad.lift(uid, this.deps.clock.nowUs());
  }

  /** Taps a card on the pad for `dwellMs` (no mass stays): it hits the pad (`SLAP` unless `slap` is false). */
  tapCard(uid: string, dwellMs: number, slap = true, physics: HappeningPhysics = {}): void {
    if (slap) this.slapEdge(physics.stampDelayUs ?? 0);
    this.enterField(uid, physics.powerUpUs);
    this.world.after(dwellMs, () => {
      this.leaveField(uid);
    });
  }

  /**
   * Holds a tag (no mass, no slap) `heightMm` above the pad's surface, as a maker measuring the read range does
   * with spacers: within `readRangeMm` of the antenna it enters the field, in the marginal band beyond it comes
   * and goes, farther it is never seen. `liftItem` takes it away.
   */
  holdTag(uid: string, heightMm: number): void {
    const distance = this.config.antennaDepthMm + heightMm;
    this.leaveField(uid);
    const token = Symbol(uid);
    this.held.set(uid, token);
    if (distance <= this.config.readRangeMm) {
      this.enterField(uid);
      return;
    }
    if (distance > this.config.readRangeMm + MARGINAL_MM) return;
    const flicker = (inField: boolean): void => {
      if (this.held.get(uid) !== token) return;
      if (inField) this.enterField(uid);
      else this.leaveField(uid);
      this.world.after(MARGINAL_FLICKER_MS, () => {
        flicker(!inField);
      });
    };
    flicker(true);
  }

  /** Something hits the pad without a tag (a knock on the table): `SLAP` on a station with a slap sensor. */
  knock(): void {
    this.slapEdge();
  }

  /**
   * Presses the ZAP button for `holdMs`. With `atDeviceUs` the press happens when the station's `micros()`
   * reaches that value (it must lie ahead, less than 2^31 µs), and `BTN+` carries exactly that stamp;
   * without it the press is now. `BTN+`/`BTN-` are sent after the 5 ms debounce, stamped with the edges.
   */
  pressButton(holdMs: number, atDeviceUs?: number, physics: HappeningPhysics = {}): void {
    if (this.config.kind !== 'seat') throw new Error(`simulated station ${this.config.id}: a ${this.config.kind} station has no button`);
    const delayMs = atDeviceUs === undefined ? 0 : this.msUntilMicros(atDeviceUs);
    const stampDelayUs = physics.stampDelayUs ?? 0;
    this.world.after(delayMs, () => {
      this.buttonEdge(true, atDeviceUs ?? this.microsAt(this.deps.clock.nowUs() + stampDelayUs));
    });
    this.world.after(delayMs + holdMs, () => {
      this.buttonEdge(false, this.micros());
    });
  }

  /** Breaks (or repairs) a sensor: the firmware reports `FAULT+`/`FAULT-` as it notices. */
  setSensorFault(device: FaultDevice, broken: boolean): void {
    this.broken[device] = broken;
  }

  // -------------------------------------------------------------------------------------- serial

  /** Bytes arriving at the station's UART from the host. */
  receive(bytes: Buffer): void {
    if (this.power !== 'running' || this.config.silent) return; // the bootloader (or nothing) eats them
    for (const byte of bytes) {
      if (this.pending !== undefined && this.rx.length >= RX_BUFFER_BYTES) break; // receive buffer full: lost
      this.rx.push(byte);
    }
    this.pollSerial();
  }

  /** Writes raw bytes as if the firmware had (line noise, a corrupted line); no sequence number is used. */
  writeRaw(bytes: string | Buffer): void {
    this.deps.output(bytes);
  }

  // ------------------------------------------------------------------------------------ firmware

  private setup(): void {
    this.power = 'running';
    this.bootCount = (this.bootCount + 1) % U32_RANGE;
    this.bootHostUs = this.deps.clock.nowUs();
    this.bootMicros = this.starts === 0 ? this.config.firstBootMicros : 0;
    this.starts++;
    this.seq = 0;
    this.lineReader.reset();
    this.rx = [];
    this.pending = undefined;
    this.tags = new TagPresence(this.config.kind === 'pile' ? 32 : 16, this.bootMicros);
    this.reader = undefined;
    this.lastSlapUs = -Infinity;
    this.filter.reset();
    this.lamp = { mode: 'off' };
    this.streaming = false;
    this.reportedFault = { rfid: false, scale: false };
    this.lastSampleMs = this.nowMs();
    this.send({
      type: 'banner', fw: this.config.firmware, proto: this.config.protocol, kind: this.config.kind,
      station: this.storedId, boot: this.bootCount,
    });
    if (this.broken.rfid) this.reportFault('rfid', true);
    if (this.config.protocol >= 2) this.startReader();
    else {
      this.every(this.config.inventoryCycleMs, () => {
        this.pollRfid();
      });
    }
    if (this.config.kind === 'seat') {
      this.every(SCALE_SAMPLE_MS, () => {
        this.sampleScale();
      });
    }
  }

  private every(periodMs: number, tick: () => void): void {
    this.firmware.after(periodMs, () => {
      tick();
      this.every(periodMs, tick);
    });
  }

  private send(message: DeviceMessage): void {
    if (this.config.silent || this.power !== 'running') return;
    this.deps.output(`${formatDeviceLine(message)}\n`);
  }

  private event(message: DistributiveOmit<EventMessage, 'type' | 'seq'>): void {
    this.send({ ...message, type: 'event', seq: this.seq });
    this.seq = (this.seq + 1) % U32_RANGE;
  }

  private reportFault(device: FaultDevice, raised: boolean): void {
    this.reportedFault[device] = raised;
    this.event({ t: this.micros(), event: raised ? 'FAULT+' : 'FAULT-', device });
  }

  private pollRfid(): void {
    const tUs = this.micros(); // the poll starts now: the tag was (or was not) there at this moment
    if (this.broken.rfid) {
      if (!this.reportedFault.rfid) this.reportFault('rfid', true);
      return; // presence unknown: keep the last state rather than invent a TAG-
    }
    if (this.reportedFault.rfid) this.reportFault('rfid', false);
    // Firmware 0.2.0 inventories every tag in the field each cycle (anticollision, one tag per step); a tag
    // still powering up does not answer yet. Protocol 1: no window on the lines.
    const nowUs = this.deps.clock.nowUs();
    const answering = [...this.field].filter(([, enteredUs]) => nowUs - enteredUs >= this.config.tagPowerUpUs)
      .map(([uid]) => uid);
    for (const change of this.tags.update(answering, tUs)) {
      this.event({ t: change.tUs, event: change.arrived ? 'TAG+' : 'TAG-', uid: change.uid });
    }
  }

  /** Protocol 2: the fast-polling reader, and its health check every 20 ms (FAULT± rfid, as the firmware). */
  private startReader(): void {
    const bootUs = this.bootHostUs;
    this.reader = new FastPollReader({
      pollUs: this.config.rfidPollUs, presenceRoundMs: this.config.presenceRoundMs, powerUpUs: this.config.tagPowerUpUs,
      guardUs: RFID_FIELD_GUARD_US, capacity: this.config.kind === 'pile' ? 32 : 16,
    }, {
      nowUs: () => this.deps.clock.nowUs(),
      microsAt: (hostUs) => this.microsAt(hostUs),
      after: (ms, fn) => {
        this.firmware.after(ms, fn);
      },
      inField: (uid) => this.field.has(uid),
      faulted: () => this.broken.rfid,
      report: (change) => {
        this.event({ t: change.tUs, event: change.arrived ? 'TAG+' : 'TAG-', uid: change.uid, windowUs: change.windowUs });
      },
    }, bootUs);
    for (const [uid, enteredUs] of this.field) this.reader.entered(uid, Math.max(enteredUs, bootUs));
    this.every(RFID_HEALTH_MS, () => {
      if (this.broken.rfid !== this.reportedFault.rfid) {
        this.reportFault('rfid', this.broken.rfid);
        // Answering again: what changed meanwhile is found anew.
        if (!this.broken.rfid) this.reader?.resync([...this.field.keys()], this.deps.clock.nowUs());
      }
    });
  }

  private enterField(uid: string, powerUpUs?: number): void {
    // A tag already in the field stays powered: it keeps its entry time.
    if (this.field.has(uid)) return;
    const now = this.deps.clock.nowUs();
    this.field.set(uid, now);
    if (this.power === 'running') this.reader?.entered(uid, now, powerUpUs);
  }

  private leaveField(uid: string): void {
    if (!this.field.delete(uid)) return;
    if (this.power === 'running') this.reader?.left(uid, this.deps.clock.nowUs());
  }

  /**
   * The slap sensor's edge, stamped in its interrupt `stampDelayUs` later (sent then: the firmware's next loop
   * pass).
   */
  private slapEdge(stampDelayUs = 0): void {
    if (!this.config.slapSensor || this.config.protocol < 2 || this.power !== 'running') return;
    const now = this.deps.clock.nowUs();
    const ringing = now - this.lastSlapUs < this.config.slapDeadMs * 1000;
    this.lastSlapUs = now;
    if (ringing) return;
    if (stampDelayUs <= 0) {
      this.event({ t: this.micros(), event: 'SLAP' });
      return;
    }
    this.firmware.after(stampDelayUs / 1000, () => {
      this.event({ t: this.micros(), event: 'SLAP' });
    });
  }

  private sampleScale(): void {
    const nowMs = this.nowMs();
    if (this.broken.scale) {
      if (!this.reportedFault.scale && nowMs - this.lastSampleMs > SCALE_FAULT_MS) this.reportFault('scale', true);
      const pending = this.pending;
      if (pending !== undefined && nowMs - pending.progressMs > SCALE_COMMAND_TIMEOUT_MS) {
        this.pending = undefined;
        this.send({ type: 'err', id: pending.id, code: 10 }); // SENSOR_TIMEOUT
        this.pollSerial();
      }
      return;
    }
    const tUs = this.micros();
    const raw = this.pad.readCounts(this.deps.clock.nowUs());
    this.lastSampleMs = nowMs;
    if (this.reportedFault.scale) this.reportFault('scale', false);
    const pending = this.pending;
    if (pending !== undefined) {
      pending.sum += raw;
      pending.got++;
      pending.progressMs = nowMs;
      if (pending.got === pending.wanted) {
        const n = pending.wanted;
        const half = Math.trunc(n / 2);
        this.finishPending(pending, Math.trunc(pending.sum >= 0 ? (pending.sum + half) / n : (pending.sum - half) / n));
      }
    }
    const dg = weightDecigrams(raw, this.tare, this.perKg);
    if (dg === undefined) return; // not calibrated yet: no weights
    const report = this.filter.feed(dg);
    if (this.streaming) this.event({ t: tUs, event: 'W', grams: dg / 10, stable: this.filter.stable });
    else if (report !== undefined) this.event({ t: tUs, event: 'W', grams: report.dg / 10, stable: report.stable });
  }

  private finishPending(pending: PendingScaleCommand, average: number): void {
    this.pending = undefined;
    if (pending.verb === 'raw') {
      this.send({ type: 'ok', id: pending.id, fields: { raw: String(average) } });
    } else if (pending.verb === 'tare') {
      this.tare = average;
      this.filter.reset(); // earlier samples were weighed with the old calibration
      this.send({ type: 'ok', id: pending.id, fields: { tare: String(this.tare) } });
    } else {
      const perKg = weightCalibration(average, this.tare, pending.grams);
      if (perKg === undefined) {
        this.send({ type: 'err', id: pending.id, code: 11 }); // CALIBRATION_FAILED
      } else {
        this.perKg = perKg;
        this.filter.reset();
        this.send({ type: 'ok', id: pending.id, fields: { per_kg: String(this.perKg) } });
      }
    }
    // The loop reads input again: commands that waited in the receive buffer are handled now.
    this.pollSerial();
  }

  private pollSerial(): void {
    while (this.pending === undefined && this.rx.length > 0 && this.power === 'running') {
      const result = this.lineReader.feed(this.rx.shift() as number);
      if (result.kind === 'line') this.handleLine(result.line);
      else if (result.kind === 'too-long') this.send({ type: 'err', id: null, code: 1 }); // LINE_TOO_LONG
    }
  }

  private handleLine(line: string): void {
    const atUs = this.deps.clock.nowUs();
    const command = parseCommandLine(line);
    if ('error' in command) {
      this.remember({ atUs, line, command: undefined, code: command.code });
      this.send({ type: 'err', id: command.id, code: command.code });
      return;
    }
    const seatOnly = command.verb !== 'ping' && command.verb !== 'info' && command.verb !== 'id-set';
    const refused = seatOnly && this.config.kind !== 'seat';
    this.remember({ atUs, line, command, code: refused ? 9 : undefined });
    if (refused) {
      this.send({ type: 'err', id: command.id, code: 9 }); // NOT_SUPPORTED
      return;
    }
    const fields = this.execute(command);
    if (fields !== 'pending') this.send({ type: 'ok', id: command.id, fields });
  }

  /** Carries out a valid command; returns the `ok` reply's fields, or 'pending' when it waits for samples. */
  private execute(command: Command): Record<string, string> | 'pending' {
    switch (command.verb) {
      case 'ping':
        return { t: String(this.micros()) };
      case 'info':
        return {
          fw: this.config.firmware, proto: String(this.config.protocol), kind: this.config.kind,
          id: this.storedId, boot: String(this.bootCount),
        };
      case 'id-set':
        this.storedId = command.station;
        return { id: this.storedId };
      case 'lamp-on':
        this.lamp = { mode: 'on' };
        return {};
      case 'lamp-off':
        this.lamp = { mode: 'off' };
        return {};
      case 'lamp-blink':
        this.lamp = { mode: 'blink', onMs: command.onMs, offMs: command.offMs, count: command.count, sinceMs: this.nowMs() };
        return {};
      case 'stream-on':
        this.streaming = true;
        return {};
      case 'stream-off':
        this.streaming = false;
        return {};
      case 'scale':
        return { tare: String(this.tare), per_kg: String(this.perKg) };
      case 'tare':
      case 'calibrate':
      case 'raw':
        this.pending = {
          verb: command.verb, id: command.id, grams: command.verb === 'calibrate' ? command.grams : 0,
          wanted: command.verb === 'raw' ? 1 : SCALE_AVERAGE_SAMPLES, got: 0, sum: 0, progressMs: this.nowMs(),
        };
        return 'pending'; // answered when the samples are in
    }
  }

  private buttonEdge(pressed: boolean, stampUs: number): void {
    if (this.power !== 'running') return;
    // Accepted after 5 ms without further edges; sent then, stamped with the first edge (taken in the ISR).
    this.firmware.after(BUTTON_QUIET_MS, () => {
      this.event({ t: stampUs, event: pressed ? 'BTN+' : 'BTN-' });
    });
  }

  // ---------------------------------------------------------------------------------------- time

  private nowMs(): number {
    return this.deps.clock.nowUs() / 1000;
  }

  private microsAt(hostUs: number): number {
    if (this.power !== 'running') return 0;
    const elapsed = (hostUs - this.bootHostUs) * (1 + this.config.skewPpm * 1e-6);
    // 4 µs resolution on a 16 MHz AVR.
    return (Math.floor((this.bootMicros + elapsed) / 4) * 4) % U32_RANGE;
  }

  /** Host ms until `micros()` reaches `target` (going forward, modulo the wrap). */
  private msUntilMicros(target: number): number {
    const ahead = (((target - this.micros()) % U32_RANGE) + U32_RANGE) % U32_RANGE;
    return ahead / (1 + this.config.skewPpm * 1e-6) / 1000;
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

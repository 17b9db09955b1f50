/**
 * One emulated seat station: the real compiled firmware (`firmware/build/seat-328p/zaptable.hex`) in avr8js
 * with its physical world — HX711 + load cell, MFRC522 + tags, ZAP button, lamp, the piezo slap sensor — and
 * its USB serial line. The pile build runs in it too (`hexPath: PILE_HEX`): it simply leaves the pad's parts
 * alone.
 *
 * Two ways to talk to it:
 * - The wire tap: every line the firmware transmits is in `lines`, with the simulated times of its first
 *   byte and of the end of its `\n` and its decoded form (controller/protocol's codec). `sendLine()` /
 *   `command()` put bytes straight into the USART. Tests of exact timing use this.
 * - A serial port: the station is a {@link SerialDevice}, so a {@link UsartBinding} serves it as a port that
 *   `SerialPortStream` and the controller's serial driver open. Opening the port asserts DTR, which resets
 *   the board as on an Uno/Nano (`resetOnOpen`, after `bootloaderUs`).
 *
 * Simulated time vs the host clock (the design decision):
 * - On demand (`runFor`, `runUntil`, `waitForLine`, `command`): the CPU runs in slices of `sliceUs`
 *   (default 1 ms) of simulated time as fast as the host allows (~3-5× real time), yielding to the event
 *   loop between slices. Nothing moves while the test is not running it, so results are deterministic
 *   and independent of host load. Device timestamps are compared with the simulated time of the stimulus
 *   (`deviceMicrosAt`), never with the host clock.
 * - Free-running (`start({ speed })`): a loop on `setImmediate`/`setTimeout` keeps simulated time at
 *   `speed` × host time since `start()` (1 = real time, `Infinity` = flat out), for code whose timers run on
 *   the host clock (the serial driver's timeouts and pings). If the host cannot keep up, simulated time
 *   falls behind (visible as `lagUs`) — it never skips. `simClock()` gives a `Clock` that reads simulated
 *   time, for drivers that take an injected clock: host-side stamps then share the simulator's time line,
 *   and the only host/device difference left is a slice of latency.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PinState } from 'avr8js';
import {
  crc8, formatCommand, parseDeviceLine,
  type Command, type DeviceMessage, type EventMessage, type EventName, type ProtocolError,
} from '../../controller/protocol/index.ts';
import type { Clock } from '../../controller/hardware/interface.ts';
import {
  AvrRunner, CYCLES_PER_US, EEPROM_BYTES, yieldToEventLoop, type Mcu, type RunUntilOptions, type Scheduled,
} from './avr-runner.ts';
import { ButtonModel } from './button-model.ts';
import { Hx711Model, type Hx711Options } from './hx711-model.ts';
import { Mfrc522Model, type Mfrc522Options, type PlaceTagOptions } from './mfrc522-model.ts';
import { PiezoModel, type ImpactOptions, type PiezoOptions } from './piezo-model.ts';
import type { SerialDevice } from './usart-binding.ts';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/**
 * The seat image. `ZT_SEAT_HEX=<path>` runs another one instead, as is (nothing is built): an older firmware
 * built from git, to show that a test fails on it (docs/firmware-in-the-loop.md).
 */
export const SEAT_HEX = process.env['ZT_SEAT_HEX'] ?? join(REPO_ROOT, 'firmware/build/seat-328p/zaptable.hex');
/** The pile station's image (reader only, 32 tag slots; `make -C firmware avr-pile`); `ZT_PILE_HEX` as above. */
export const PILE_HEX = process.env['ZT_PILE_HEX'] ?? join(REPO_ROOT, 'firmware/build/pile-328p/zaptable.hex');

const LAMP_PIN = 6; // PD6

// ------------------------------------------------------------------------------------------- firmware

async function newestMtime(dir: string, filter: (name: string) => boolean): Promise<number> {
  let newest = 0;
  for (const name of await readdir(dir)) {
    if (filter(name)) newest = Math.max(newest, (await stat(join(dir, name))).mtimeMs);
  }
  return newest;
}

async function hexIsFresh(hex: string): Promise<boolean> {
  const built = await stat(hex).then((s) => s.mtimeMs, () => 0);
  if (built === 0) return false;
  const src = await newestMtime(join(REPO_ROOT, 'firmware/src'), (n) => n.endsWith('.cpp') || n.endsWith('.h'));
  const makefile = (await stat(join(REPO_ROOT, 'firmware/Makefile'))).mtimeMs;
  return built >= Math.max(src, makefile);
}

/**
 * Makes sure `firmware/build/seat-328p/zaptable.hex` exists and is newer than the firmware sources, running
 * `make -C firmware avr` when not (the AVR toolchain must be installed: `bash firmware/ci.sh` does that).
 * Test files run in parallel workers, so a lock directory keeps two makes from building at once.
 */
export async function ensureSeatFirmware(): Promise<string> {
  return ensureFirmware(SEAT_HEX, 'avr');
}

/** The same for the pile build (`make -C firmware avr-pile` → `firmware/build/pile-328p/zaptable.hex`). */
export async function ensurePileFirmware(): Promise<string> {
  return ensureFirmware(PILE_HEX, 'avr-pile');
}

/**
 * An address from the firmware's symbol table (the ELF next to the `.hex`), e.g. `__bss_end`, the end of its
 * static RAM. Needs `avr-nm` (the AVR toolchain).
 */
export function firmwareSymbol(hexPath: string, name: string): number {
  const elf = join(dirname(hexPath), 'zaptable.elf');
  const out = execFileSync('avr-nm', [elf], { encoding: 'utf8' });
  const line = out.split('\n').find((l) => l.trim().split(/\s+/)[2] === name);
  if (!line) throw new Error(`${name} not in ${elf}`);
  return Number.parseInt(line.trim().split(/\s+/)[0] ?? '', 16) & 0xffff; // data addresses carry 0x800000
}

async function ensureFirmware(hex: string, target: string): Promise<string> {
  if (process.env[target === 'avr' ? 'ZT_SEAT_HEX' : 'ZT_PILE_HEX'] !== undefined) return hex; // run as given
  if (await hexIsFresh(hex)) return hex;
  const lock = join(REPO_ROOT, 'firmware/build/.emulator-build.lock');
  await mkdir(join(REPO_ROOT, 'firmware/build'), { recursive: true });
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch {
      const age = await stat(lock).then((s) => Date.now() - s.mtimeMs, () => 0);
      if (age > 120_000) await rm(lock, { recursive: true, force: true }); // a crashed build's lock
      if (Date.now() > deadline) throw new Error('timed out waiting for another firmware build');
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    if (!(await hexIsFresh(hex))) {
      await new Promise<void>((res, rej) => {
        execFile('make', ['-C', join(REPO_ROOT, 'firmware'), target], { timeout: 170_000 }, (err, _out, stderr) => {
          if (err) rej(new Error(`make -C firmware ${target} failed (run bash firmware/ci.sh to install the toolchain): ${stderr}`));
          else res();
        });
      });
    }
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
  return hex;
}

// ------------------------------------------------------------------------------------------- settings

/** What the firmware keeps in EEPROM (firmware/src/settings.h). */
export interface StationSettings {
  readonly stationId: string;
  readonly tare?: number;
  readonly perKg?: number;
  /** The boot counter stored; the firmware prints this + 1 in its banner. */
  readonly boot?: number;
}

/** Where firmware >= 0.2.0 keeps its two settings slots (firmware/src/settings.h), and their size. */
const SETTINGS_SLOT_ADDRS = [64, 112] as const;
const SETTINGS_SLOT_SIZE = 36;
/** Firmware 0.1.0's single record (migrated by 0.2.0 on its first boot). */
const SETTINGS_V1_ADDR = 16;
const SETTINGS_V1_SIZE = 33;

/** CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF), as settings_crc16(). */
export function crc16(data: Uint8Array): number {
  let crc = 0xffff;
  for (const byte of data) {
    crc ^= byte << 8;
    for (let b = 0; b < 8; b++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** One version-2 settings slot as settings_encode() writes it ("ZT", 2, seq, id, tare, per_kg, boot, CRC-16). */
export function settingsSlot(settings: StationSettings, seq: number): Uint8Array {
  const rec = new Uint8Array(SETTINGS_SLOT_SIZE);
  const view = new DataView(rec.buffer);
  rec.set([0x5a, 0x54, 2, seq & 0xff]);
  rec.set(Buffer.from(settings.stationId, 'ascii').subarray(0, 16), 4);
  view.setInt32(21, settings.tare ?? 0, true);
  view.setInt32(25, settings.perKg ?? 0, true);
  view.setUint32(29, settings.boot ?? 0, true);
  view.setUint16(34, crc16(rec.subarray(0, 34)), true);
  return rec;
}

/**
 * An EEPROM image holding `settings`: by default in slot A (sequence 1) as firmware >= 0.2.0 writes it;
 * `legacy: true` writes firmware 0.1.0's single record instead (magic, version 1, LE fields, CRC-8), which
 * 0.2.0 migrates on its first boot.
 */
export function settingsEeprom(settings: StationSettings, options: { readonly legacy?: boolean } = {}): Uint8Array {
  const image = new Uint8Array(EEPROM_BYTES).fill(0xff);
  if (!options.legacy) {
    image.set(settingsSlot(settings, 1), SETTINGS_SLOT_ADDRS[0]);
    return image;
  }
  const rec = new Uint8Array(SETTINGS_V1_SIZE);
  const view = new DataView(rec.buffer);
  rec.set([0x5a, 0x54, 1]); // "ZT", version 1
  rec.set(Buffer.from(settings.stationId, 'ascii').subarray(0, 16), 3);
  view.setInt32(20, settings.tare ?? 0, true);
  view.setInt32(24, settings.perKg ?? 0, true);
  view.setUint32(28, settings.boot ?? 0, true);
  rec[32] = crc8(String.fromCharCode(...rec.subarray(0, 32)));
  image.set(rec, SETTINGS_V1_ADDR);
  return image;
}

// ----------------------------------------------------------------------------------------------- station

/** A line the firmware sent, as the wire tap saw it. */
export interface TappedLine {
  /** The line without `\n`. */
  readonly text: string;
  /** Decoded with the controller's codec. */
  readonly message: DeviceMessage | ProtocolError;
  /** Simulated time (µs) the first byte was written to UDR. */
  readonly startUs: number;
  /** Simulated time (µs) the `\n` had been shifted out completely (what a host could see first). */
  readonly endUs: number;
  /** MCU boot the line belongs to (0 = power-on, +1 per reset). */
  readonly boot: number;
}

export interface LampEdge {
  readonly atUs: number;
  readonly on: boolean;
}

export interface StationEmulatorOptions {
  /** The firmware image (default: the seat build; call `ensureSeatFirmware()` first). */
  readonly hexPath?: string;
  /** EEPROM contents at power-on (default: erased → id "unset", uncalibrated). */
  readonly settings?: StationSettings;
  /** Store `settings` as firmware 0.1.0's record (to test the migration). */
  readonly legacySettings?: boolean;
  readonly hx711?: Hx711Options;
  readonly mfrc522?: Mfrc522Options;
  /** The slap sensor on D3 (default: fitted). */
  readonly piezo?: PiezoOptions;
  /** Reset the MCU when a port opens (DTR auto-reset of an Uno/Nano). Default true. */
  readonly resetOnOpen?: boolean;
  /** Time the bootloader holds the sketch after a DTR reset (real boards: ~1.5-2 s). Default 0. */
  readonly bootloaderUs?: number;
  /** Simulated time per slice between event-loop yields (default 1000 µs). */
  readonly sliceUs?: number;
}

/** How long to wait for a line (simulated µs, default 3 s), and from which index of `lines` to look. */
export interface WaitOptions {
  readonly timeoutUs?: number;
  readonly from?: number;
}

/** Node-style timers (the controller's `Scheduler` interface, structurally). */
export interface SimScheduler {
  setTimeout(callback: () => void, delayMs: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface FreeRunOptions {
  /** Simulated µs per host µs: 1 = real time (default), Infinity = as fast as possible. */
  readonly speed?: number;
}

function isMessage(m: DeviceMessage | ProtocolError): m is DeviceMessage {
  return 'type' in m;
}

export class StationEmulator implements SerialDevice {
  readonly runner: AvrRunner;
  readonly scale: Hx711Model;
  readonly rfid: Mfrc522Model;
  readonly button: ButtonModel;
  readonly piezo: PiezoModel;
  /** Every line the firmware sent since power-on. */
  readonly lines: TappedLine[] = [];
  /** Lamp (PD6) level changes. */
  readonly lampEdges: LampEdge[] = [];
  /** Simulated times (µs) at which the MCU's receiver completed a `\n` from the host. */
  readonly newlinesReceivedUs: number[] = [];
  /** Host bytes lost because the MCU's receiver was off (held in reset, before `Serial.begin`). */
  rxDropped = 0;
  /** Bytes the firmware has written to UDR of the line it is sending now (0 between lines). */
  get txBytes(): number {
    return this.txLine.length;
  }

  private readonly options: StationEmulatorOptions;
  private readonly sliceUs: number;
  private mcuNow: Mcu | undefined;
  private rxQueue: number[] = [];
  private rxInFlight: number | undefined;
  private txLine = '';
  private txLineStartUs = 0;
  private lampOn = false;
  private readonly transmitListeners = new Set<(bytes: Uint8Array) => void>();
  private readonly lineListeners = new Set<(line: TappedLine) => void>();
  private freeRun: { stop: boolean; done: Promise<void> } | undefined;
  private lagUsNow = 0;

  constructor(options: StationEmulatorOptions = {}) {
    this.options = options;
    this.sliceUs = options.sliceUs ?? 1000;
    const eeprom = options.settings ? settingsEeprom(options.settings, { legacy: options.legacySettings ?? false }) : undefined;
    this.runner = AvrRunner.fromFile(options.hexPath ?? SEAT_HEX, eeprom);
    this.runner.onAttach((mcu) => {
      this.attach(mcu);
    });
    this.scale = new Hx711Model(this.runner, options.hx711);
    this.rfid = new Mfrc522Model(this.runner, options.mfrc522);
    this.button = new ButtonModel(this.runner);
    this.piezo = new PiezoModel(this.runner, options.piezo);
  }

  // --------------------------------------------------------------------------------------------- time

  /** Simulated time since power-on, µs. */
  get nowUs(): number {
    return this.runner.nowUs;
  }

  /** What the firmware's `micros()` reads at simulated time `simUs` (this boot). */
  deviceMicrosAt(simUs: number): number | undefined {
    return this.runner.deviceMicrosAt(simUs);
  }

  /** In free-running mode: how far simulated time is behind its target (µs). */
  get lagUs(): number {
    return this.lagUsNow;
  }

  /** A controller `Clock` that reads simulated time (µs since power-on, plus `offsetUs`). */
  simClock(offsetUs = 0): Clock {
    return { nowUs: () => Math.floor(this.runner.nowUs) + offsetUs, wallMs: () => Date.now() };
  }

  /**
   * Timers on simulated time, in the shape of Node's setTimeout/clearTimeout (the controller's `Scheduler`):
   * a callback runs on the event loop with the simulation paused exactly at its due time. They only fire
   * while the simulation runs (`runUntil`, `until`, free-running).
   */
  simScheduler(): SimScheduler {
    return {
      setTimeout: (callback, delayMs) => this.runner.after(Math.max(0, delayMs) * 1000, () => {
        this.runner.requestBreak();
        setImmediate(callback);
      }),
      clearTimeout: (handle) => {
        (handle as Scheduled | undefined)?.cancel();
      },
    };
  }

  /** Runs the simulation until `promise` settles (or `timeoutUs` of simulated time passed), then returns its value. */
  async until<T>(promise: Promise<T>, timeoutUs = 10_000_000): Promise<T> {
    let settled = false;
    const watched = promise.finally(() => {
      settled = true;
    });
    watched.catch(() => undefined); // rejections are returned to the caller below, not left unhandled
    if (!(await this.runUntil(() => settled, { timeoutUs }))) throw new Error(`not settled within ${timeoutUs} µs of simulated time`);
    return watched;
  }

  // ---------------------------------------------------------------------------------------- the world

  /** Presses the button at simulated time `atUs` (default: now), bouncing at `atUs + bounceUs[i]`. */
  pressButton(atUs = this.nowUs, bounceUs: readonly number[] = []): void {
    this.button.pressAt(atUs, bounceUs);
  }

  releaseButton(atUs = this.nowUs, bounceUs: readonly number[] = []): void {
    this.button.releaseAt(atUs, bounceUs);
  }

  /** Something hits the pad at simulated time `atUs` (default: now): the slap sensor's comparator fires. */
  slap(atUs = this.nowUs, options: ImpactOptions = {}): void {
    this.piezo.impactAt(atUs, options);
  }

  /** Lays a tag on the reader (with the tags already there). */
  placeTag(uid: string, options: PlaceTagOptions = {}): void {
    this.rfid.placeTag(uid, options);
  }

  /** Takes the tag with this UID off the reader; all tags when no UID is given. */
  removeTag(uid?: string): void {
    this.rfid.removeTag(uid);
  }

  /** Puts `grams` on the pad (from the HX711's next conversion on). */
  setWeight(grams: number): void {
    this.scale.setGrams(grams);
  }

  get lamp(): boolean {
    return this.lampOn;
  }

  // ------------------------------------------------------------------------------------------ running

  /** Runs `us` of simulated time (on demand). */
  async runFor(us: number): Promise<void> {
    this.assertNotFreeRunning();
    await this.runner.runUntil(this.nowUs + us, { sliceUs: this.sliceUs });
  }

  /** Runs until `predicate` holds (true) or `timeoutUs` of simulated time passed (false). */
  async runUntil(predicate: () => boolean, options: RunUntilOptions = {}): Promise<boolean> {
    this.assertNotFreeRunning();
    return this.runner.runUntil(predicate, { sliceUs: this.sliceUs, ...options });
  }

  /**
   * Runs until a line matching `predicate` arrives, looking at lines from index `from` (default: only lines
   * that arrive from now on); rejects after `timeoutUs` of simulated time (default 3 s).
   */
  async waitForLine(predicate: (line: TappedLine) => boolean, options: WaitOptions = {}): Promise<TappedLine> {
    let index = options.from ?? this.lines.length;
    let found: TappedLine | undefined;
    const ok = await this.runUntil(() => {
      for (; index < this.lines.length && !found; index++) {
        const line = this.lines[index];
        if (line && predicate(line)) found = line;
      }
      return found !== undefined;
    }, { timeoutUs: options.timeoutUs ?? 3_000_000 });
    if (!ok || !found) {
      const tail = this.lines.slice(-5).map((l) => l.text).join(' | ');
      throw new Error(`no matching line within ${options.timeoutUs ?? 3_000_000} µs (last lines: ${tail})`);
    }
    return found;
  }

  /** Runs until the boot banner of the current boot has been sent. */
  async waitForBanner(timeoutUs = 2_000_000): Promise<TappedLine> {
    const boot = this.runner.resets;
    const already = this.lines.find((l) => l.boot === boot && isMessage(l.message) && l.message.type === 'banner');
    if (already) return already;
    return this.waitForLine((l) => l.boot === boot && isMessage(l.message) && l.message.type === 'banner', { timeoutUs });
  }

  /** Sends raw text plus `\n` to the firmware's receiver (through the wire, at its line rate). */
  sendLine(text: string): void {
    this.hostWrite(Buffer.from(`${text}\n`, 'latin1'));
  }

  /** Sends a command (framed with the codec) and runs until its `ok`/`err` reply; returns the reply line. */
  async command(cmd: Command, timeoutUs = 3_000_000): Promise<TappedLine> {
    const from = this.lines.length;
    this.sendLine(formatCommand(cmd));
    return this.waitForLine((l) => isMessage(l.message) && (l.message.type === 'ok' || l.message.type === 'err')
      && l.message.id === cmd.id, { timeoutUs, from });
  }

  /** Decoded messages of the lines so far (lines that failed to decode are skipped). */
  messages(from = 0): DeviceMessage[] {
    return this.lines.slice(from).map((l) => l.message).filter(isMessage);
  }

  /** Event lines from index `from` on, optionally only the events named `name`. */
  events(name?: EventName, from = 0): { readonly line: TappedLine; readonly event: EventMessage }[] {
    const out: { line: TappedLine; event: EventMessage }[] = [];
    for (const line of this.lines.slice(from)) {
      const m = line.message;
      if (isMessage(m) && m.type === 'event' && (name === undefined || m.event === name)) out.push({ line, event: m });
    }
    return out;
  }

  /** Runs until an event named `name` arrives (from index `from` on; default: a new one). */
  async waitForEvent(name: EventName, options: WaitOptions = {}): Promise<{ line: TappedLine; event: EventMessage }> {
    const line = await this.waitForLine((l) => isMessage(l.message) && l.message.type === 'event' && l.message.event === name, options);
    return { line, event: line.message as EventMessage };
  }

  /** Subscribes to every line the firmware completes. */
  onLine(listener: (line: TappedLine) => void): () => void {
    this.lineListeners.add(listener);
    return () => this.lineListeners.delete(listener);
  }

  /** Resets the MCU (RESET pin / DTR), holding it for `holdUs` first. */
  reset(holdUs = 0): void {
    this.runner.reset(holdUs);
  }

  /**
   * Free-running mode: simulated time follows the host clock × `speed` until `stop()`. Lines and port
   * bytes flow as the simulation produces them.
   */
  start(options: FreeRunOptions = {}): void {
    if (this.freeRun) return;
    const speed = options.speed ?? 1;
    const hostStart = performance.now();
    const simStart = this.nowUs;
    const maxStepUs = this.sliceUs * 5;
    const state = { stop: false, done: Promise.resolve() };
    state.done = (async () => {
      while (!state.stop) {
        const now = this.nowUs;
        const target = speed === Infinity ? now + this.sliceUs : simStart + (performance.now() - hostStart) * 1000 * speed;
        this.lagUsNow = Math.max(0, target - now - maxStepUs);
        if (target > now) {
          this.runner.runToCycle(Math.round(Math.min(target, now + maxStepUs) * CYCLES_PER_US));
          await yieldToEventLoop();
        } else {
          await new Promise((r) => setTimeout(r, 1));
        }
      }
    })();
    this.freeRun = state;
  }

  /** Stops free-running (resolves once the loop has stopped). */
  async stop(): Promise<void> {
    const run = this.freeRun;
    if (!run) return;
    run.stop = true;
    await run.done;
    this.freeRun = undefined;
  }

  private assertNotFreeRunning(): void {
    if (this.freeRun) throw new Error('the station is free-running: stop() it before running it on demand');
  }

  // ----------------------------------------------------------------------------------- SerialDevice

  hostWrite(bytes: Uint8Array): void {
    for (const b of bytes) this.rxQueue.push(b);
    this.feedReceiver();
  }

  onTransmit(listener: (bytes: Uint8Array) => void): () => void {
    this.transmitListeners.add(listener);
    return () => this.transmitListeners.delete(listener);
  }

  get deviceBaudRate(): number | undefined {
    const usart = this.mcuNow?.usart;
    return usart?.txEnable === true ? usart.baudRate : undefined;
  }

  dtrAsserted(): void {
    if (this.options.resetOnOpen ?? true) this.reset(this.options.bootloaderUs ?? 0);
  }

  portClosed(): void {
    // Nothing: DTR released does not reset the board.
  }

  /** The MCU (CPU and peripherals) of the current boot. */
  get mcu(): Mcu | undefined {
    return this.mcuNow;
  }

  // ------------------------------------------------------------------------------------------ wiring

  private attach(mcu: Mcu): void {
    this.mcuNow = mcu;
    this.rxQueue = [];
    this.txLine = '';
    mcu.usart.onByteTransmit = (byte) => {
      this.onByte(mcu, byte);
    };
    this.rxInFlight = undefined;
    mcu.usart.onRxComplete = () => {
      if (this.rxInFlight === 0x0a) this.newlinesReceivedUs.push(this.nowUs);
      this.rxInFlight = undefined;
      this.feedReceiver();
    };
    mcu.portD.addListener(() => {
      if (mcu !== this.mcuNow) return;
      const on = mcu.portD.pinState(LAMP_PIN) === PinState.High;
      if (on !== this.lampOn) {
        this.lampOn = on;
        this.lampEdges.push({ atUs: this.nowUs, on });
      }
    });
    if (this.lampOn) {
      this.lampOn = false; // a reset makes every pin an input: the lamp goes out
      this.lampEdges.push({ atUs: this.nowUs, on: false });
    }
  }

  private feedReceiver(): void {
    const usart = this.mcuNow?.usart;
    if (!usart) return;
    while (this.rxQueue.length > 0 && !usart.rxBusy) {
      const byte = this.rxQueue.shift() ?? 0;
      if (usart.writeByte(byte) === true) this.rxInFlight = byte;
      else this.rxDropped++; // receiver off: the byte is lost
    }
  }

  private onByte(mcu: Mcu, byte: number): void {
    if (mcu !== this.mcuNow) return;
    const now = this.nowUs;
    if (this.txLine === '') this.txLineStartUs = now;
    const charUs = 10 / mcu.usart.baudRate * 1e6;
    if (this.transmitListeners.size > 0) {
      // The host has the byte once its stop bit is out; a complete line is a moment host code must see.
      this.runner.after(charUs, () => {
        const bytes = Uint8Array.of(byte);
        for (const listener of this.transmitListeners) listener(bytes);
        if (byte === 0x0a) this.runner.requestBreak();
      });
    }
    if (byte !== 0x0a) {
      this.txLine += String.fromCharCode(byte);
      return;
    }
    const text = this.txLine;
    this.txLine = '';
    if (text === '') return; // an empty line (the one before the banner) is no protocol line: hosts skip it
    const line: TappedLine = {
      text, message: parseDeviceLine(text), startUs: this.txLineStartUs, endUs: now + charUs, boot: this.runner.resets,
    };
    this.lines.push(line);
    for (const listener of this.lineListeners) listener(line);
  }
}

/**
 * The johnny-five buzzer hub: one board running StandardFirmata (or any johnny-five IO plugin) with big
 * event buzzers, their lamps and a piezo, behind the table's hardware interface (design principle 3).
 * Every button is a station of kind `hub`; its events are stamped on the host with a stated uncertainty
 * (host-timestamp.ts), since Firmata carries no time. See docs/buzzer-hub.md.
 */
import { createRequire } from 'node:module';
import type * as five from 'johnny-five';
import type { Board, Piezo } from 'johnny-five';
import { systemClock, type Clock, type CommandResult, type EventTime, type LampPattern, type SensorEvent, type StationHealth, type StationId, type TableHardware } from '../interface.ts';
import { resolveHubConfig, type BuzzerHubOptions, type HubConfig } from './hub-config.ts';
import { hubError, HubSetupError, OK } from './hub-errors.ts';
import { clearConnectTimers, closeTransport, describeFirmware, flushWrites, type HubIo } from './hub-io.ts';
import { HubStation } from './hub-station.ts';
import { HostDelayMonitor, type HostDelaySnapshot, type HostDelayWarning } from './host-delay-monitor.ts';
import { backlogWindowUs, DEFAULT_FIRMATA_LATENCY, hostEventTime, latencyBounds, ReportWindow } from './host-timestamp.ts';
import { applyLampPattern } from './lamp-patterns.ts';
import { digitalPiezoController } from './piezo-controller.ts';
import { checkPinsAgainstBoard } from './pin-check.ts';
import { keepPullupsInPortWrites } from './port-writes.ts';
import { rawButtonController } from './raw-button-controller.ts';
import { SeededRandom } from '../../kernel/random.ts';
import { backoffDelayMs } from '../serial/backoff.ts';
import { systemScheduler, TimerSet, type RandomSource, type Scheduler } from '../serial/timers.ts';

/**
 * How long `stop()` waits for queued writes to reach the board. At 57600 baud the firmware's 64-byte buffer
 * drains in 11 ms; the host side queues little more once the lamps and the tone have stopped.
 */
const STOP_FLUSH_MS = 1000;

/** The longest beep: a winner's sound, not a siren (the piezo is toggled by the host, see `beep`). */
const MAX_BEEP_MS = 10_000;

/**
 * johnny-five, required by the first hub that connects: its module graph (firmata-io, serialport 8, lodash…)
 * costs ~15 MB of resident memory that a controller without a hub should not pay (docs/performance.md). A
 * synchronous require, so `start()` still opens the board before its first await, as before.
 */
let johnnyFive: typeof five | undefined;

function j5(): typeof five {
  johnnyFive ??= createRequire(import.meta.url)('johnny-five') as typeof five;
  return johnnyFive;
}

/** One attempt to connect: a johnny-five Board and what was built on it once it was ready. */
interface Connection {
  readonly board: Board;
  io: HubIo | undefined;
  piezo: Piezo | undefined;
  haltPiezo: (() => void) | undefined;
  readyTimer: NodeJS.Timeout | undefined;
  /** Came through `ready` and the set-up: its stations were online. */
  ready: boolean;
  /** Lost or given up: later signals of its board are ignored. */
  ended: boolean;
}

/** Where the hub's connection stands (`status()`). */
export interface HubStatus {
  readonly state: 'idle' | 'connecting' | 'ready' | 'retrying' | 'stopped';
  /** Attempts that failed since the hub was last ready (or started). */
  readonly attempts: number;
  /** Delay of the scheduled attempt, ms (state `retrying`, once the old port is closed). */
  readonly retryInMs?: number;
  /** Why the last attempt failed or the board was lost. */
  readonly lastError?: string;
}

/** How johnny-five's own connect timeout trails ours: ours decides, and counts a silent board as a timeout. */
const J5_TIMEOUT_MARGIN_MS = 60_000;

export class BuzzerHub implements TableHardware {
  private config: HubConfig | undefined;
  private connection: Connection | undefined;
  private stations = new Map<StationId, HubStation>();
  private window = new ReportWindow(0);
  private readonly eventListeners = new Set<(event: SensorEvent) => void>();
  private readonly healthListeners = new Set<(health: StationHealth) => void>();
  private readonly timers: TimerSet;
  private readonly random: RandomSource;
  private state: { -readonly [K in keyof HubStatus]: HubStatus[K] } = { state: 'idle', attempts: 0 };
  /** Settles the first attempt (`start()`); undefined once it has settled. */
  private settleStart: ((error?: Error) => void) | undefined;
  /** The current outage has been counted (one loss or failure to connect counts once, however often retried). */
  private outageCounted = false;
  private stopping: Promise<void> | undefined;
  private readonly monitor: HostDelayMonitor | undefined;

  /**
   * Opens nothing: `start()` does. `clock` stamps events (inject a fake one in tests); `scheduler` and
   * `random` time the reconnect attempts (the seat stations' backoff, serial/backoff.ts).
   */
  constructor(
    private readonly options: BuzzerHubOptions,
    private readonly clock: Clock = systemClock,
    timing: { readonly scheduler?: Scheduler; readonly random?: RandomSource } = {},
  ) {
    this.timers = new TimerSet(timing.scheduler ?? systemScheduler);
    // Jitter only spreads the attempts of several ports; seeded, so a run is replayable (as the seat stations').
    const seeded = new SeededRandom('buzzer-hub backoff');
    this.random = timing.random ?? (() => seeded.next());
    const monitor = options.hostDelayMonitor;
    this.monitor = monitor === false ? undefined : new HostDelayMonitor({
      allowanceUs: options.latency?.eventLoopUs ?? DEFAULT_FIRMATA_LATENCY.eventLoopUs, ...monitor,
    });
  }

  /**
   * Validates the configuration, creates the board and waits up to `readyTimeoutMs` for it, then checks the
   * pins against the board's capability report. A configuration that cannot work rejects with a
   * {@link HubSetupError} listing every problem with its code (before anything is opened, or after the
   * report, with the port closed again; the hub then stays stopped). A board that fails or does not answer
   * in time leaves the stations offline with the failure counted (`disconnects`, or `timeouts` for a board
   * that opened but never got ready), and `start()` resolves all the same: the hub keeps trying, as it does
   * after the board is lost (unplugged), closing the port and opening it again after a backoff (250 ms,
   * doubling up to 8 s, with jitter; `reconnect`).
   */
  async start(): Promise<void> {
    if (this.config !== undefined || this.stopping !== undefined) return;
    const { config, errors } = resolveHubConfig(this.options);
    if (errors.length > 0) throw new HubSetupError(errors);
    this.config = config;
    this.window = new ReportWindow(backlogWindowUs(config.latency));
    this.stations = new Map(config.buttons.map((b) => [b.id, new HubStation(b, config.debounceMs, (e) => {
      this.emitEvent(e);
    })]));
    if (typeof config.io === 'string') for (const station of this.stations.values()) station.port = config.io;
    this.monitor?.start();

    const ready = new Promise<void>((resolve, reject) => {
      this.settleStart = (error) => {
        this.settleStart = undefined;
        if (error === undefined) resolve();
        else reject(error);
      };
    });
    try {
      this.connect();
    } catch (error) {
      this.settleStart = undefined;
      this.config = undefined;
      throw error;
    }
    await ready;
  }

  /**
   * The host delay measured on this controller (host-delay-monitor.ts): rolling p50/p99/max over the last
   * minute and the edges whose possible delay exceeded the allowance; undefined with the monitor off.
   */
  hostDelay(): HostDelaySnapshot | undefined {
    return this.monitor?.snapshot();
  }

  /** Called when edges may have waited longer than the allowance (at most once per 10 s, with a count). */
  onHostDelayWarning(listener: (warning: HostDelayWarning) => void): () => void {
    return this.monitor?.onWarning(listener) ?? (() => undefined);
  }

  /** Where the connection stands: connecting, ready, or retrying after a failure (with the delay and why). */
  status(): HubStatus {
    return { ...this.state };
  }

  /** One attempt: a new Board on a freshly opened port (or a new IO from the factory). */
  private connect(): void {
    const config = this.config;
    if (this.stopping !== undefined || config === undefined) return;
    this.update({ state: 'connecting', retryInMs: undefined });
    const common = { repl: false, debug: false, timeout: config.readyTimeoutMs + J5_TIMEOUT_MARGIN_MS };
    // `sigint: false`: johnny-five would otherwise install a SIGINT handler that force-exits the process.
    let board: Board;
    try {
      const boardOptions: five.BoardOption & { sigint: boolean } = typeof config.io === 'string'
        ? { ...common, sigint: false, port: config.openPort?.(config.io) ?? config.io }
        : { ...common, sigint: false, io: config.io() };
      board = new (j5().Board)(boardOptions);
    } catch (error) {
      // johnny-five emits a failure to create the IO (e.g. serialport's native addon missing) as an 'error'
      // inside the constructor, before any listener can exist: it arrives here as a thrown log event.
      const message = error instanceof Error ? error.message : JSON.stringify(error);
      if (this.settleStart !== undefined) throw new Error(`buzzer hub: cannot create the board: ${message}`, { cause: error });
      this.countOutage('disconnects');
      this.retry(`cannot create the board: ${message}`);
      return;
    }
    const connection: Connection = {
      board, io: undefined, piezo: undefined, haltPiezo: undefined, readyTimer: undefined, ready: false, ended: false,
    };
    this.connection = connection;
    connection.readyTimer = setTimeout(() => {
      this.lost(connection, `no ready within ${config.readyTimeoutMs} ms`, 'timeouts');
    }, config.readyTimeoutMs);
    // Attached first and never removed: an 'error' without a listener would throw, also after stop().
    board.on('error', (error: unknown) => {
      // johnny-five's own connect timeout (it trails ours, see J5_TIMEOUT_MARGIN_MS) is a timeout too.
      const text = describeFailure(error);
      this.lost(connection, text, /timeout occurred while connecting/i.test(text) ? 'timeouts' : 'disconnects');
    });
    board.on('close', () => {
      this.lost(connection, 'port closed', 'disconnects');
    });
    // firmata-io reports serialport's "disconnected" close as 'disconnect'; johnny-five relays it (untyped).
    (board as unknown as { on(event: 'disconnect', listener: () => void): void }).on('disconnect', () => {
      this.lost(connection, 'port disconnected', 'disconnects');
    });
    board.on('ready', () => {
      this.onReady(connection);
    });
  }

  private onReady(connection: Connection): void {
    // 'ready' comes once per board (the typings have no `once`); stay safe if an IO emits it again.
    if (this.stopping !== undefined || this.config === undefined || connection.ended || connection.io !== undefined) return;
    if (connection.readyTimer !== undefined) clearTimeout(connection.readyTimer);
    const config = this.config;
    const board = connection.board;
    const io = board.io as HubIo;
    connection.io = io;
    // The board's own capability report is the authority on its pins (StandardFirmata: none for D0/D1).
    const problems = checkPinsAgainstBoard(config, io.pins, io.MODES);
    if (problems.length > 0) {
      this.failSetup(connection, new HubSetupError(problems));
      return;
    }
    try {
      const stations = [...this.stations.values()].sort((a, b) => a.config.pin - b.config.pin);
      // A board that was not reset since an earlier session still reports the ports that session read;
      // Firmata ≤ 2.4 disables a pin's pull-up while making it an input, so that report would show the
      // button pressed for a moment and then released. Reporting is off until every pin is set up.
      silenceReports(io);
      // A lamp or piezo write sends its whole Firmata port; a held button's reported 0 in it would switch
      // that button's pull-up off on StandardFirmata ≤ 2.4 (port-writes.ts). Installed before the first write.
      keepPullupsInPortWrites(io, stations.map((s) => ({ pin: s.config.pin, pullup: config.pullup })));
      // Every pin is configured first; only then is reporting switched on (below): StandardFirmata reports a
      // port as soon as its reporting is enabled, and a pin that is not yet an input reads 0 in that report.
      for (const station of stations) {
        // The options carry fields @types/johnny-five does not list (pullup, a controller object).
        const buttonOptions: five.ButtonOption & Record<string, unknown> = {
          board, pin: station.config.pin, pullup: config.pullup, isPullup: config.pullup, invert: config.invert,
          controller: rawButtonController(station.config.pin, supportsMode(io, station.config.pin, io.MODES.PULLUP)),
        };
        // The Button resolves pull-up and invert into the reading that means "pressed".
        station.pressedValue = new (j5().Button)(buttonOptions).downValue;
        if (station.config.lamp !== undefined) {
          station.led = new (j5().Led)({ board, pin: station.config.lamp });
          station.led.off();
        }
      }
      if (config.piezoPin !== undefined) {
        // The controller object is a field @types/johnny-five does not list (it types `controller` as a string).
        const { controller, halt } = digitalPiezoController(config.piezoPin);
        connection.haltPiezo = halt;
        const piezoOptions: five.PiezoOption & Record<string, unknown> = { board, pin: config.piezoPin, controller };
        connection.piezo = new (j5().Piezo)(piezoOptions);
      }
      // Firmata reports a port (8 pins) per message; one pin per port counts the messages for the backlog.
      const counters = new Set<number>();
      for (const station of stations) {
        const port = station.config.pin >> 3;
        const countsReports = !counters.has(port);
        counters.add(port);
        io.digitalRead(station.config.pin, (raw) => {
          this.onReading(connection, station, raw, countsReports);
        });
      }
    } catch (error) {
      // An IO that refuses a mode or a pin the check could not know about: this configuration cannot work.
      this.failSetup(connection, error instanceof Error ? error : new Error(String(error)));
      return;
    }
    connection.ready = true;
    this.outageCounted = false;
    this.update({ state: 'ready', attempts: 0, retryInMs: undefined, lastError: undefined });
    const firmware = describeFirmware(io);
    const port = typeof config.io === 'string' ? config.io : io.name;
    const now = this.clock.wallMs();
    for (const station of this.stations.values()) {
      Object.assign(station, { online: true, firmware, port, lastSeenMs: now });
      this.emitHealth(station);
    }
    this.settleStart?.();
  }

  /**
   * The board cannot serve this configuration. On the first attempt `start()` rejects with `error` once the
   * port is closed (a caller may retry at once: the port is free) and the hub stops. Later (another board
   * plugged in on the same path) the attempt counts as a failure and the hub keeps trying.
   */
  private failSetup(connection: Connection, error: Error): void {
    const settle = this.settleStart;
    if (settle === undefined) {
      this.lost(connection, error.message, 'disconnects');
      return;
    }
    this.settleStart = undefined;
    void this.stop().then(() => {
      settle(error);
    });
  }

  /** A pin reading from the IO: stamped here, first, before anything else can delay it. */
  private onReading(connection: Connection, station: HubStation, raw: number, countsReports: boolean): void {
    const arrivalUs = this.clock.nowUs();
    // After a close or error this board's IO is not trusted: the next connection brings its own readings.
    if (this.stopping !== undefined || this.config === undefined || connection.ended || !station.online) return;
    if (countsReports) this.window.record(arrivalUs);
    station.lastSeenMs = this.clock.wallMs();
    const latency = this.config.latency;
    // Called for an edge only (a changed reading): the monitor judges its host delay once its probes ran.
    const stamp = (): EventTime => {
      this.monitor?.edge();
      return hostEventTime(arrivalUs, latencyBounds(latency, this.window.queuedAhead()));
    };
    station.reading(raw, raw === station.pressedValue, stamp);
  }

  /**
   * The connection failed (before `ready`: `counter` says how) or was lost (after: always a disconnect).
   * Counted once per outage, however many signals report it and however many attempts fail after it; the
   * port is closed and the next attempt scheduled.
   */
  private lost(connection: Connection, reason: string, counter: 'timeouts' | 'disconnects'): void {
    if (this.stopping !== undefined || connection.ended || this.connection !== connection) return;
    connection.ended = true;
    this.connection = undefined;
    if (connection.readyTimer !== undefined) clearTimeout(connection.readyTimer);
    const wasReady = connection.ready;
    for (const station of this.stations.values()) {
      station.cancel();
      station.led?.stop();
      station.led = undefined;
    }
    connection.haltPiezo?.();
    // Retrying from now on; the delay is known once the port is closed (`retry`).
    this.update({ state: 'retrying', lastError: reason });
    this.countOutage(wasReady ? 'disconnects' : counter);
    this.settleStart?.();
    void release(connection).then(() => {
      this.retry(reason);
    });
  }

  /** Counts the outage on every station once, and takes them offline. */
  private countOutage(counter: 'timeouts' | 'disconnects'): void {
    const count = !this.outageCounted;
    this.outageCounted = true;
    for (const station of this.stations.values()) {
      if (!count && !station.online) continue;
      station.online = false;
      if (count) station.errors[counter] += 1;
      this.emitHealth(station);
    }
  }

  private retry(reason: string): void {
    if (this.stopping !== undefined) return;
    if (this.config === undefined) return;
    const delay = backoffDelayMs(this.config.reconnect, this.state.attempts, this.random);
    this.update({ state: 'retrying', attempts: this.state.attempts + 1, retryInMs: delay, lastError: reason });
    this.timers.after(delay, () => {
      this.connect();
    });
  }

  private update(changes: Partial<HubStatus>): void {
    Object.assign(this.state, changes);
    for (const key of Object.keys(changes) as (keyof HubStatus)[]) {
      if (this.state[key] === undefined) Reflect.deleteProperty(this.state, key);
    }
  }

  /**
   * Switches the lamps and the tone off, waits (at most 1 s) until those writes have reached the board,
   * closes the port and every timer (retries included); the stations go offline. Safe to call twice (and
   * before `start`).
   */
  stop(): Promise<void> {
    this.stopping ??= this.shutdown();
    return this.stopping;
  }

  private async shutdown(): Promise<void> {
    this.settleStart?.();
    this.timers.clear();
    this.monitor?.stop();
    const connection = this.connection;
    this.connection = undefined;
    this.update({ state: 'stopped', retryInMs: undefined });
    const wasOnline = connection?.ready === true && [...this.stations.values()].some((s) => s.online);
    for (const station of this.stations.values()) {
      station.cancel();
      // Stop blink intervals and pulse animations; the lamp is switched off only while the port still works.
      station.led?.stop();
      if (wasOnline) station.led?.off();
    }
    if (connection !== undefined) {
      if (connection.readyTimer !== undefined) clearTimeout(connection.readyTimer);
      connection.ended = true;
      // noTone stops the tone's toggling loop (piezo-controller.ts) as well as setting the pin LOW.
      if (wasOnline) connection.piezo?.noTone();
      else connection.haltPiezo?.();
      await release(connection, wasOnline);
    }
    for (const station of this.stations.values()) {
      station.led = undefined;
      if (!station.online) continue;
      station.online = false;
      this.emitHealth(station);
    }
  }

  onEvent(listener: (event: SensorEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  onHealth(listener: (health: StationHealth) => void): () => void {
    this.healthListeners.add(listener);
    return () => this.healthListeners.delete(listener);
  }

  health(): StationHealth[] {
    return [...this.stations.values()].map((s) => s.health());
  }

  setLamp(station: StationId, pattern: LampPattern): Promise<CommandResult> {
    const target = this.stations.get(station);
    if (target === undefined) return Promise.resolve(hubError('UNKNOWN_STATION', station));
    if (target.config.lamp === undefined) return Promise.resolve(hubError('NO_LAMP', station));
    if (!target.online || target.led === undefined) return Promise.resolve(hubError('OFFLINE', station));
    return Promise.resolve(this.command(target, () => {
      if (target.led !== undefined) applyLampPattern(target.led, pattern);
    }));
  }

  /**
   * Sounds the piezo at `frequencyHz` for `durationMs` (the winner's beep). johnny-five toggles a passive
   * piezo from the host, one Firmata write per half period, so the tone is limited by the serial link
   * (`maxToneHz`) and keeps one host core busy while it plays.
   */
  beep(frequencyHz = 440, durationMs = 300): Promise<CommandResult> {
    const piezo = this.connection?.ready === true ? this.connection.piezo : undefined;
    if (this.options.piezoPin === undefined) return Promise.resolve(hubError('NO_PIEZO'));
    const online = [...this.stations.values()].some((s) => s.online);
    if (!online || piezo === undefined || this.config === undefined) return Promise.resolve(hubError('OFFLINE'));
    const maxHz = maxToneHz(this.config);
    if (!(frequencyHz >= 20 && frequencyHz <= maxHz)) return Promise.resolve(hubError('BAD_ARGUMENT', `frequency ${frequencyHz} Hz not in 20–${maxHz}`));
    if (!(durationMs >= 1 && durationMs <= MAX_BEEP_MS)) return Promise.resolve(hubError('BAD_ARGUMENT', `duration ${durationMs} ms not in 1–${MAX_BEEP_MS}`));
    return Promise.resolve(this.command(undefined, () => {
      // The controller ends the tone on LOW by itself (piezo-controller.ts).
      piezo.frequency(frequencyHz, durationMs);
    }));
  }

  /** Runs an IO command; an exception from the IO is counted and answered, never thrown. */
  private command(station: HubStation | undefined, run: () => void): CommandResult {
    try {
      run();
      return OK;
    } catch (error) {
      for (const s of station === undefined ? this.stations.values() : [station]) {
        s.errors.commandErrors += 1;
        this.emitHealth(s);
      }
      return hubError('IO_ERROR', error instanceof Error ? error.message : String(error));
    }
  }

  private emitEvent(event: SensorEvent): void {
    for (const listener of this.eventListeners) listener(event);
  }

  private emitHealth(station: HubStation): void {
    const health = station.health();
    for (const listener of this.healthListeners) listener(health);
  }
}

/**
 * Closes a connection's port and every timer johnny-five and firmata-io armed for it; with `flush`, first
 * waits (≤ 1 s) until the writes already made (the lamps' off, the tone's end) have reached the board.
 */
async function release(connection: Connection, flush = false): Promise<void> {
  // With a port path, johnny-five created the IO itself (it exists from 'connect', before 'ready').
  const io = (connection.board.io ?? undefined) as HubIo | undefined;
  clearConnectTimers(connection.board);
  // The off commands are still queued: they must reach the board before the port closes.
  if (flush) await flushWrites(io, STOP_FLUSH_MS);
  await closeTransport(io);
  // johnny-five keeps every Board in a module-level cache for default mounting; this one is done.
  const cache = (j5().Board as unknown as { cache?: unknown[] }).cache;
  const index = cache?.indexOf(connection.board) ?? -1;
  if (index >= 0) cache?.splice(index, 1);
}

/** A board's failure for people: an Error's message, johnny-five's log event's, or the value. */
function describeFailure(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error) return String(error.message);
  return String(error);
}

/** Switches off the reporting of every port of the board (Firmata reports a port of 8 pins per message). */
function silenceReports(io: HubIo): void {
  const pins = io.pins?.length ?? 0;
  for (let first = 0; first < pins; first += 8) io.reportDigitalPin?.(first, 0);
}

/** Whether the IO's capability report lists `mode` for `pin` (false without a report or without the mode). */
function supportsMode(io: HubIo, pin: number, mode: number | undefined): boolean {
  return mode !== undefined && (io.pins?.[pin]?.supportedModes ?? []).includes(mode);
}

/**
 * The highest tone the link carries at half its capacity: each half period is one 3-byte Firmata write, so
 * f Hz costs 6·f bytes/s of the baud/10 bytes/s; at 57600 baud that is 480 Hz. Without a serial link
 * (a GPIO plugin) the host timer is the limit: 1 kHz.
 */
export function maxToneHz(config: HubConfig): number {
  const baud = config.latency.baud;
  return baud > 0 ? Math.floor(baud / 10 / 6 / 2) : 1000;
}

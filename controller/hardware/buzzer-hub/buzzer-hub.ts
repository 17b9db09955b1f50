/**
 * The johnny-five buzzer hub: one board running StandardFirmata (or any johnny-five IO plugin) with big
 * event buzzers, their lamps and a piezo, behind the table's hardware interface (design principle 3).
 * Every button is a station of kind `hub`; its events are stamped on the host with a stated uncertainty
 * (host-timestamp.ts), since Firmata carries no time. See docs/buzzer-hub.md.
 */
import five from 'johnny-five';
import type { Board, Piezo } from 'johnny-five';
import { systemClock, type Clock, type CommandResult, type EventTime, type LampPattern, type SensorEvent, type StationHealth, type StationId, type TableHardware } from '../interface.ts';
import { resolveHubConfig, type BuzzerHubOptions, type HubConfig } from './hub-config.ts';
import { hubError, HubSetupError, OK } from './hub-errors.ts';
import { clearConnectTimers, closeTransport, describeFirmware, flushWrites, type HubIo } from './hub-io.ts';
import { HubStation } from './hub-station.ts';
import { backlogWindowUs, hostEventTime, latencyBounds, ReportWindow } from './host-timestamp.ts';
import { applyLampPattern } from './lamp-patterns.ts';
import { digitalPiezoController } from './piezo-controller.ts';
import { checkPinsAgainstBoard } from './pin-check.ts';
import { keepPullupsInPortWrites } from './port-writes.ts';
import { rawButtonController } from './raw-button-controller.ts';

/**
 * How long `stop()` waits for queued writes to reach the board. At 57600 baud the firmware's 64-byte buffer
 * drains in 11 ms; the host side queues little more once the lamps and the tone have stopped.
 */
const STOP_FLUSH_MS = 1000;

/** The longest beep: a winner's sound, not a siren (the piezo is toggled by the host, see `beep`). */
const MAX_BEEP_MS = 10_000;

export class BuzzerHub implements TableHardware {
  private config: HubConfig | undefined;
  private board: Board | undefined;
  private io: HubIo | undefined;
  private piezo: Piezo | undefined;
  private haltPiezo: (() => void) | undefined;
  private stations = new Map<StationId, HubStation>();
  private window = new ReportWindow(0);
  private readonly eventListeners = new Set<(event: SensorEvent) => void>();
  private readonly healthListeners = new Set<(health: StationHealth) => void>();
  private readyTimer: NodeJS.Timeout | undefined;
  private settleStart: ((error?: Error) => void) | undefined;
  private connectFailed = false;
  private stopping: Promise<void> | undefined;

  /** Opens nothing: `start()` does. `clock` stamps events (inject a fake one in tests). */
  constructor(private readonly options: BuzzerHubOptions, private readonly clock: Clock = systemClock) {}

  /**
   * Validates the configuration, creates the board and waits up to `readyTimeoutMs` for it, then checks the
   * pins against the board's capability report. A configuration that cannot work rejects with a
   * {@link HubSetupError} listing every problem with its code (before anything is opened, or after the
   * report, with the port closed again). A board that fails or does not answer in time leaves the stations
   * offline with the failure counted (`disconnects` or `timeouts`), and `start()` resolves all the same.
   */
  async start(): Promise<void> {
    if (this.board !== undefined || this.stopping !== undefined) return;
    const { config, errors } = resolveHubConfig(this.options);
    if (errors.length > 0) throw new HubSetupError(errors);
    this.config = config;
    this.window = new ReportWindow(backlogWindowUs(config.latency));
    this.stations = new Map(config.buttons.map((b) => [b.id, new HubStation(b, config.debounceMs, (e) => {
      this.emitEvent(e);
    })]));
    if (typeof config.io === 'string') for (const station of this.stations.values()) station.port = config.io;

    const ready = new Promise<void>((resolve, reject) => {
      this.settleStart = (error) => {
        this.settleStart = undefined;
        if (this.readyTimer !== undefined) clearTimeout(this.readyTimer);
        if (error === undefined) resolve();
        else reject(error);
      };
    });
    const common = { repl: false, debug: false, timeout: config.readyTimeoutMs };
    // `sigint: false`: johnny-five would otherwise install a SIGINT handler that force-exits the process.
    const boardOptions: five.BoardOption & { sigint: boolean } = typeof config.io === 'string'
      ? { ...common, sigint: false, port: config.openPort?.(config.io) ?? config.io }
      : { ...common, sigint: false, io: config.io() };
    let board: Board;
    try {
      board = new five.Board(boardOptions);
    } catch (error) {
      // johnny-five emits a failure to create the IO (e.g. serialport's native addon missing) as an 'error'
      // inside the constructor, before any listener can exist: it arrives here as a thrown log event.
      const message = error instanceof Error ? error.message : JSON.stringify(error);
      throw new Error(`buzzer hub: cannot create the board: ${message}`, { cause: error });
    }
    this.board = board;
    this.readyTimer = setTimeout(() => {
      this.connectionFailed('timeouts');
    }, config.readyTimeoutMs);
    // Attached first and never removed: an 'error' without a listener would throw, also after stop().
    board.on('error', (error: unknown) => {
      this.boardFailed(error);
    });
    board.on('close', () => {
      this.boardFailed('closed');
    });
    board.on('ready', () => {
      this.onReady(board);
    });
    await ready;
  }

  private onReady(board: Board): void {
    // 'ready' comes once per board (the typings have no `once`); stay safe if an IO emits it again.
    if (this.stopping !== undefined || this.config === undefined || this.io !== undefined) return;
    const config = this.config;
    const io = board.io as HubIo;
    this.io = io;
    // The board's own capability report is the authority on its pins (StandardFirmata: none for D0/D1).
    const problems = checkPinsAgainstBoard(config, io.pins, io.MODES);
    if (problems.length > 0) {
      this.failSetup(new HubSetupError(problems));
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
        station.pressedValue = new five.Button(buttonOptions).downValue;
        if (station.config.lamp !== undefined) {
          station.led = new five.Led({ board, pin: station.config.lamp });
          station.led.off();
        }
      }
      if (config.piezoPin !== undefined) {
        // The controller object is a field @types/johnny-five does not list (it types `controller` as a string).
        const { controller, halt } = digitalPiezoController(config.piezoPin);
        this.haltPiezo = halt;
        const piezoOptions: five.PiezoOption & Record<string, unknown> = { board, pin: config.piezoPin, controller };
        this.piezo = new five.Piezo(piezoOptions);
      }
      // Firmata reports a port (8 pins) per message; one pin per port counts the messages for the backlog.
      const counters = new Set<number>();
      for (const station of stations) {
        const port = station.config.pin >> 3;
        const countsReports = !counters.has(port);
        counters.add(port);
        io.digitalRead(station.config.pin, (raw) => {
          this.onReading(station, raw, countsReports);
        });
      }
    } catch (error) {
      // An IO that refuses a mode or a pin the check could not know about: this configuration cannot work.
      this.failSetup(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    const firmware = describeFirmware(io);
    const port = typeof config.io === 'string' ? config.io : io.name;
    const now = this.clock.wallMs();
    for (const station of this.stations.values()) {
      Object.assign(station, { online: true, firmware, port, lastSeenMs: now });
      this.emitHealth(station);
    }
    this.settleStart?.();
  }

  /** Closes the port, then rejects `start()` with `error` (a caller may retry at once: the port is free). */
  private failSetup(error: Error): void {
    const settle = this.settleStart;
    this.settleStart = undefined;
    void this.stop().then(() => settle?.(error));
  }

  /** A pin reading from the IO: stamped here, first, before anything else can delay it. */
  private onReading(station: HubStation, raw: number, countsReports: boolean): void {
    const arrivalUs = this.clock.nowUs();
    // After a close or error the IO is not trusted until the hub is restarted (no reconnect in v1).
    if (this.stopping !== undefined || this.config === undefined || !station.online) return;
    if (countsReports) this.window.record(arrivalUs);
    station.lastSeenMs = this.clock.wallMs();
    const latency = this.config.latency;
    const stamp = (): EventTime => hostEventTime(arrivalUs, latencyBounds(latency, this.window.queuedAhead()));
    station.reading(raw, raw === station.pressedValue, stamp);
  }

  private connectionFailed(counter: 'timeouts' | 'disconnects'): void {
    if (this.connectFailed) return; // one failure to connect is counted once, however it is reported
    this.connectFailed = true;
    for (const station of this.stations.values()) {
      station.errors[counter] += 1;
      this.emitHealth(station);
    }
    this.settleStart?.();
  }

  private boardFailed(_reason: unknown): void {
    if (this.stopping !== undefined) return;
    if (this.settleStart !== undefined) {
      this.connectionFailed('disconnects');
      return;
    }
    for (const station of this.stations.values()) {
      if (!station.online) continue;
      station.online = false;
      station.cancel();
      station.errors.disconnects += 1;
      this.emitHealth(station);
    }
  }

  /**
   * Switches the lamps and the tone off, waits (at most 1 s) until those writes have reached the board,
   * closes the port and every timer; the stations go offline. Safe to call twice (and before `start`).
   */
  stop(): Promise<void> {
    this.stopping ??= this.shutdown();
    return this.stopping;
  }

  private async shutdown(): Promise<void> {
    this.settleStart?.();
    if (this.readyTimer !== undefined) clearTimeout(this.readyTimer);
    const wasOnline = [...this.stations.values()].some((s) => s.online);
    for (const station of this.stations.values()) {
      station.cancel();
      // Stop blink intervals and pulse animations; the lamp is switched off only while the port still works.
      station.led?.stop();
      if (wasOnline) station.led?.off();
    }
    // noTone stops the tone's toggling loop (piezo-controller.ts) as well as setting the pin LOW.
    if (wasOnline) this.piezo?.noTone();
    else this.haltPiezo?.();
    // With a port path, johnny-five created the IO itself (it exists from 'connect', before 'ready').
    const io = (this.board?.io ?? undefined) as HubIo | undefined;
    clearConnectTimers(this.board);
    // The off commands above are still queued: they must reach the board before the port closes.
    if (wasOnline) await flushWrites(io, STOP_FLUSH_MS);
    await closeTransport(io);
    // johnny-five keeps every Board in a module-level cache for default mounting; ours is done.
    const cache = (five.Board as unknown as { cache?: unknown[] }).cache;
    const index = cache?.indexOf(this.board) ?? -1;
    if (index >= 0) cache?.splice(index, 1);
    for (const station of this.stations.values()) {
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
    const piezo = this.piezo;
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

/**
 * One serial port, one station: opens the port through a binding, splits lines with parser-readline,
 * decodes every line with the protocol codec, waits for the boot banner, and carries commands with ids,
 * one in flight, each with a timeout.
 *
 * The link knows nothing about station ids or health; it reports what happens on the wire as
 * {@link LinkSignal}s and the owner (serial-stations.ts) decides what it means. Bad lines are reported and
 * never acted on.
 *
 * Banner wait: a real Uno/Nano resets when the port opens (DTR) and spends ~1.5–2 s in its bootloader, so
 * the link waits up to `bannerTimeoutMs` (default 3 s) before it concludes the banner was missed. It then
 * asks `info` (a board that does not reset on open, or a banner printed before the port was open); if that
 * fails too, it reports `no-banner` and keeps listening: a banner that comes later still identifies the
 * station.
 */
import { parseDeviceLine, protocolError, type EventMessage, type ProtocolError } from '../../protocol/index.ts';
import type { Clock } from '../interface.ts';
import { CommandQueue, type CommandBody, type CommandOutcome } from './command-queue.ts';
import { BoundedLineParser, DEFAULT_MAX_BUFFERED_BYTES } from './line-parser.ts';
import { createSerialPort, type SerialBinding } from './serial-binding.ts';
import { factsFromBanner, factsFromInfo, type StationFacts } from './station-facts.ts';
import { TimerSet, type Scheduler } from './timers.ts';

type Port = ReturnType<typeof createSerialPort>;

/** Timing of one link. */
export interface LinkTiming {
  /** How long to wait for the banner after opening, ms. Default 3000 (bootloader ~1.5–2 s). */
  readonly bannerTimeoutMs: number;
  /** Reply timeout of a command, ms. Default 3000 (protocol.md: tare/calibrate take up to ~1 s, 2 s sensor timeout). */
  readonly commandTimeoutMs: number;
}

export const DEFAULT_LINK_TIMING: LinkTiming = { bannerTimeoutMs: 3000, commandTimeoutMs: 3000 };

export interface StationLinkOptions {
  readonly path: string;
  readonly binding: SerialBinding;
  readonly baudRate: number;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  readonly timing: LinkTiming;
  /** Longest unterminated input kept before it is discarded (see line-parser.ts). */
  readonly maxBufferedBytes?: number;
}

/** Something that happened on the link. */
export type LinkSignal =
  /** Any line arrived (good or bad): the station is alive. */
  | { readonly type: 'line-received' }
  /** The station said who it is: by its banner (it has just booted) or by answering `info`. */
  | { readonly type: 'identified'; readonly facts: StationFacts; readonly via: 'banner' | 'info'; readonly receivedUs: number }
  /** No banner within the timeout and no answer to `info` either. The link keeps listening. */
  | { readonly type: 'no-banner'; readonly waitedMs: number }
  /** A valid event line. */
  | { readonly type: 'event'; readonly event: EventMessage; readonly receivedUs: number }
  /** A line that failed the codec (or an overlong run of bytes); it was not acted on. */
  | { readonly type: 'bad-line'; readonly line: string; readonly error: ProtocolError }
  /** A valid reply that answers no command in flight (late after a timeout, or not ours). */
  | { readonly type: 'stray-reply'; readonly line: string }
  /** A command was answered with `err <code>`. */
  | { readonly type: 'command-error'; readonly line: string; readonly code: number }
  /** A command got no reply in time. */
  | { readonly type: 'command-timeout'; readonly line: string }
  /** The port reported an error (it usually closes right after). */
  | { readonly type: 'port-error'; readonly message: string }
  /** The port closed: `requested` when `close()` was called, else unplugged or failed. Sent once. */
  | { readonly type: 'closed'; readonly requested: boolean; readonly message: string | undefined };

export class StationLink {
  readonly path: string;
  private readonly options: StationLinkOptions;
  private readonly onSignal: (signal: LinkSignal) => void;
  private readonly timers: TimerSet;
  private readonly queue: CommandQueue;
  private port: Port | undefined;
  private identified = false;
  private closeRequested = false;
  private closedSignalled = false;
  private closing: Promise<void> | undefined;

  constructor(options: StationLinkOptions, onSignal: (signal: LinkSignal) => void) {
    this.path = options.path;
    this.options = options;
    this.onSignal = onSignal;
    this.timers = new TimerSet(options.scheduler);
    this.queue = new CommandQueue({
      write: (line) => this.write(line),
      clock: options.clock,
      timers: this.timers,
      onTimeout: (line) => {
        this.onSignal({ type: 'command-timeout', line });
      },
    });
  }

  /** True while the port is open and not being closed. */
  get isOpen(): boolean {
    return this.port?.isOpen === true && !this.closeRequested;
  }

  /**
   * Opens the port and starts waiting for the banner. Rejects when the port cannot be opened (absent,
   * busy, no permission); the link is then closed and must not be reused. Call once.
   */
  async open(): Promise<void> {
    if (this.port !== undefined) throw new Error(`StationLink ${this.path}: open() called twice`);
    const port = createSerialPort(this.options.binding, this.path, this.options.baudRate);
    this.port = port;
    // Without an 'error' listener a failing write would crash the process (EventEmitter semantics).
    port.on('error', (error: Error) => {
      this.onSignal({ type: 'port-error', message: error.message });
    });
    port.on('close', (error: Error | null) => {
      this.portClosed(error);
    });
    try {
      await new Promise<void>((resolve, reject) => {
        port.open((error) => {
          if (error === null) resolve();
          else reject(error);
        });
      });
    } catch (error) {
      this.closeRequested = true;
      this.queue.closeAll();
      throw error;
    }
    if (this.closeRequested) {
      // close() was called while the port was opening: honour it now that there is something to close.
      await this.closePort(port);
      return;
    }
    const parser = new BoundedLineParser((dropped) => {
      this.lineArrived(undefined, protocolError('LINE_TOO_LONG', `${dropped} bytes without a newline, discarded up to the next one`));
    }, this.options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES);
    parser.on('data', (line: string) => {
      this.lineArrived(line, undefined);
    });
    port.pipe(parser);
    this.timers.after(this.options.timing.bannerTimeoutMs, () => {
      this.bannerTimedOut();
    });
  }

  /**
   * Sends a command; resolves with its outcome (never rejects). `timeoutMs` overrides the default; `slot`: see
   * CommandQueue.submit (a newer command of the slot replaces this one while it waits).
   */
  command(body: CommandBody, timeoutMs = this.options.timing.commandTimeoutMs, slot?: string): Promise<CommandOutcome> {
    return this.queue.submit(body, timeoutMs, slot);
  }

  /** Sends a line exactly as given (see CommandQueue.submitRaw). */
  commandRaw(line: string, timeoutMs = this.options.timing.commandTimeoutMs): Promise<CommandOutcome> {
    return this.queue.submitRaw(line, timeoutMs);
  }

  /** Closes the port and cancels every timer; pending commands resolve `closed`. Safe to call twice. */
  close(): Promise<void> {
    this.closing ??= this.doClose();
    return this.closing;
  }

  private async doClose(): Promise<void> {
    this.closeRequested = true;
    this.timers.clear();
    this.queue.closeAll();
    const port = this.port;
    if (port?.isOpen === true) await this.closePort(port);
    else this.signalClosed(undefined);
  }

  private closePort(port: Port): Promise<void> {
    return new Promise((resolve) => {
      port.close(() => {
        // The 'close' event has been (or is being) handled; an error here means it was already closed.
        this.signalClosed(undefined);
        resolve();
      });
    });
  }

  private write(line: string): boolean {
    const port = this.port;
    if (port === undefined || !this.isOpen) return false;
    port.write(`${line}\n`);
    return true;
  }

  private lineArrived(line: string | undefined, overflow: ProtocolError | undefined): void {
    if (this.closeRequested) return;
    const receivedUs = this.options.clock.nowUs();
    this.onSignal({ type: 'line-received' });
    if (line === undefined) {
      if (overflow !== undefined) this.onSignal({ type: 'bad-line', line: '', error: overflow });
      return;
    }
    const message = parseDeviceLine(line);
    if ('error' in message) {
      this.onSignal({ type: 'bad-line', line, error: message });
      return;
    }
    switch (message.type) {
      case 'banner':
        this.identified = true;
        this.queue.abandonInFlight();
        this.onSignal({ type: 'identified', facts: factsFromBanner(message), via: 'banner', receivedUs });
        return;
      case 'event':
        this.onSignal({ type: 'event', event: message, receivedUs });
        return;
      case 'ok':
      case 'err':
        if (!this.queue.handleReply(message, line, receivedUs)) {
          this.onSignal({ type: 'stray-reply', line });
        } else if (message.type === 'err') {
          this.onSignal({ type: 'command-error', line, code: message.code });
        }
        return;
    }
  }

  private bannerTimedOut(): void {
    if (this.identified || this.closeRequested) return;
    const started = this.options.clock.nowUs();
    void this.command({ verb: 'info' }).then((outcome) => {
      if (this.identified || this.closeRequested) return;
      const facts = outcome.ok ? factsFromInfo(outcome.fields) : undefined;
      if (outcome.ok && facts !== undefined) {
        this.identified = true;
        this.onSignal({ type: 'identified', facts, via: 'info', receivedUs: outcome.receivedUs });
        return;
      }
      const waitedMs = this.options.timing.bannerTimeoutMs + (this.options.clock.nowUs() - started) / 1000;
      this.onSignal({ type: 'no-banner', waitedMs: Math.round(waitedMs) });
    });
  }

  private portClosed(error: Error | null): void {
    this.timers.clear();
    this.queue.closeAll();
    this.signalClosed(error?.message);
  }

  private signalClosed(message: string | undefined): void {
    if (this.closedSignalled) return;
    this.closedSignalled = true;
    this.onSignal({ type: 'closed', requested: this.closeRequested, message });
  }
}

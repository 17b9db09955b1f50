/**
 * Configuration of the johnny-five buzzer hub: which IO to drive, which pins are buttons (one station each),
 * their lamps, the piezo, debouncing and the latency model behind the host timestamps. Validated once by
 * `resolveHubConfig`, which reports every problem at once (design principle 9).
 */
import { hubProblem, type HubProblem } from './hub-errors.ts';
import { DEFAULT_FIRMATA_LATENCY, type LatencyModel } from './host-timestamp.ts';
import { DEFAULT_BACKOFF, type BackoffPolicy } from '../serial/backoff.ts';
import type { HostDelayMonitorOptions } from './host-delay-monitor.ts';

/** One big event buzzer: a button wired from `pin` to GND (internal pull-up), optionally with a lamp. */
export interface HubButtonConfig {
  /** The station id this button reports as, e.g. `buzzer-1`. Unique within the hub. */
  readonly id: string;
  /**
   * Digital pin number as Firmata numbers it (an Uno: 2–13, and A0–A5 = 14–19; D0/D1 are the serial link).
   * Checked against the board's capability report at start-up.
   */
  readonly pin: number;
  /** Pin of the button's lamp (an LED, or a lamp driver's input). A PWM pin lets `pulse` fade. */
  readonly lamp?: number;
}

/**
 * Where the hub's board is. A string is a serial port path (a board running StandardFirmata, 57600 baud);
 * a function creates an IO plugin instance (mock-firmata in tests, a Raspberry Pi GPIO plugin, …). It is a
 * factory so that nothing is opened before `start()`.
 */
export type HubIoSource = string | (() => unknown);

/**
 * The serial port object johnny-five hands to firmata-io for a port path (`Board({ port: object })`): the
 * part of a serialport stream that firmata-io uses. `openPort` creates one; tests pass a port onto an
 * emulated board here, production leaves it to johnny-five (serialport 8).
 */
export interface HubSerialPort {
  readonly path: string;
  readonly isOpen: boolean;
  on(event: string, listener: (...args: never[]) => void): unknown;
  write(data: Buffer, callback?: (error?: Error | null) => void): unknown;
  close(callback?: (error?: Error | null) => void): unknown;
}

export interface BuzzerHubOptions {
  readonly io: HubIoSource;
  /**
   * With a port path: opens it (the port must open by itself, as serialport's `autoOpen` does). Default:
   * johnny-five opens the path with its own serialport at 57600 baud. Called once per connection attempt.
   */
  readonly openPort?: (path: string) => HubSerialPort;
  readonly buttons: readonly HubButtonConfig[];
  /** Pin of a passive piezo for the winner's beep (toggled by the host, see `beep`). */
  readonly piezoPin?: number;
  /**
   * Pull-up on the button pins (default true: button to GND, no resistor needed). With the pull-up a
   * pressed button reads LOW, so `invert` defaults to the pull-up setting, as in johnny-five.
   */
  readonly pullup?: boolean;
  /** Pressed reads LOW (default: equal to `pullup`). */
  readonly invert?: boolean;
  /**
   * A change counts once the input has been quiet for this long (ms); the event is stamped with the first
   * edge of the change, so debouncing delays the event but adds nothing to its time's uncertainty. A pulse
   * shorter than this that returns to the old level is a glitch and ignored. Default 5, as the seat stations.
   */
  readonly debounceMs?: number;
  /**
   * How long `start()` waits for the board's `ready` (ms). Default 10 000: the handshake takes ~2 s after the
   * reset on open (StandardFirmata blinks its version first) and ~5 s on a board that does not reset
   * (firmata-io asks for the version after 5 s); docs/buzzer-hub.md.
   */
  readonly readyTimeoutMs?: number;
  /** Overrides of the latency model (defaults: StandardFirmata on an Uno over its ATmega16U2, 57600 baud). */
  readonly latency?: Partial<LatencyModel>;
  /**
   * The delays between connection attempts after the board was lost or did not get ready: the seat
   * stations' backoff (serial/backoff.ts; default 250 ms doubling up to 8 s, 20 % jitter), restarting at
   * 250 ms once the board was ready again.
   */
  readonly reconnect?: Partial<BackoffPolicy>;
  /**
   * The host-delay monitor (host-delay-monitor.ts): a probe timer measuring the event loop's lateness, its
   * rolling figures on `bridge/health` and a warning for edges over the allowance. Default on (probe every
   * 10 ms, 60 s window); `false` switches it off.
   */
  readonly hostDelayMonitor?: Omit<HostDelayMonitorOptions, 'allowanceUs'> | false;
}

export interface HubConfig {
  readonly io: HubIoSource;
  readonly openPort: ((path: string) => HubSerialPort) | undefined;
  readonly buttons: readonly HubButtonConfig[];
  readonly piezoPin: number | undefined;
  readonly pullup: boolean;
  readonly invert: boolean;
  readonly debounceMs: number;
  readonly readyTimeoutMs: number;
  readonly latency: LatencyModel;
  readonly reconnect: BackoffPolicy;
}

export const HUB_DEFAULTS = { pullup: true, debounceMs: 5, readyTimeoutMs: 10_000 } as const;

const isPin = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;
const isNonNegative = (n: unknown): boolean => typeof n === 'number' && Number.isFinite(n) && n >= 0;

/**
 * The pins a serial StandardFirmata board never frees: D0 (RX) and D1 (TX) carry the link to the host on an
 * Uno, a Nano and a Mega. Refused before the port is opened; the capability report confirms it later.
 */
export const SERIAL_PINS: Readonly<Record<number, string>> = { 0: 'D0 is the serial RX', 1: 'D1 is the serial TX' };

/** Fills in defaults and checks the options; `errors` lists every problem (empty = usable). */
export function resolveHubConfig(options: BuzzerHubOptions): { config: HubConfig; errors: HubProblem[] } {
  const errors: HubProblem[] = [];
  const invalid = (path: string, message: string): void => {
    errors.push(hubProblem('INVALID_CONFIG', path, message));
  };
  const pullup = options.pullup ?? HUB_DEFAULTS.pullup;
  const config: HubConfig = {
    io: options.io,
    openPort: options.openPort,
    buttons: options.buttons,
    piezoPin: options.piezoPin,
    pullup,
    invert: options.invert ?? pullup,
    debounceMs: options.debounceMs ?? HUB_DEFAULTS.debounceMs,
    readyTimeoutMs: options.readyTimeoutMs ?? HUB_DEFAULTS.readyTimeoutMs,
    latency: { ...DEFAULT_FIRMATA_LATENCY, ...options.latency },
    reconnect: { ...DEFAULT_BACKOFF, ...options.reconnect },
  };

  if (typeof config.io !== 'string' && typeof config.io !== 'function') invalid('io', 'a port path or an IO factory is required');
  if (typeof config.io === 'string' && config.io.length === 0) invalid('io', 'the port path is empty');
  if (config.buttons.length === 0) invalid('buttons', 'at least one button is required');
  const serial = typeof config.io === 'string';

  // Every pin drives exactly one thing: a lamp on a button's pin would turn its pull-up into an output.
  const owners = new Map<number, string>();
  const claim = (pin: unknown, what: string): void => {
    if (!isPin(pin)) {
      invalid(what, `pin must be a non-negative integer, got ${String(pin)}`);
      return;
    }
    const reserved = SERIAL_PINS[pin];
    if (serial && reserved !== undefined) {
      errors.push(hubProblem('PIN_RESERVED', what, `pin ${pin}: ${reserved}, StandardFirmata's link to the controller`));
      return;
    }
    const owner = owners.get(pin);
    if (owner !== undefined) errors.push(hubProblem('PIN_CONFLICT', what, `pin ${pin} is already used by ${owner}`));
    else owners.set(pin, what);
  };
  const ids = new Set<string>();
  for (const [i, b] of config.buttons.entries()) {
    const label = `buttons[${i}]`;
    if (typeof b.id !== 'string' || b.id.length === 0) invalid(`${label}.id`, 'a station id is required');
    else if (ids.has(b.id)) invalid(`${label}.id`, `duplicate station id "${b.id}"`);
    else ids.add(b.id);
    claim(b.pin, `${label}.pin`);
    if (b.lamp !== undefined) claim(b.lamp, `${label}.lamp`);
  }
  if (config.piezoPin !== undefined) claim(config.piezoPin, 'piezoPin');

  if (!isNonNegative(config.debounceMs)) invalid('debounceMs', 'must be a number ≥ 0');
  if (!isNonNegative(config.readyTimeoutMs) || config.readyTimeoutMs === 0) invalid('readyTimeoutMs', 'must be a number > 0');
  for (const [key, value] of Object.entries(config.latency)) {
    if (!isNonNegative(value)) invalid(`latency.${key}`, 'must be a number ≥ 0');
  }
  const { initialMs, maxMs, factor, jitter } = config.reconnect;
  if (!isNonNegative(initialMs) || initialMs === 0) invalid('reconnect.initialMs', 'must be a number > 0');
  if (!isNonNegative(maxMs) || maxMs < initialMs) invalid('reconnect.maxMs', 'must be a number ≥ reconnect.initialMs');
  if (!isNonNegative(factor) || factor < 1) invalid('reconnect.factor', 'must be a number ≥ 1');
  if (!isNonNegative(jitter) || jitter > 1) invalid('reconnect.jitter', 'must be a number in 0–1');
  return { config, errors };
}

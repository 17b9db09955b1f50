/**
 * An Arduino Uno running the real **StandardFirmata** build that avrgirl-arduino ships
 * (`avrgirl-arduino/junk/hex/uno/StandardFirmata.cpp.hex`), in avr8js, as a serial device: a
 * {@link UsartBinding} serves it as a port, so the johnny-five → firmata-io path talks to it as to
 * `/dev/ttyACM0` at 57600 baud, handshake, capability and analog-mapping queries included.
 *
 * Reuses the seat-station harness (`test/emulator/avr-runner.ts`: CPU, timers, USART, ports, simulated
 * clock; `usart-binding.ts`: the serialport binding); adds the Uno's pins as the world sees them
 * (`uno-pins.ts`) and a tap of both directions of the wire (for `firmata-wire.ts`).
 *
 * Time: johnny-five and firmata-io run on host timers (firmata-io asks for the version after 5 s of host
 * time), so the board **free-runs**: simulated time follows the host clock × `speed`, as a real board's does
 * (`start()`/`stop()`), in steps of at most `STEP_US`. Each byte the board sends reaches the host at the end
 * of its stop bit (exactly, in `sent`); host code runs when that step ends.
 */
import { createRequire } from 'node:module';
import { AvrRunner, CPU_HZ, CYCLES_PER_US, yieldToEventLoop, type Mcu } from '../emulator/avr-runner.ts';
import type { SerialDevice } from '../emulator/usart-binding.ts';
import type { TimedByte } from './firmata-wire.ts';
import { UnoPins } from './uno-pins.ts';

const require = createRequire(import.meta.url);

/** The prebuilt StandardFirmata for the Uno that avrgirl-arduino ships (no network, no Firmata sources). */
export const STANDARD_FIRMATA_UNO_HEX = require.resolve('avrgirl-arduino/junk/hex/uno/StandardFirmata.cpp.hex');

/**
 * The longest stretch of simulated time the free-running loop runs before it yields to the event loop:
 * how late (in simulated time) host code can see a byte, and how finely host and board time interleave.
 */
export const STEP_US = 250;

export interface FirmataBoardOptions {
  /** Reset the MCU when the port opens (an Uno's DTR auto-reset). Default true; changeable later. */
  readonly resetOnOpen?: boolean;
  /** How long the bootloader holds the sketch after a reset (µs of simulated time). Default 0. */
  readonly bootloaderUs?: number;
  /** The image to run (an ATmega328P build). Default: avrgirl's Uno StandardFirmata. */
  readonly hex?: string;
}

export class FirmataBoard implements SerialDevice {
  readonly runner: AvrRunner;
  readonly pins: UnoPins;
  /** Bytes the board sent since power-on, with the simulated end of each stop bit. */
  readonly sent: TimedByte[] = [];
  /** Bytes the board's receiver completed, with their simulated time. */
  readonly received: TimedByte[] = [];
  /** Simulated times of the MCU's resets (power-on is not one). */
  readonly resetsUs: number[] = [];
  /** Whether opening the port resets the board (a board without DTR auto-reset: false). */
  resetOnOpen: boolean;
  /** Host bytes lost because the receiver was off (in reset, before `Serial.begin`). */
  rxDropped = 0;

  private readonly bootloaderUs: number;
  private mcu: Mcu | undefined;
  private rxQueue: number[] = [];
  private rxInFlight: number | undefined;
  private readonly transmitListeners = new Set<(bytes: Uint8Array) => void>();
  private freeRun: { stop: boolean; done: Promise<void> } | undefined;
  private lagUsNow = 0;

  constructor(options: FirmataBoardOptions = {}) {
    this.resetOnOpen = options.resetOnOpen ?? true;
    this.bootloaderUs = options.bootloaderUs ?? 0;
    this.runner = AvrRunner.fromFile(options.hex ?? STANDARD_FIRMATA_UNO_HEX);
    this.runner.onAttach((mcu) => {
      this.attach(mcu);
    });
    this.pins = new UnoPins(this.runner);
  }

  /** Simulated time since power-on (µs). */
  get nowUs(): number {
    return this.runner.nowUs;
  }

  /** In free-running mode: how far simulated time is behind the host clock × speed (µs). */
  get lagUs(): number {
    return this.lagUsNow;
  }

  /** A controller clock that reads simulated time (µs since power-on): host stamps on the board's time line. */
  simClock(): { nowUs(): number; wallMs(): number } {
    return { nowUs: () => Math.floor(this.runner.nowUs), wallMs: () => Date.now() };
  }

  /** Resets the MCU now (RESET pin / DTR pulse). */
  reset(holdUs = 0): void {
    this.resetsUs.push(this.nowUs);
    this.runner.reset(holdUs);
  }

  /**
   * Free-running: simulated time follows the host clock × `speed` until `stop()`. If the host cannot keep
   * up, simulated time falls behind (`lagUs`); it never skips.
   */
  start(speed = 1): void {
    if (this.freeRun) return;
    const hostStart = performance.now();
    const simStart = this.nowUs;
    const maxStepUs = STEP_US;
    const state = { stop: false, done: Promise.resolve() };
    state.done = (async () => {
      while (!state.stop) {
        const now = this.nowUs;
        const target = simStart + (performance.now() - hostStart) * 1000 * speed;
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

  /** Waits (host time, the board free-running) until `predicate` holds; false after `timeoutMs`. */
  async waitFor(predicate: () => boolean, timeoutMs = 10_000): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    while (!predicate()) {
      if (performance.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 2));
    }
    return true;
  }

  /** Waits until simulated time has reached `simUs`. */
  async waitUntilSim(simUs: number, timeoutMs = 30_000): Promise<void> {
    if (!(await this.waitFor(() => this.nowUs >= simUs, timeoutMs))) throw new Error(`simulated time did not reach ${simUs} µs`);
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
    const usart = this.mcu?.usart;
    return usart?.txEnable === true ? usart.baudRate : undefined;
  }

  dtrAsserted(): void {
    if (this.resetOnOpen) this.reset(this.bootloaderUs);
  }

  portClosed(): void {
    // DTR released does not reset an Uno. Bytes the host had handed over are still delivered.
  }

  // ------------------------------------------------------------------------------------------ wiring

  private attach(mcu: Mcu): void {
    this.mcu = mcu;
    this.rxQueue = [];
    this.rxInFlight = undefined;
    mcu.usart.onByteTransmit = (byte) => {
      if (mcu !== this.mcu) return;
      // The host has the byte once its stop bit is out: an avr8js clock event fires at that exact cycle.
      // (A runner world event scheduled from inside an instruction, as this hook runs, would fire only at
      // the end of the running slice, up to a slice late.) The host code then runs when the current
      // free-running step ends, at most STEP_US later in simulated time.
      mcu.cpu.addClockEvent(() => {
        if (mcu !== this.mcu) return;
        this.sent.push({ byte, atUs: this.nowUs });
        if (this.transmitListeners.size === 0) return;
        const bytes = Uint8Array.of(byte);
        for (const listener of this.transmitListeners) listener(bytes);
        this.runner.requestBreak();
      }, Math.round((10 * CPU_HZ) / mcu.usart.baudRate)); // 8N1: 10 bits a byte
    };
    mcu.usart.onRxComplete = () => {
      if (this.rxInFlight !== undefined) this.received.push({ byte: this.rxInFlight, atUs: this.nowUs });
      this.rxInFlight = undefined;
      this.feedReceiver();
    };
  }

  private feedReceiver(): void {
    const usart = this.mcu?.usart;
    if (!usart) return;
    while (this.rxQueue.length > 0 && !usart.rxBusy) {
      const byte = this.rxQueue.shift() ?? 0;
      if (usart.writeByte(byte) === true) this.rxInFlight = byte;
      else this.rxDropped++; // receiver off: the byte is lost
    }
  }
}

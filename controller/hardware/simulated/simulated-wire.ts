/**
 * The USB-serial link between the controller and a simulated station, with the delays a real one has
 * (bench/sim/simulated-link.ts describes them in detail): the bytes' time on the 115200-baud wire in
 * both directions, the USB frame a host write waits for, and the USB-serial chip's flush timer on the way
 * back. The waits are drawn from a seeded generator, so runs repeat exactly and the clock sync sees the
 * spread of delays its bound is built from. Bytes arrive in the order they were sent.
 */
import { SeededRandom } from '../../kernel/random.ts';
import type { Clock } from '../interface.ts';
import { TimerSet, type Scheduler } from '../serial/timers.ts';

/** Delays of the simulated link. */
export interface WireTiming {
  /** Serial rate; a byte takes 10 bits. Default 115200. */
  readonly baud: number;
  /** USB full-speed frame: a host write waits up to this long, µs. Default 1000. */
  readonly usbFrameUs: number;
  /** The USB-serial chip hands received bytes to the host up to this long after they arrive, µs. Default 1000. */
  readonly flushUs: number;
  /**
   * A USB-serial chip's own model of the way to the host instead of `flushUs`: the delay (µs) from a write's
   * last byte reaching the chip at controller time `lastByteUs` to the host reading it, given uniform draws in
   * [0, 1) (a benchmark's FT232 latency timer, CH340, or a host event loop shared by every port). Bytes still
   * arrive in the order they were sent.
   */
  readonly toHostDelayUs?: (lastByteUs: number, random: () => number) => number;
}

export const DEFAULT_WIRE_TIMING: WireTiming = { baud: 115_200, usbFrameUs: 1000, flushUs: 1000 };

export interface SimulatedWireDeps {
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  readonly timing: WireTiming;
  readonly seed: string;
  /** Bytes reaching the station's UART. */
  readonly toDevice: (bytes: Buffer) => void;
  /** Bytes reaching the host's serial port. */
  readonly toHost: (bytes: Buffer) => void;
}

export class SimulatedWire {
  private readonly deps: SimulatedWireDeps;
  private readonly timers: TimerSet;
  private readonly random: SeededRandom;
  private lastToDeviceUs = 0;
  private lastToHostUs = 0;
  private dropLines = 0;
  private dropOnly: 'events' | 'any' = 'any';

  constructor(deps: SimulatedWireDeps) {
    this.deps = deps;
    this.timers = new TimerSet(deps.scheduler);
    this.random = new SeededRandom(deps.seed);
  }

  /** The host wrote `bytes`; they reach the station after the next USB frame and their wire time. */
  hostWrote(bytes: Buffer): void {
    const { usbFrameUs } = this.deps.timing;
    const arrival = this.deps.clock.nowUs() + this.random.uniform(0, usbFrameUs) + this.wireUs(bytes.length);
    const at = Math.max(this.lastToDeviceUs, arrival);
    this.lastToDeviceUs = at;
    this.schedule(at, () => {
      this.deps.toDevice(bytes);
    });
  }

  /**
   * The station wrote `bytes`; they reach the host after their wire time and the chip's flush. With
   * `chunkSizes`, they are handed over in pieces of those sizes (cycled), each a separate read on the host.
   */
  deviceWrote(bytes: string | Buffer, chunkSizes?: readonly number[]): void {
    const data = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes;
    const isLine = data.at(-1) === 0x0a;
    const isEvent = data[0] === 0x45 && data[1] === 0x20; // "E "
    if (this.dropLines > 0 && isLine && (this.dropOnly === 'any' || isEvent)) {
      this.dropLines--;
      return;
    }
    const { flushUs, toHostDelayUs } = this.deps.timing;
    const lastByteUs = this.deps.clock.nowUs() + this.wireUs(data.length);
    const delayUs = toHostDelayUs === undefined
      ? this.random.uniform(0, flushUs) : toHostDelayUs(lastByteUs, () => this.random.uniform(0, 1));
    const at = Math.max(this.lastToHostUs, lastByteUs + delayUs);
    this.lastToHostUs = at;
    const sizes = chunkSizes === undefined || chunkSizes.length === 0 ? [data.length] : chunkSizes;
    for (let start = 0, i = 0; start < data.length; i++) {
      const size = Math.max(1, sizes[i % sizes.length] ?? data.length);
      const chunk = data.subarray(start, start + size);
      start += size;
      this.schedule(at, () => {
        this.deps.toHost(chunk);
      });
    }
  }

  /** The next `n` lines (or only event lines) the station writes are lost on the way. */
  dropNextLines(n: number, only: 'events' | 'any'): void {
    this.dropLines = n;
    this.dropOnly = only;
  }

  /** Forgets everything in transit (the cable was pulled). */
  clear(): void {
    this.timers.clear();
    this.dropLines = 0;
  }

  private wireUs(bytes: number): number {
    return (bytes * 10 * 1e6) / this.deps.timing.baud;
  }

  private schedule(atUs: number, deliver: () => void): void {
    this.timers.after((atUs - this.deps.clock.nowUs()) / 1000, deliver);
  }
}

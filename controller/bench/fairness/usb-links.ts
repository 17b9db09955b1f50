/**
 * The fairness benchmark's link models: how long a station's line takes from its last byte on the serial wire
 * to the controller's code, per USB-serial chip, plus the host's one event loop that serves every port (a
 * busy spell or a stall delays the lines of every station alike). Each is a `toHostDelayUs` for the simulated
 * stations' wires (hardware/simulated/simulated-wire.ts): the stations, the real serial driver and the table
 * run unchanged; only the delays differ.
 *
 * - `realistic`: an ATmega16U2 (Uno/Nano R3) flushing within 1 ms, the 1 ms USB frame, one event loop with
 *   the busy spells and stalls of the timing benchmark's realistic link (bench/sim/simulated-link.ts).
 * - `pessimistic`: the timing benchmark's pessimistic link: exp(2 ms) per line and 0.5 % stalls up to 40 ms,
 *   independent per line and station.
 * - `ft232-16ms` / `ft232-1ms`: an FTDI FT232R (Nano clones) holds received bytes until its 62-byte buffer fills
 *   or its **latency timer** expires: 16 ms by default on Linux, 1 ms with the udev rule in hardware/pi/99-zaptable.rules. A
 *   short line waits for the timer: uniform in [0, timer). Then the USB frame and the shared event loop.
 * - `ch340`: a WCH CH340 (the cheapest Nano clones). Not measured here: modelled as a hand-over within 0–3 ms
 *   (its receive timeout at 115200 baud plus the bulk poll) and 1 % of reads that miss a poll and wait up to
 *   8 ms more. Replace with a measurement when one exists.
 */
import { REALISTIC_LINK, type CommonModeDelivery } from '../sim/simulated-link.ts';

export type FairnessLinkName = 'realistic' | 'pessimistic' | 'ft232-16ms' | 'ft232-1ms' | 'ch340';

export const FAIRNESS_LINKS: readonly FairnessLinkName[] = ['realistic', 'pessimistic', 'ft232-16ms', 'ft232-1ms', 'ch340'];

/** A chip's delay after the line's last byte, before the host loop: µs, from uniform draws. */
type ChipDelay = (random: () => number) => number;

const USB_FRAME_US = 1000;

const exponential = (random: () => number, meanUs: number): number => -meanUs * Math.log(1 - random());

const CHIPS: Readonly<Record<FairnessLinkName, ChipDelay>> = {
  realistic: (r) => r() * 1000 + r() * USB_FRAME_US,
  pessimistic: (r) => r() * 1000 + exponential(r, 2000) + (r() < 0.005 ? r() * 40_000 : 0),
  'ft232-16ms': (r) => r() * 16_000 + r() * USB_FRAME_US,
  'ft232-1ms': (r) => r() * 1000 + r() * USB_FRAME_US,
  ch340: (r) => r() * 3000 + (r() < 0.01 ? r() * 8000 : 0) + r() * USB_FRAME_US,
};

/**
 * The host's one event loop: busy spells (Poisson, exponential lengths) and stalls (Poisson, uniform up to a
 * maximum), generated lazily as time goes on, so a long run holds only the spell in progress. A line ready at
 * `t` is read when the loop is free, plus a small per-port jitter.
 */
export class HostLoop {
  private spellEndUs = -Infinity;
  private nextSpellUs: number;
  private nextStallUs: number;

  constructor(private readonly model: CommonModeDelivery, private readonly random: () => number, startUs: number) {
    this.nextSpellUs = startUs + exponential(random, 1e6 / model.busySpellsPerS);
    this.nextStallUs = startUs + exponential(random, 1e6 / model.stallsPerS);
  }

  /** When a line that is ready at `readyUs` reaches the controller's code. */
  readAt(readyUs: number): number {
    const m = this.model;
    // Every spell or stall that began by `readyUs` (in order) may still hold the loop.
    for (;;) {
      const next = Math.min(this.nextSpellUs, this.nextStallUs);
      if (next > readyUs) break;
      const isStall = this.nextStallUs <= this.nextSpellUs;
      const length = isStall ? this.random() * m.stallMaxUs : exponential(this.random, m.busyMeanUs);
      this.spellEndUs = Math.max(this.spellEndUs, next + length);
      if (isStall) this.nextStallUs = next + exponential(this.random, 1e6 / m.stallsPerS);
      else this.nextSpellUs = next + exponential(this.random, 1e6 / m.busySpellsPerS);
    }
    const jitter = exponential(this.random, m.perPortJitterMeanUs);
    const service = m.serviceUs[0] + this.random() * (m.serviceUs[1] - m.serviceUs[0]);
    return Math.max(readyUs + jitter, this.spellEndUs) + service;
  }
}

/**
 * The `toHostDelayUs` of every station's wire for `link`. Stations share `loop` (one event loop for every
 * port) except on the pessimistic link, whose delays are independent by definition.
 */
export function toHostDelayOf(link: FairnessLinkName, loop: HostLoop): (lastByteUs: number, random: () => number) => number {
  const chip = CHIPS[link];
  if (link === 'pessimistic') return (_t, random) => chip(random);
  return (lastByteUs, random) => loop.readAt(lastByteUs + chip(random)) - lastByteUs;
}

/** The realistic link's host loop figures (shared with the timing benchmark). */
export const HOST_LOOP_MODEL = REALISTIC_LINK.host as CommonModeDelivery;

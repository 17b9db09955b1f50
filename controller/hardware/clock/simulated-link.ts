/**
 * A simulated USB-serial link between the controller and a station (Uno/Nano class: ATmega16U2 or CH340 at
 * 115200 baud), for the benchmark and tests. Every delay here is one the real path has; the figures are
 * defaults chosen on the pessimistic side of what such links show.
 *
 * host → station: `write()` → USB OUT in the next 1 ms full-speed frame → bytes on the wire at 10 bits each
 *   → the station's loop() picks the complete line up (usually within ~0.1 ms; a few % of the time it is
 *   busy with an RFID transaction for up to 6 ms).
 * station → host: bytes on the wire (in order, one line after the other) → the USB-serial chip hands its
 *   buffer to the host on its own flush timer (the 16U2's firmware runs from its own crystal, so the wait is
 *   uniform and unrelated to the host's frames) → driver and Node's event loop: an exponential delay of a
 *   few ms, and now and then a stall of tens of ms.
 *   Lines of one station arrive in the order they were sent.
 */
import type { SeededRandom } from './seeded-random.ts';

export interface LinkModel {
  /** Serial rate, bits/s; a byte is 10 bits (start, 8 data, stop). */
  readonly baud: number;
  /** USB full-speed frame, µs. */
  readonly usbFrameUs: number;
  /** Flush period of the USB-serial chip towards the host, µs (the wait is uniform in [0, this)). */
  readonly usbFlushUs: number;
  /** Mean host-side delay from `write()` to the USB stack (exponential), µs. */
  readonly hostWriteMeanUs: number;
  /** Mean delay until the station's loop() handles a complete line (exponential), µs. */
  readonly deviceLoopMeanUs: number;
  /** Chance that loop() is busy (an RFID transaction) when a line completes. */
  readonly deviceBusyChance: number;
  /** Longest busy spell, µs (uniform from 0). */
  readonly deviceBusyMaxUs: number;
  /** Mean delay from the USB IN frame to the line reaching the controller's code (exponential), µs. */
  readonly hostDeliveryMeanUs: number;
  /** Chance of a stall (garbage collection, a busy event loop, a USB hub) on a delivery. */
  readonly stallChance: number;
  /** Longest stall, µs (uniform from 0). */
  readonly stallMaxUs: number;
}

export const DEFAULT_LINK: LinkModel = {
  baud: 115_200,
  usbFrameUs: 1000,
  usbFlushUs: 1000,
  hostWriteMeanUs: 100,
  deviceLoopMeanUs: 100,
  deviceBusyChance: 0.05,
  deviceBusyMaxUs: 6000,
  hostDeliveryMeanUs: 2000,
  stallChance: 0.005,
  stallMaxUs: 40_000,
};

/** Time (µs) a line of `bytes` bytes (newline included) takes on the wire: the least one-way latency. */
export function wireTimeUs(link: LinkModel, bytes: number): number {
  return (bytes * 10 * 1e6) / link.baud;
}

/** The first USB frame start at or after `t`, for a bus whose frames start at `phaseUs` (mod the frame). */
export function nextFrameUs(link: LinkModel, t: number, phaseUs: number): number {
  return phaseUs + Math.ceil((t - phaseUs) / link.usbFrameUs) * link.usbFrameUs;
}

/** Host time at which the station has a complete line that the host started writing at `sendUs`. */
export function outboundArrivalUs(rng: SeededRandom, link: LinkModel, sendUs: number, bytes: number, phaseUs: number): number {
  return nextFrameUs(link, sendUs + rng.exponential(link.hostWriteMeanUs), phaseUs) + wireTimeUs(link, bytes);
}

/** How long the station's loop() takes to get to a line or a queued event, µs. */
export function loopDelayUs(rng: SeededRandom, link: LinkModel): number {
  const busy = rng.chance(link.deviceBusyChance) ? rng.uniform(0, link.deviceBusyMaxUs) : 0;
  return busy + rng.exponential(link.deviceLoopMeanUs);
}

/** Delay from a line's last byte leaving the station to the line reaching the controller's code, µs. */
export function inboundDelayUs(rng: SeededRandom, link: LinkModel): number {
  const stall = rng.chance(link.stallChance) ? rng.uniform(0, link.stallMaxUs) : 0;
  return rng.uniform(0, link.usbFlushUs) + stall + rng.exponential(link.hostDeliveryMeanUs);
}

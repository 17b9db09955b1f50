/**
 * A simulated USB-serial link between the controller and a station (Uno/Nano class: ATmega16U2 or CH340 at
 * 115200 baud), for the benchmark and tests. Every delay here is one the real path has.
 *
 * host → station: `write()` → USB OUT in the next 1 ms full-speed frame → bytes on the wire at 10 bits each
 *   → the station's loop() picks the complete line up when it finishes its current step (the firmware's
 *   model, timing-bench/seat-firmware.ts, says how long that is).
 * station → host: bytes on the wire (in order, one line after the other) → the USB-serial chip hands its
 *   buffer to the host on its own flush timer (the 16U2's firmware runs from its own crystal, so the wait is
 *   uniform and unrelated to the host's frames) → the host's side, in one of two models (`HostDeliveryModel`):
 *   - `independent` (the **pessimistic** link): every line gets its own exponential delay of a few ms and now
 *     and then a stall of tens of ms, drawn independently per line and per station. Real hosts do not do
 *     this: one event loop serves every port, so a stall delays every station's lines alike.
 *   - `common-mode` (the **realistic** link): the USB host controller polls every device in the same 1 ms
 *     frames; the kernel hands a line on after a small per-port jitter; then **one** event loop (Node's)
 *     handles every port's lines one at a time, and while it is busy (garbage collection, other work, a
 *     stall) lines of every station wait and are then handled in a batch, port by port.
 *   Lines of one station arrive in the order they were sent, in both models.
 */
import type { SeededRandom } from '../../kernel/random.ts';

/** The serial wire and USB parts, shared by both host models. */
export interface SerialLinkModel {
  /** Serial rate, bits/s; a byte is 10 bits (start, 8 data, stop). */
  readonly baud: number;
  /** USB full-speed frame, µs. */
  readonly usbFrameUs: number;
  /** Flush period of the USB-serial chip towards the host, µs (the wait is uniform in [0, this)). */
  readonly usbFlushUs: number;
  /** Mean host-side delay from `write()` to the USB stack (exponential), µs. */
  readonly hostWriteMeanUs: number;
}

/** Per line and per station, independent: today's pessimistic model. */
export interface IndependentDelivery {
  readonly kind: 'independent';
  /** Mean delay from the chip's flush to the line reaching the controller's code (exponential), µs. */
  readonly meanUs: number;
  /** Chance of a stall on a delivery. */
  readonly stallChance: number;
  /** Longest stall, µs (uniform from 0). */
  readonly stallMaxUs: number;
}

/** One event loop and one USB host controller for every station. */
export interface CommonModeDelivery {
  readonly kind: 'common-mode';
  /** Mean delay from the USB frame to the port's data being readable (kernel tty; exponential), µs. */
  readonly perPortJitterMeanUs: number;
  /** Time the event loop spends on one line (reading, parsing, handing it on): uniform, µs. */
  readonly serviceUs: readonly [number, number];
  /** Busy spells of the event loop (other work, minor garbage collection): rate per second. */
  readonly busySpellsPerS: number;
  /** Mean length of a busy spell (exponential), µs. */
  readonly busyMeanUs: number;
  /** Stalls (a major collection, a WAL checkpoint, a slow synchronous call): rate per second. */
  readonly stallsPerS: number;
  /** Longest stall, µs (uniform from 0). */
  readonly stallMaxUs: number;
}

export type HostDeliveryModel = IndependentDelivery | CommonModeDelivery;

export type LinkName = 'realistic' | 'pessimistic';

export interface LinkModel {
  readonly name: LinkName;
  readonly serial: SerialLinkModel;
  readonly host: HostDeliveryModel;
}

const SERIAL: SerialLinkModel = { baud: 115_200, usbFrameUs: 1000, usbFlushUs: 1000, hostWriteMeanUs: 100 };

/**
 * Today's model, kept as the pessimistic bound: exp(2 ms) per line plus 0.5 % stalls up to 40 ms, drawn
 * independently for every line of every station.
 */
export const PESSIMISTIC_LINK: LinkModel = {
  name: 'pessimistic',
  serial: SERIAL,
  host: { kind: 'independent', meanUs: 2000, stallChance: 0.005, stallMaxUs: 40_000 },
};

/**
 * One event loop for every port. The figures follow `zaptable bench latency` on the 2-core development
 * machine (docs/performance.md): a line costs the pipeline ~0.1 ms; minor GC pauses of 2–8 ms happen under
 * load (a real table sends tens of lines per second: 10 spells a second of 1 ms on average is generous);
 * the WAL checkpoint and major collections stall the loop for 20–30 ms (here: one stall every 10 s, up to
 * 40 ms).
 */
export const REALISTIC_LINK: LinkModel = {
  name: 'realistic',
  serial: SERIAL,
  host: {
    kind: 'common-mode', perPortJitterMeanUs: 50, serviceUs: [30, 150],
    busySpellsPerS: 10, busyMeanUs: 1000, stallsPerS: 0.1, stallMaxUs: 40_000,
  },
};

/** Both link models, realistic first (the order the benchmark prints them in). */
export const LINK_MODELS: readonly LinkModel[] = [REALISTIC_LINK, PESSIMISTIC_LINK];

/** Time (µs) a line of `bytes` bytes (newline included) takes on the wire: the least one-way latency. */
export function wireTimeUs(link: SerialLinkModel, bytes: number): number {
  return (bytes * 10 * 1e6) / link.baud;
}

/** The first USB frame start at or after `t`, for a bus whose frames start at `phaseUs` (mod the frame). */
export function nextFrameUs(link: SerialLinkModel, t: number, phaseUs: number): number {
  return phaseUs + Math.ceil((t - phaseUs) / link.usbFrameUs) * link.usbFrameUs;
}

/** Host time at which the station has a complete line that the host started writing at `sendUs`. */
export function outboundArrivalUs(
  rng: SeededRandom, link: SerialLinkModel, sendUs: number, bytes: number, phaseUs: number,
): number {
  return nextFrameUs(link, sendUs + rng.exponential(link.hostWriteMeanUs), phaseUs) + wireTimeUs(link, bytes);
}

/** When the USB-serial chip hands a line whose last byte left the station at `wireEndUs` to the USB, µs. */
export function flushedUs(rng: SeededRandom, link: SerialLinkModel, wireEndUs: number): number {
  return wireEndUs + rng.uniform(0, link.usbFlushUs);
}

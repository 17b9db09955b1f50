/**
 * The host side of the simulated links (simulated-link.ts): from a line's last byte leaving a device to the
 * moment the controller's code stamps it, for many ports at once — because in the realistic model they share
 * one USB host controller and one event loop. Used by the timing benchmark (seat stations) and the buzzer
 * fairness benchmark (hub buttons), so both see the same host.
 */
import type { SeededRandom } from '../../kernel/random.ts';
import {
  flushedUs, nextFrameUs, type CommonModeDelivery, type IndependentDelivery, type LinkModel,
} from './simulated-link.ts';

/**
 * Lines on their way to the host, one entry per line: `port` (station, hub) it travels on — lines of one port
 * arrive in the order given — and `wireEndUs`, when its last byte left the device (with `flushed`: when the
 * device's USB bridge handed it on), µs.
 */
export interface OutboundLines {
  readonly port: ArrayLike<number>;
  readonly wireEndUs: ArrayLike<number>;
}

/** Spells in which the event loop runs something else, sorted and disjoint: `[start, end)` pairs, µs. */
export type BusySpells = Float64Array;

/** The event loop's busy spells (other work, garbage collection) and stalls over `[0, endUs)`. */
export function planBusySpells(rng: SeededRandom, host: CommonModeDelivery, endUs: number): BusySpells {
  const spells: [number, number][] = [];
  const add = (perS: number, length: () => number): void => {
    if (perS <= 0) return;
    for (let t = rng.exponential(1e6 / perS); t < endUs; t += rng.exponential(1e6 / perS)) spells.push([t, t + length()]);
  };
  add(host.busySpellsPerS, () => rng.exponential(host.busyMeanUs));
  add(host.stallsPerS, () => rng.uniform(0, host.stallMaxUs));
  spells.sort((a, b) => a[0] - b[0]);
  const merged: number[] = [];
  for (const [s, e] of spells) {
    const last = merged.length - 1;
    if (last > 0 && s <= (merged[last] as number)) merged[last] = Math.max(merged[last] as number, e);
    else merged.push(s, e);
  }
  return Float64Array.from(merged);
}

/**
 * Time the independent model gives each line of a chunk that arrived at once (the parser hands them on one
 * after the other), so that lines of one port never share an arrival time (µs).
 */
const LINE_HANDLING_US = 5;

export interface DeliveryOptions {
  /** The phase of the host's USB frames (µs, common to every port). */
  readonly framePhaseUs: number;
  /** The event loop's spells (common-mode model); planned from `rng` over the lines' span when absent. */
  readonly spells?: BusySpells;
  /** `wireEndUs` is already past the device's USB bridge (the hub models its own 16U2 flush grid). */
  readonly flushed?: boolean;
}

/**
 * Host arrival (stamp) time of every line, same index as `lines`. Lines of one port keep their order.
 */
export function deliverToHost(rng: SeededRandom, link: LinkModel, lines: OutboundLines, options: DeliveryOptions): Float64Array {
  return link.host.kind === 'independent'
    ? deliverIndependent(rng, link, link.host, lines, options)
    : deliverCommonMode(rng, link, link.host, lines, options);
}

function deliverIndependent(
  rng: SeededRandom, link: LinkModel, host: IndependentDelivery, lines: OutboundLines, options: DeliveryOptions,
): Float64Array {
  const n = lines.port.length;
  const arrivals = new Float64Array(n);
  const last = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const port = lines.port[i] as number;
    const end = lines.wireEndUs[i] as number;
    const flushed = options.flushed === true ? end : flushedUs(rng, link.serial, end);
    const stall = rng.chance(host.stallChance) ? rng.uniform(0, host.stallMaxUs) : 0;
    // A stall holds up everything behind it on the port; lines delivered together are handled one by one.
    const at = Math.max((last.get(port) ?? -Infinity) + LINE_HANDLING_US, flushed + stall + rng.exponential(host.meanUs));
    last.set(port, at);
    arrivals[i] = at;
  }
  return arrivals;
}

function deliverCommonMode(
  rng: SeededRandom, link: LinkModel, host: CommonModeDelivery, lines: OutboundLines, options: DeliveryOptions,
): Float64Array {
  const n = lines.port.length;
  // 1. USB: the bridge's flush, then the host controller's next frame (one frame clock for every device),
  //    then the kernel's per-port jitter; in order per port.
  const ready = new Float64Array(n);
  const lastReady = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const port = lines.port[i] as number;
    const end = lines.wireEndUs[i] as number;
    const flushed = options.flushed === true ? end : flushedUs(rng, link.serial, end);
    const at = Math.max(
      lastReady.get(port) ?? -Infinity,
      nextFrameUs(link.serial, flushed, options.framePhaseUs) + rng.exponential(host.perPortJitterMeanUs),
    );
    lastReady.set(port, at);
    ready[i] = at;
  }
  // 2. One event loop: it takes what is readable when it gets round to it, port by port, one line at a time.
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => (ready[a] as number) - (ready[b] as number) || a - b);
  const end = n === 0 ? 0 : (ready[order[n - 1] as number] as number) + 1e6;
  const spells = options.spells ?? planBusySpells(rng, host, end);
  const arrivals = new Float64Array(n);
  let spell = 0;
  const wake = (t: number): number => {
    while (spell < spells.length && (spells[spell + 1] as number) <= t) spell += 2;
    return spell < spells.length && (spells[spell] as number) <= t ? (spells[spell + 1] as number) : t;
  };
  let free = -Infinity;
  for (let i = 0; i < n;) {
    let w = wake(Math.max(ready[order[i] as number] as number, free));
    let j = i;
    while (j < n && (ready[order[j] as number] as number) <= w) j++;
    const byPort = (a: number, b: number): number => (lines.port[a] as number) - (lines.port[b] as number) || a - b;
    const batch = j - i === 1 ? order.subarray(i, j) : order.slice(i, j).sort(byPort);
    for (const k of batch) {
      arrivals[k] = w;
      w += rng.uniform(host.serviceUs[0], host.serviceUs[1]);
    }
    free = w;
    i = j;
  }
  return arrivals;
}

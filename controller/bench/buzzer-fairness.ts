/**
 * The fairness half of `zaptable bench buzzer`: for press pairs at known separations, the share put in the
 * right order by the buzzer ranking (`rankPresses`, i.e. `arbitrate()`) — correct / tie / wrong — beside
 * host arrival order.
 *
 * - Seat-station buzzers: the timing benchmark's simulated stations (hardware/clock/timing-bench.ts: drifting
 *   resonators, USB-serial links with jitter and stalls, restarts), button pairs across two stations.
 * - Hub buzzers: two buttons of one johnny-five hub. The model follows docs/buzzer-hub.md: StandardFirmata
 *   scans its inputs once per loop (period drawn 50–500 µs), reports leave in FIFO order through the 57600-baud
 *   TX buffer, the USB-serial bridge flushes every 4096 µs, USB polls every 1 ms, the host adds 0–2 ms per
 *   delivery. Both reports share that one path, so arrival order is the scan order: right unless both presses
 *   fall into one loop (then pin order decides). Each report is stamped exactly as the hub does
 *   (`hostEventTime` with `latencyBounds`, counting a report queued ahead), then ranked.
 * Deterministic for a seed; no I/O.
 */
import { SeededRandom } from '../hardware/clock/seeded-random.ts';
import { runTimingBench } from '../hardware/clock/timing-bench.ts';
import { PESSIMISTIC_LINK } from '../hardware/clock/simulated-link.ts';
import {
  DEFAULT_FIRMATA_LATENCY, backlogWindowUs, hostEventTime, latencyBounds, reportTransferUs,
} from '../hardware/buzzer-hub/host-timestamp.ts';
import { rankPresses, type AcceptedPress, type PressTime } from '../buzzer/index.ts';

export interface FairnessCell {
  readonly separationUs: number;
  readonly pairs: number;
  readonly ours: { readonly correct: number; readonly tie: number; readonly wrong: number };
  readonly arrival: { readonly correct: number; readonly wrong: number };
}

export interface FairnessFigures {
  readonly seat: readonly FairnessCell[];
  readonly hub: readonly FairnessCell[];
  /** Hub presses whose true time lay within the stated interval (the model's own check). */
  readonly hubWithinBound: number;
}

export const SEAT_SEPARATIONS_US = [20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000] as const;
export const HUB_SEPARATIONS_US = [100, 500, 1000, 2000, 5000, 8000, 10_000, 20_000, 50_000] as const;

function press(contestant: string, time: PressTime): AcceptedPress {
  return { contestant, entrant: contestant, station: contestant, time, arrivedUs: time.hostUs };
}

/** Ranks two presses (the first truly earlier): correct, tie or wrong. */
function judge(first: PressTime, second: PressTime): 'correct' | 'tie' | 'wrong' {
  const ranking = rankPresses([press('second', second), press('first', first)], { deviceResolutionUs: 4 });
  const top = ranking.first?.presses ?? [];
  if (top.length > 1) return 'tie';
  return top[0]?.contestant === 'first' ? 'correct' : 'wrong';
}

/** One hub pair: true press times → the host stamps and the arrival order. */
interface HubPair {
  readonly first: PressTime;
  readonly second: PressTime;
  readonly arrivalCorrect: boolean;
  /** How many of the two true times lay within their stated intervals. */
  readonly within: number;
}

function hubPair(rng: SeededRandom, separationUs: number): HubPair {
  const m = DEFAULT_FIRMATA_LATENCY;
  const t1 = 1_000_000 + rng.uniform(0, 100_000);
  const t2 = t1 + separationUs;
  const loopUs = rng.uniform(50, m.inputScanUs);
  const phase = rng.uniform(0, loopUs);
  const scan = (t: number): number => phase + Math.ceil((t - phase) / loopUs) * loopUs;
  const s1 = scan(t1);
  const s2 = scan(t2);
  // Same scan: reported in pin order; the test's button 2 (pressed second) has the lower pin half the time.
  const secondFirst = s1 === s2 ? rng.chance(0.5) : false;
  const transfer = reportTransferUs(m);
  const [d1, d2] = secondFirst ? [s2 + transfer * 2, s2 + transfer] : [s1 + transfer, Math.max(s2, s1 + transfer) + transfer];
  const flushPhase = rng.uniform(0, m.bridgeFlushUs);
  const flush = (t: number): number => flushPhase + Math.ceil((t - flushPhase) / m.bridgeFlushUs) * m.bridgeFlushUs;
  const framePhase = rng.uniform(0, m.usbFrameUs);
  const frame = (t: number): number => framePhase + Math.ceil((t - framePhase) / m.usbFrameUs) * m.usbFrameUs;
  const deliver = (t: number): number => t + rng.uniform(0, m.eventLoopUs);
  const a1 = deliver(frame(flush(d1)));
  const a2raw = deliver(frame(flush(d2)));
  // FIFO: a later report never overtakes an earlier one on the one stream.
  const [arr1, arr2] = secondFirst ? [Math.max(a1, a2raw), a2raw] : [a1, Math.max(a1, a2raw)];
  const window = backlogWindowUs(m);
  const queued = (self: number, other: number): number => (other <= self && self - other <= window ? 1 : 0);
  const first = hostEventTime(arr1, latencyBounds(m, queued(arr1, arr2)));
  const second = hostEventTime(arr2, latencyBounds(m, queued(arr2, arr1)));
  const inside = (t: PressTime, truth: number): number => (Math.abs(t.hostUs - truth) <= t.uncertaintyUs ? 1 : 0);
  const within = inside(first, t1) + inside(second, t2);
  return { first, second, arrivalCorrect: arr1 < arr2 || (arr1 === arr2 && !secondFirst), within };
}

function hubCells(pairs: number, seed: string): { cells: FairnessCell[]; within: number } {
  const rng = new SeededRandom(`buzzer-hub:${seed}`);
  let within = 0;
  const cells = HUB_SEPARATIONS_US.map((separationUs) => {
    const ours = { correct: 0, tie: 0, wrong: 0 };
    const arrival = { correct: 0, wrong: 0 };
    for (let i = 0; i < pairs; i++) {
      const p = hubPair(rng, separationUs);
      ours[judge(p.first, p.second)]++;
      arrival[p.arrivalCorrect ? 'correct' : 'wrong']++;
      within += p.within;
    }
    return { separationUs, pairs, ours, arrival };
  });
  return { cells, within: within / (2 * pairs * HUB_SEPARATIONS_US.length) };
}

/** Both tables. `onProgress` gets a line now and then (the seat simulation takes a few seconds). */
export function runBuzzerFairness(
  pairs: number, seed: string, onProgress: (text: string) => void = () => undefined,
): FairnessFigures {
  const timing = runTimingBench({ pairs, seed, stations: 4, kinds: ['button-button'], links: [PESSIMISTIC_LINK] }, onProgress);
  const seat = (timing.links[0]?.cells ?? []).map((c) => ({
    separationUs: c.separationUs, pairs: c.pairs,
    ours: c.ours, arrival: c.arrival,
  }));
  const hub = hubCells(pairs, seed);
  return { seat, hub: hub.cells, hubWithinBound: hub.within };
}

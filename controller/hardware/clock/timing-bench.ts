/**
 * The timing benchmark behind `zaptable bench timing`: a simulated table of stations with drifting
 * resonators, noisy USB links and random restarts; pairs of presses at known separations; the share of
 * pairs put in the right order by our arbitration and by host arrival order; and the error of the clock
 * mapping against the simulation's true time. Deterministic for a seed; no I/O.
 *
 * The controller side is the real code: StationClock (unwrap, restart detection, clock sync) fed in host
 * arrival order, and arbitrate(). Only the physical world is simulated (simulated-clock.ts, simulated-link.ts).
 */
import { arbitrate, type TimedEvent } from './arbitration.ts';
import { SeededRandom } from './seeded-random.ts';
import {
  bootAt, planBoots, randomResonator, simulatedMicros,
  type ResonatorModel, type SimulatedBoot,
} from './simulated-clock.ts';
import {
  DEFAULT_LINK, inboundDelayUs, loopDelayUs, outboundArrivalUs, wireTimeUs, type LinkModel,
} from './simulated-link.ts';
import { StationClock, type StampedTime } from './station-clock.ts';

/** Press separations measured, µs. */
export const BENCH_SEPARATIONS_US: readonly number[] = [20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000];

export type PairKind = 'same-station' | 'cross-station';

export interface TimingBenchOptions {
  /** Pairs per cell (separation × kind). */
  readonly pairs: number;
  readonly seed: string;
  /** Simulated stations (≥ 2). Default 4. */
  readonly stations?: number;
  /** Mean time between restarts of one station, µs. Default 20 min. */
  readonly meanRestartIntervalUs?: number;
  /** Ping period per station in steady state, µs. Default 100 ms. */
  readonly pingIntervalUs?: number;
  /** Whether a restarted station prints its banner (default true); without, restarts are found by time. */
  readonly banners?: boolean;
  readonly link?: LinkModel;
}

/** Outcome counts of one cell. Ties are neither correct nor wrong. */
export interface CellFigures {
  readonly separationUs: number;
  readonly kind: PairKind;
  /** Pairs evaluated (both presses reached the controller). */
  readonly pairs: number;
  /** Pairs with a press lost to a restart (not evaluated). */
  readonly lost: number;
  readonly arbitration: { readonly correct: number; readonly tie: number; readonly wrong: number };
  readonly arrival: { readonly correct: number; readonly wrong: number };
}

export interface MappingFigures {
  /** Events mapped with a synced clock. */
  readonly events: number;
  /** Events of a boot without a sync sample yet (infinite uncertainty: they can only tie). */
  readonly unsynced: number;
  /** |mapped − true| percentiles and maximum, µs. */
  readonly p50Us: number;
  readonly p99Us: number;
  readonly maxUs: number;
  /** Share of events whose true time lies within ± the reported uncertainty. */
  readonly withinBound: number;
  /** Reported uncertainty percentiles, µs. */
  readonly uncertaintyP50Us: number;
  readonly uncertaintyP99Us: number;
}

export interface GoalFigures {
  readonly goal: string;
  readonly value: string;
  readonly met: boolean;
}

export interface TimingBenchFigures {
  readonly seed: string;
  readonly pairsPerCell: number;
  readonly stations: number;
  readonly simulatedHours: number;
  /** Restarts simulated, and those the controller noticed (by banner or by time). */
  readonly restarts: number;
  readonly restartsDetected: number;
  /** `micros()` wraps that happened during the run. */
  readonly wraps: number;
  readonly syncSamples: number;
  readonly cells: readonly CellFigures[];
  readonly mapping: MappingFigures;
  readonly goals: readonly GoalFigures[];
}

// Line lengths of the protocol (newline included), for wire times.
const digits = (n: number): number => String(n).length;
const pingBytes = (id: number): number => digits(id) + 9; // `<id> ping*XX\n`
const pongBytes = (id: number, raw: number): number => digits(id) + digits(raw) + 10; // `ok <id> t=<raw>*XX\n`
const BUTTON_BYTES = 25; // `E <seq> <t> BTN+*XX\n`
const TAG_BYTES = 40; // `E <seq> <t> TAG+ <7-byte uid>*XX\n`
const BANNER_BYTES = 48;

interface EventRecord {
  readonly station: number;
  readonly trueUs: number;
  stamped?: StampedTime;
  arrival?: number;
}

interface PairRecord {
  readonly separationUs: number;
  readonly kind: PairKind;
  /** The truly earlier press first. */
  readonly events: readonly [EventRecord, EventRecord];
}

type Line =
  | { readonly kind: 'banner'; readonly readyUs: number; readonly bytes: number; readonly boot: SimulatedBoot }
  | { readonly kind: 'pong'; readonly readyUs: number; readonly bytes: number; readonly boot: SimulatedBoot;
    readonly hostSendUs: number; readonly raw: number; readonly outboundMinUs: number; }
  | { readonly kind: 'event'; readonly readyUs: number; readonly bytes: number; readonly boot: SimulatedBoot;
    readonly raw: number; readonly record: EventRecord; };

interface Arrival {
  readonly line: Line;
  readonly station: number;
  readonly hostUs: number;
  readonly order: number;
}

interface StationSim {
  readonly resonator: ResonatorModel;
  readonly boots: readonly SimulatedBoot[];
  readonly framePhaseUs: number;
  readonly lines: Line[];
}

const WARM_UP_US = 3_000_000;
const PAIR_SPACING_US = 250_000;

function planPings(rng: SeededRandom, link: LinkModel, st: StationSim, endUs: number, intervalUs: number): void {
  let id = rng.int(1000);
  for (const boot of st.boots) {
    // After a banner (or at start) the controller pings in a quick burst, then settles to the steady period.
    let t = boot.upUs + (boot.banner ? 20_000 : rng.uniform(0, 10_000));
    for (let n = 0; t < Math.min(boot.downUs, endUs); n++) {
      id = (id + 1) % 65536;
      const arrived = outboundArrivalUs(rng, link, t, pingBytes(id), st.framePhaseUs);
      const stampUs = arrived + loopDelayUs(rng, link);
      if (stampUs < boot.downUs) {
        const raw = simulatedMicros(st.resonator, boot, stampUs);
        st.lines.push({
          kind: 'pong', readyUs: stampUs, bytes: pongBytes(id, raw), boot, hostSendUs: t, raw,
          outboundMinUs: wireTimeUs(link, pingBytes(id)),
        });
      }
      t += n < 10 ? 20_000 : intervalUs * rng.uniform(0.9, 1.1);
    }
    if (boot.banner) st.lines.push({ kind: 'banner', readyUs: boot.upUs + 1000, bytes: BANNER_BYTES, boot });
  }
}

/** Adds a press at true host time `trueUs`; returns undefined when the station is down then. */
function press(rng: SeededRandom, link: LinkModel, st: StationSim, station: number, trueUs: number,
  kind: 'button' | 'tag'): EventRecord | undefined {
  const boot = bootAt(st.boots, trueUs);
  if (boot === undefined) return undefined;
  // The ISR reads micros() 3–6 µs after the edge (interrupt entry, pin-change decoding).
  const raw = simulatedMicros(st.resonator, boot, trueUs + rng.uniform(3, 6));
  // A button is reported once it has been quiet for 5 ms after its 1–3 ms of contact bounce (button.h); a
  // tag is stamped when the card answers and reported after its UID has been read (3–8 ms).
  const reportUs = kind === 'button' ? rng.uniform(1000, 3000) + 5000 : rng.uniform(3000, 8000);
  const record: EventRecord = { station, trueUs };
  st.lines.push({
    kind: 'event', readyUs: trueUs + reportUs + loopDelayUs(rng, link), bytes: kind === 'button' ? BUTTON_BYTES : TAG_BYTES,
    boot, raw, record,
  });
  return record;
}

/** Sends every station's lines through its serial wire and USB link; returns arrivals in host order. */
function deliver(rng: SeededRandom, link: LinkModel, stations: readonly StationSim[]): Arrival[] {
  const arrivals: Omit<Arrival, 'order'>[] = [];
  stations.forEach((st, station) => {
    st.lines.sort((a, b) => a.readyUs - b.readyUs);
    let txFree = -Infinity;
    let lastArrival = -Infinity;
    let txBoot: SimulatedBoot | undefined;
    for (const line of st.lines) {
      if (line.boot !== txBoot) {
        txBoot = line.boot;
        txFree = line.boot.upUs;
      }
      const start = Math.max(line.readyUs, txFree);
      const end = start + wireTimeUs(link, line.bytes);
      txFree = end;
      if (end > line.boot.downUs) continue; // cut off by the reset
      // Lines of one station reach the controller in order; a stall holds up everything behind it.
      lastArrival = Math.max(lastArrival, end + inboundDelayUs(rng, link));
      arrivals.push({ line, station, hostUs: lastArrival });
    }
  });
  return arrivals
    .map((a, i) => ({ ...a, i }))
    .sort((a, b) => a.hostUs - b.hostUs || a.station - b.station || a.i - b.i)
    .map((a, order) => ({ line: a.line, station: a.station, hostUs: a.hostUs, order }));
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

function countWraps(st: StationSim, endUs: number): number {
  let wraps = 0;
  for (const boot of st.boots) {
    const until = Math.min(boot.downUs, endUs);
    const span = (until - boot.upUs) * (1 + st.resonator.skew);
    wraps += Math.floor((boot.microsAtUp + span) / 2 ** 32);
  }
  return wraps;
}

function evaluate(pairs: readonly PairRecord[], stationNames: readonly string[]): CellFigures[] {
  const cells = new Map<string, { separationUs: number; kind: PairKind; pairs: number; lost: number;
    arbitration: { correct: number; tie: number; wrong: number }; arrival: { correct: number; wrong: number }; }>();
  for (const kind of ['same-station', 'cross-station'] as const) {
    for (const separationUs of BENCH_SEPARATIONS_US) {
      cells.set(`${kind}:${separationUs}`, {
        separationUs, kind, pairs: 0, lost: 0, arbitration: { correct: 0, tie: 0, wrong: 0 }, arrival: { correct: 0, wrong: 0 },
      });
    }
  }
  for (const pair of pairs) {
    const cell = cells.get(`${pair.kind}:${pair.separationUs}`);
    if (cell === undefined) continue;
    const [a, b] = pair.events;
    if (a.stamped === undefined || b.stamped === undefined || a.arrival === undefined || b.arrival === undefined) {
      cell.lost++;
      continue;
    }
    cell.pairs++;
    const timed = (e: EventRecord, s: StampedTime, first: boolean): TimedEvent & { first: boolean } => ({
      station: stationNames[e.station] ?? '?', epoch: s.epoch, deviceUs: s.deviceUs, hostUs: s.hostUs, uncertaintyUs: s.uncertaintyUs, first,
    });
    // Input deliberately in arrival order, to show arbitrate() does not depend on it.
    const ta = timed(a, a.stamped, true);
    const tb = timed(b, b.stamped, false);
    const [place] = arbitrate(a.arrival < b.arrival ? [ta, tb] : [tb, ta]);
    if (place === undefined || place.tie) cell.arbitration.tie++;
    else if (place.event.first) cell.arbitration.correct++;
    else cell.arbitration.wrong++;
    if (a.arrival < b.arrival) cell.arrival.correct++;
    else cell.arrival.wrong++;
  }
  return [...cells.values()];
}

function goals(cells: readonly CellFigures[], mapping: MappingFigures): GoalFigures[] {
  const pct = (x: number): string => `${(x * 100).toFixed(3)} %`;
  const share = (c: CellFigures): number => (c.pairs === 0 ? NaN : c.arbitration.correct / c.pairs);
  const worst = (list: readonly CellFigures[]): number => Math.min(...list.map(share));
  const same = worst(cells.filter((c) => c.kind === 'same-station' && c.separationUs >= 50));
  const cross = worst(cells.filter((c) => c.kind === 'cross-station' && c.separationUs >= 1000));
  const beaten = cells.filter((c) => c.arbitration.wrong > c.arrival.wrong || (c.arrival.wrong === 0 && c.arbitration.wrong > 0));
  return [
    { goal: 'same station, separation >= 50 us: 100 % correct', value: `worst cell ${pct(same)}`, met: same === 1 },
    { goal: 'across stations, separation >= 1 ms: >= 99.9 % correct', value: `worst cell ${pct(cross)}`, met: cross >= 0.999 },
    { goal: 'clock-mapping error p99 <= 200 us', value: `p99 ${mapping.p99Us.toFixed(1)} us`, met: mapping.p99Us <= 200 },
    {
      goal: 'fewer wrong orders than arrival order in every cell',
      value: beaten.length === 0 ? 'every cell' : `not in ${beaten.length} cell(s)`, met: beaten.length === 0,
    },
  ];
}

/** Runs the benchmark. `onProgress` receives short status texts. */
export function runTimingBench(options: TimingBenchOptions,
  onProgress: (text: string) => void = () => undefined): TimingBenchFigures {
  const rng = new SeededRandom(`bench-timing:${options.seed}`);
  const link = options.link ?? DEFAULT_LINK;
  const stationCount = options.stations ?? 4;
  if (stationCount < 2) throw new RangeError('runTimingBench: at least 2 stations');
  const names = Array.from({ length: stationCount }, (_, i) => `seat-${i + 1}`);
  const plan: { separationUs: number; kind: PairKind }[] = [];
  for (const kind of ['same-station', 'cross-station'] as const) {
    for (const separationUs of BENCH_SEPARATIONS_US) {
      for (let i = 0; i < options.pairs; i++) plan.push({ separationUs, kind });
    }
  }
  // Interleave the cells over the run so every cell sees the same mix of drift, restarts and wraps.
  for (let i = plan.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [plan[i], plan[j]] = [plan[j] as (typeof plan)[number], plan[i] as (typeof plan)[number]];
  }
  const endUs = WARM_UP_US + (plan.length + 1) * PAIR_SPACING_US;
  const stations: StationSim[] = names.map(() => ({
    resonator: randomResonator(rng),
    boots: planBoots(rng, endUs, { meanIntervalUs: options.meanRestartIntervalUs ?? 20 * 60e6, bootloaderUs: [1.5e6, 2e6] }),
    framePhaseUs: rng.uniform(0, link.usbFrameUs),
    lines: [],
  }));
  onProgress('simulating stations');
  stations.forEach((st) => {
    planPings(rng, link, st, endUs, options.pingIntervalUs ?? 100_000);
  });
  const pairs: PairRecord[] = [];
  plan.forEach(({ separationUs, kind }, k) => {
    const t = WARM_UP_US + k * PAIR_SPACING_US + rng.uniform(0, PAIR_SPACING_US / 2);
    const a = rng.int(stationCount);
    const b = kind === 'same-station' ? a : (a + 1 + rng.int(stationCount - 1)) % stationCount;
    // Same station: a button and a tag read, either first (their reports can overtake each other).
    const firstKind = kind === 'same-station' && rng.chance(0.5) ? 'tag' : 'button';
    const secondKind = kind === 'same-station' && firstKind === 'button' ? 'tag' : 'button';
    const first = press(rng, link, stations[a] as StationSim, a, t, firstKind);
    const second = press(rng, link, stations[b] as StationSim, b, t + separationUs, secondKind);
    // A press while its station is down is lost: the pair stays unevaluated (counted as lost).
    const events = [first ?? { station: a, trueUs: t }, second ?? { station: b, trueUs: t + separationUs }] as const;
    pairs.push({ separationUs, kind, events });
  });
  const arrivals = deliver(rng, link, stations);
  onProgress(`controller: ${arrivals.length} lines`);
  const clocks = names.map(() => new StationClock());
  let syncSamples = 0;
  let restartsDetected = 0;
  for (const { line, station, hostUs, order } of arrivals) {
    const clock = clocks[station] as StationClock;
    const before = clock.epoch;
    switch (line.kind) {
      case 'banner':
        if (options.banners !== false) clock.banner(line.boot.bootId);
        break;
      case 'pong':
        if (clock.pong({
          hostSendUs: line.hostSendUs, raw: line.raw, hostRecvUs: hostUs,
          outboundMinUs: line.outboundMinUs, inboundMinUs: wireTimeUs(link, line.bytes),
        }).rejected === undefined) syncSamples++;
        break;
      case 'event':
        line.record.stamped = clock.event(line.raw, hostUs);
        line.record.arrival = order;
        break;
    }
    if (clock.epoch !== before) restartsDetected++;
  }
  onProgress('evaluating');
  const cells = evaluate(pairs, names);
  const errors: number[] = [];
  const bounds: number[] = [];
  let within = 0;
  let unsynced = 0;
  for (const e of pairs.flatMap((p) => p.events)) {
    if (e.stamped === undefined) continue;
    if (!e.stamped.synced) {
      unsynced++;
      continue;
    }
    const err = Math.abs(e.stamped.hostUs - e.trueUs);
    errors.push(err);
    bounds.push(e.stamped.uncertaintyUs);
    if (err <= e.stamped.uncertaintyUs) within++;
  }
  errors.sort((x, y) => x - y);
  bounds.sort((x, y) => x - y);
  const mapping: MappingFigures = {
    events: errors.length, unsynced,
    p50Us: quantile(errors, 0.5), p99Us: quantile(errors, 0.99), maxUs: errors.at(-1) ?? NaN,
    withinBound: errors.length === 0 ? NaN : within / errors.length,
    uncertaintyP50Us: quantile(bounds, 0.5), uncertaintyP99Us: quantile(bounds, 0.99),
  };
  return {
    seed: options.seed, pairsPerCell: options.pairs, stations: stationCount,
    simulatedHours: endUs / 3.6e9,
    restarts: stations.reduce((n, st) => n + st.boots.filter((b) => b.banner).length, 0),
    restartsDetected,
    wraps: stations.reduce((n, st) => n + countWraps(st, endUs), 0),
    syncSamples, cells, mapping, goals: goals(cells, mapping),
  };
}

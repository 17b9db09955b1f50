/**
 * The timing benchmark behind `zaptable bench timing`: a simulated table of seat stations with drifting
 * resonators and random restarts, whose firmware stamps buttons, slaps and tag reads as the real one does
 * (timing-bench/seat-firmware.ts); pairs of happenings at known separations (timing-bench/pair-kinds.ts);
 * two link models side by side, realistic and pessimistic (simulated-link.ts); and, per cell, the share put
 * in the right order by our arbitration and by the strongest arrival-order competitor, the clock mapping's
 * error, and whether every true time lay inside its reported interval. Deterministic for a seed; no I/O.
 *
 * The controller side is the production code: the protocol codec, `StationClock` fed in host arrival order,
 * `eventInterval()` and `arbitrate()` (timing-bench/link-run.ts). Only the physical world is simulated.
 */
import { LINK_MODELS, type LinkModel } from '../sim/simulated-link.ts';
import type { SensorTiming } from '../../hardware/serial/event-interval.ts';
import { evaluateLink, type PairJudge } from './evaluate.ts';
import type { LinkFigures, TagWindowFigures, TimingBenchFigures } from './figures.ts';
import { linkGoals } from './goals.ts';
import { formatEventLines } from './event-lines.ts';
import { runLink } from './link-run.ts';
import { BENCH_SEPARATIONS_US, PAIR_KINDS, RESTING_TAGS, type PairKind } from './pair-kinds.ts';
import { DEFAULT_SEAT_FIRMWARE, type SeatFirmwareModel } from './seat-firmware.ts';
import { buildWorld, type World } from './world.ts';

export { BENCH_SEPARATIONS_US, PAIR_KINDS, RESTING_TAGS, type PairKind } from './pair-kinds.ts';
export type * from './figures.ts';
export type { PairJudge } from './evaluate.ts';
export type { ControllerEvent } from './link-run.ts';

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
  /** Link models to run, in order (default both: realistic, pessimistic). */
  readonly links?: readonly LinkModel[];
  /** Pair kinds to run (default all five). */
  readonly kinds?: readonly PairKind[];
  readonly separationsUs?: readonly number[];
  readonly firmware?: SeatFirmwareModel;
  /** The controller's sensor allowances (default: eventInterval()'s). */
  readonly sensorTiming?: SensorTiming;
  /** Chance that a slap sensor misses a landing. Default 0. */
  readonly slapMissChance?: number;
  /** Tests only: feed every `TAG+` with a zero window (a broken firmware or driver); see LinkRunOptions. */
  readonly zeroTagWindow?: boolean;
  /** Who orders each pair (default `arbitrate()`); the buzzer fairness benchmark passes the buzzer ranking. */
  readonly judge?: PairJudge;
}

function tagWindows(world: World): TagWindowFigures[] {
  return RESTING_TAGS.map((resting) => {
    const tags = world.records.filter((r) => r.source === 'tag' && r.resting === resting);
    const w = Float64Array.from(tags.filter((r) => !r.sharedWindow).map((r) => r.windowUs)).sort();
    const shared = tags.filter((r) => r.sharedWindow).map((r) => r.windowUs);
    return {
      resting, reads: w.length, p50Us: w[Math.floor(w.length / 2)] ?? NaN, maxUs: w.at(-1) ?? NaN,
      sharedMaxUs: shared.length === 0 ? NaN : Math.max(...shared),
    };
  });
}

function countWraps(world: World): number {
  let wraps = 0;
  for (const st of world.stations) {
    for (const boot of st.boots) {
      if (boot.upUs >= world.endUs) break;
      const span = (Math.min(boot.downUs, world.endUs) - boot.upUs) * (1 + st.resonator.skew);
      wraps += Math.floor((boot.microsAtUp + span) / 2 ** 32);
    }
  }
  return wraps;
}

/** Runs the benchmark. `onProgress` receives short status texts. */
export function runTimingBench(
  options: TimingBenchOptions, onProgress: (text: string) => void = () => undefined,
): TimingBenchFigures {
  const stationCount = options.stations ?? 4;
  if (stationCount < 2) throw new RangeError('runTimingBench: at least 2 stations');
  const names = Array.from({ length: stationCount }, (_, i) => `seat-${i + 1}`);
  const separations = options.separationsUs ?? BENCH_SEPARATIONS_US;
  onProgress('simulating the stations and their sensors');
  const world = buildWorld(options.seed, {
    pairs: options.pairs, stations: stationCount, meanRestartIntervalUs: options.meanRestartIntervalUs ?? 20 * 60e6,
    firmware: options.firmware ?? DEFAULT_SEAT_FIRMWARE, slapMissChance: options.slapMissChance ?? 0,
    kinds: options.kinds ?? PAIR_KINDS.map((k) => k.kind), separationsUs: separations,
  });
  const eventLines = formatEventLines(world);
  const links: LinkFigures[] = (options.links ?? LINK_MODELS).map((link) => {
    onProgress(`${link.name} link: ${world.records.length} sensor events through the links and the controller`);
    const run = runLink(world, eventLines, options.seed, names, {
      link, pingIntervalUs: options.pingIntervalUs ?? 100_000, banners: options.banners !== false,
      ...(options.sensorTiming && { sensorTiming: options.sensorTiming }),
      zeroTagWindow: options.zeroTagWindow === true,
    });
    onProgress(`${link.name} link: evaluating`);
    const figures = evaluateLink(world, run, separations, options.judge);
    return { ...figures, goals: linkGoals(figures) };
  });
  return {
    seed: options.seed, pairsPerCell: options.pairs, stations: stationCount, simulatedHours: world.endUs / 3.6e9,
    restarts: world.stations.reduce((n, st) => n + st.boots.filter((b) => b.banner && b.upUs < world.endUs).length, 0),
    wraps: countWraps(world), tagWindows: tagWindows(world), links,
  };
}

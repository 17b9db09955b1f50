/**
 * Judging one link run against the world's truth: our arbitration per pair (`arbitrate()`, production), the
 * arrival-order baseline, the clock mapping's error, and whether every true time lay inside its interval.
 */
import { percentile, sortedAscending } from '../../kernel/stats.ts';
import { arbitrate, type ArbitrationOptions } from '../../kernel/event-order.ts';
import type { CellFigures, IntervalFigures, LinkFigures, MappingFigures, OursCounts } from './figures.ts';
import type { ControllerEvent, LinkRun } from './link-run.ts';
import { pairKindInfo } from './pair-kinds.ts';
import type { PairEvent, SensorRecord, World } from './world.ts';

/** The arbitration options the runtime uses (arbitrate()'s defaults: 4 µs resolution, 1 % rate error). */
const ARBITRATION: Required<ArbitrationOptions> = { deviceResolutionUs: 4, maxRateError: 0.01 };

/** The true device time lies inside the event's device interval (± the stamp resolution). */
export function insideDevice(e: ControllerEvent, dating: SensorRecord): boolean {
  const res = ARBITRATION.deviceResolutionUs;
  const off = dating.trueMinusStampDeviceUs;
  return off >= -((e.beforeUs ?? 0) + res) && off <= (e.afterUs ?? 0) + res;
}

/** The true host time lies inside the event's mapped interval (sensor interval scaled, plus the uncertainty). */
export function insideHost(e: ControllerEvent, trueUs: number): boolean {
  const scale = 1 + ARBITRATION.maxRateError;
  const from = e.hostUs - (e.beforeUs ?? 0) * scale - e.uncertaintyUs;
  return trueUs >= from && trueUs <= e.hostUs + (e.afterUs ?? 0) * scale + e.uncertaintyUs;
}

/** The record a host-stamping competitor orders a pair event by: the slap's line where there is one. */
function competitorRecord(e: PairEvent): SensorRecord {
  return e.slap ?? e.primary;
}

function edgeOrTag(r: SensorRecord): 'edge' | 'tag' {
  return r.source === 'tag' ? 'tag' : 'edge';
}

/** The best constant per kind of line: the median delay from the happening to the competitor's arrival. */
function arrivalOffsets(world: World, arrivals: Float64Array): { edge: number; tag: number } {
  const delays = { edge: [] as number[], tag: [] as number[] };
  for (const r of world.records) {
    const a = arrivals[r.id] as number;
    if (!Number.isNaN(a)) delays[edgeOrTag(r)].push(a - r.trueUs);
  }
  return { edge: percentile(sortedAscending(delays.edge), 50), tag: percentile(sortedAscending(delays.tag), 50) };
}

interface MutableCell {
  kind: CellFigures['kind'];
  separationUs: number;
  pairs: number;
  lost: number;
  ours: { correct: number; tie: number; wrong: number };
  arrival: { correct: number; wrong: number };
  inside: number;
}

/**
 * Judges a pair: `first` truly happened first; `inArrivalOrder` says whether its line also arrived first (the
 * judge is given them in arrival order, to show it does not depend on it).
 */
export type PairJudge = (first: ControllerEvent, second: ControllerEvent, inArrivalOrder: boolean) => keyof OursCounts;

/** Our arbitration: `arbitrate()` with the runtime's options. */
export const judgeByArbitration: PairJudge = (a, b, inArrivalOrder) => {
  const [place] = arbitrate(inArrivalOrder ? [a, b] : [b, a], ARBITRATION);
  if (place === undefined || place.tie) return 'tie';
  return place.event.record === a.record ? 'correct' : 'wrong';
};

function evaluateCells(world: World, run: LinkRun, separations: readonly number[], judge: PairJudge): {
  cells: CellFigures[]; offsets: { edge: number; tag: number } | undefined;
} {
  const cells = new Map<string, MutableCell>();
  const kinds = [...new Set(world.pairs.map((p) => p.kind))];
  for (const kind of kinds) {
    for (const separationUs of separations) {
      cells.set(`${kind}:${separationUs}`, {
        kind, separationUs, pairs: 0, lost: 0, inside: 0,
        ours: { correct: 0, tie: 0, wrong: 0 }, arrival: { correct: 0, wrong: 0 },
      });
    }
  }
  const competitor = run.competitorArrivalUs;
  const offsets = competitor === undefined ? undefined : arrivalOffsets(world, competitor);
  const baseline = (e: PairEvent): number => {
    const r = competitorRecord(e);
    if (competitor === undefined || offsets === undefined) return run.arrivalUs[r.id] as number;
    return (competitor[r.id] as number) - offsets[edgeOrTag(r)];
  };
  for (const pair of world.pairs) {
    const cell = cells.get(`${pair.kind}:${pair.separationUs}`);
    if (cell === undefined) continue;
    const [x, y] = pair.events ?? [];
    const a = x === undefined ? undefined : run.dated[x.primary.id];
    const b = y === undefined ? undefined : run.dated[y.primary.id];
    const ba = x === undefined ? NaN : baseline(x);
    const bb = y === undefined ? NaN : baseline(y);
    if (x === undefined || y === undefined || a === undefined || b === undefined || Number.isNaN(ba) || Number.isNaN(bb)) {
      cell.lost++;
      continue;
    }
    cell.pairs++;
    const arrivedInOrder = (run.arrivalUs[x.primary.id] as number) <= (run.arrivalUs[y.primary.id] as number);
    cell.ours[judge(a, b, arrivedInOrder)]++;
    cell.arrival[ba < bb ? 'correct' : 'wrong']++;
    const same = pairKindInfo(pair.kind).sameStation;
    for (const [e, pe] of [[a, x], [b, y]] as const) {
      const dating = world.records[e.record] as SensorRecord;
      if (same ? insideDevice(e, dating) : insideHost(e, pe.trueUs)) cell.inside++;
    }
  }
  return { cells: [...cells.values()], offsets };
}

function evaluateMapping(world: World, run: LinkRun): MappingFigures {
  const errors: number[] = [];
  const bounds: number[] = [];
  let within = 0;
  let unsynced = 0;
  for (const r of world.records) {
    const e = run.own[r.id];
    if (e === undefined) continue;
    if (!e.synced) {
      unsynced++;
      continue;
    }
    const err = Math.abs(e.hostUs - r.stampUs);
    errors.push(err);
    bounds.push(e.uncertaintyUs);
    if (err <= e.uncertaintyUs) within++;
  }
  const sortedErrors = sortedAscending(errors);
  const sortedBounds = sortedAscending(bounds);
  return {
    events: errors.length, unsynced,
    p50Us: percentile(sortedErrors, 50), p99Us: percentile(sortedErrors, 99), maxUs: sortedErrors.at(-1) ?? NaN,
    withinBound: errors.length === 0 ? NaN : within / errors.length,
    uncertaintyP50Us: percentile(sortedBounds, 50), uncertaintyP99Us: percentile(sortedBounds, 99),
  };
}

function evaluateIntervals(world: World, run: LinkRun): IntervalFigures[] {
  const acc = new Map<IntervalFigures['source'], { events: number; insideDevice: number; insideHost: number; synced: number; widths: number[] }>();
  const add = (source: IntervalFigures['source'], e: ControllerEvent, trueUs: number): void => {
    const a = acc.get(source) ?? { events: 0, insideDevice: 0, insideHost: 0, synced: 0, widths: [] };
    acc.set(source, a);
    a.events++;
    if (insideDevice(e, world.records[e.record] as SensorRecord)) a.insideDevice++;
    if (e.synced) {
      a.synced++;
      if (insideHost(e, trueUs)) a.insideHost++;
    }
    a.widths.push((e.beforeUs ?? 0) + (e.afterUs ?? 0));
  };
  for (const r of world.records) {
    const own = run.own[r.id];
    if (own === undefined) continue;
    add(r.source, own, r.trueUs);
    const dated = run.dated[r.id];
    if (r.source === 'tag' && dated !== undefined && dated.record !== r.id) add('card by slap', dated, r.trueUs);
  }
  return (['button', 'slap', 'tag', 'card by slap'] as const).flatMap((source) => {
    const a = acc.get(source);
    if (a === undefined) return [];
    const w = sortedAscending(a.widths);
    return [{
      source, events: a.events, insideDevice: a.insideDevice, insideHost: a.insideHost, syncedEvents: a.synced,
      widthP50Us: percentile(w, 50), widthMaxUs: w.at(-1) ?? NaN,
    }];
  });
}

/** Everything one link run shows, goals excepted. */
export function evaluateLink(
  world: World, run: LinkRun, separations: readonly number[], judge: PairJudge = judgeByArbitration,
): Omit<LinkFigures, 'goals'> {
  const { cells, offsets } = evaluateCells(world, run, separations, judge);
  return {
    link: run.link.name, lines: run.lines, syncSamples: run.syncSamples, restartsDetected: run.restartsDetected,
    cells, mapping: evaluateMapping(world, run), intervals: evaluateIntervals(world, run), arrivalOffsetsUs: offsets,
  };
}

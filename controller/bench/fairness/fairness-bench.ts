/**
 * `zaptable bench fairness`: races on the controller as `zaptable start` assembles it (table-rig.ts), under
 * each link model (usb-links.ts), judged against the true landing times (races.ts), over a streamed world
 * (world.ts). Per row (link × cell × separation) it counts what the table decided — right, tie, wrong,
 * unanswered — and whether each happening's true time lay inside the interval the table took; then judges the
 * goals (goals.ts). A lost happening, an unanswered race and an empty row are failures, never left out of a
 * denominator. Deterministic for a seed and options.
 */
import type { HardwareFaults } from './faults.ts';
import { fairnessGoals, type Goal } from './goals.ts';
import { findKillerSeeds } from './killer-race.ts';
import { findRaceSeeds, runRace, type RaceResult, type RaceSeeds } from './races.ts';
import { TableRig, type ConfigFaults } from './table-rig.ts';
import { FAIRNESS_LINKS, type FairnessLinkName } from './usb-links.ts';
import {
  CELLS, DEFAULT_PHYSICS, FAIRNESS_SEPARATIONS_US, plannedPerRow, plannedRaces, SLAP_GOAL_RACES,
  type Cell, type Physics, type PlannedRace,
} from './world.ts';

/** Faults to inject (issue 16 item 5): each must make the bench fail. */
export interface FairnessFaults extends HardwareFaults, ConfigFaults {}

export interface FairnessOptions {
  /** Races per row (cell × separation). */
  readonly pairs: number;
  /** The slap goal's rows hold at least this many races together (default SLAP_GOAL_RACES; 0: just `pairs`). */
  readonly slapGoalRaces?: number;
  readonly seed: string;
  readonly links?: readonly FairnessLinkName[];
  readonly cells?: readonly Cell[];
  readonly separationsUs?: readonly number[];
  readonly physics?: Physics;
  readonly faults?: FairnessFaults;
}

/** One row's counts. */
export interface RowFigures {
  readonly cell: Cell;
  readonly separationUs: number;
  /** Races the world planned for this row. */
  readonly planned: number;
  pairs: number;
  right: number;
  tie: number;
  wrong: number;
  /** Of the wrong orders: races where a true time lay outside its interval (else the intervals were right and the decision was not). */
  wrongOutside: number;
  unanswered: number;
  /** Happenings whose event never reached the table. */
  lost: number;
  /** Happenings drawn within the world's stated range: true time inside / outside the interval. */
  inside: number;
  outside: number;
  /** Happenings drawn in the world's tail (beyond the default allowances): inside / outside. */
  beyondInside: number;
  beyondOutside: number;
  /** The worst distance of a true time outside its interval, µs. */
  worstOutsideUs: number;
}

export interface LinkFigures {
  readonly link: FairnessLinkName;
  readonly rows: readonly RowFigures[];
  /** Warnings of the serial driver during the run (a finding: the lines were not what it expected). */
  readonly driverWarnings: number;
  readonly goals: readonly Goal[];
}

export interface FairnessFigures {
  readonly seed: string;
  readonly pairsPerRow: number;
  readonly physics: Physics;
  readonly faults: FairnessFaults;
  readonly links: readonly LinkFigures[];
  /** Simulated time per link, s. */
  readonly simulatedSeconds: number;
  /** Peak resident set of this process, MB (`process.resourceUsage().maxRSS`). */
  readonly peakRssMb: number;
  readonly goals: readonly Goal[];
}

/**
 * Counts one race. A happening is "in the tail" when the world drew its power-up or stamp delay beyond the
 * stated range (by default: beyond the controller's default allowances); its interval is judged apart, so the
 * figures show what a too-narrow allowance does. A fault that narrows the controller's allowance does not
 * move the line: the world's range is the physics, the allowance is the claim under test.
 */
function tally(row: RowFigures, race: PlannedRace, result: RaceResult, physics: Physics): void {
  row.pairs++;
  row[result.verdict === 'unanswered' ? 'unanswered' : result.verdict]++;
  if (result.verdict === 'wrong' && result.sides.some((side) => side.arrived && side.missUs > 0)) row.wrongOutside++;
  result.sides.forEach((side, i) => {
    if (!side.arrived) {
      row.lost++;
      return;
    }
    const draw = race.physics[i];
    const beyond = draw !== undefined
      && (draw.stampDelayUs > physics.stampDelay.maxUs || (race.sensor !== 'button' && draw.powerUpUs > physics.powerUp.maxUs));
    const inside = side.missUs <= 0;
    if (beyond) row[inside ? 'beyondInside' : 'beyondOutside']++;
    else row[inside ? 'inside' : 'outside']++;
    if (!inside) row.worstOutsideUs = Math.max(row.worstOutsideUs, side.missUs);
  });
}

/** Runs the benchmark. `onProgress` receives short status texts. */
export async function runFairnessBench(
  options: FairnessOptions, onProgress: (text: string) => void = () => undefined,
): Promise<FairnessFigures> {
  const cells = options.cells ?? CELLS;
  const separationsUs = options.separationsUs ?? FAIRNESS_SEPARATIONS_US;
  const physics = options.physics ?? DEFAULT_PHYSICS;
  const faults = options.faults ?? {};
  const seeds: RaceSeeds = { zip: findRaceSeeds(16), killer: findKillerSeeds(16) };
  const links: LinkFigures[] = [];
  let simulatedSeconds = 0;
  for (const link of options.links ?? FAIRNESS_LINKS) {
    const rig = await TableRig.start({
      link, seed: options.seed,
      config: {
        ...(faults.batchWindowMs === undefined ? {} : { batchWindowMs: faults.batchWindowMs }),
        ...(faults.powerUpAllowanceUs === undefined ? {} : { powerUpAllowanceUs: faults.powerUpAllowanceUs }),
      },
      hardware: faults,
    });
    const startUs = rig.time.nowUs();
    const rows: RowFigures[] = cells.flatMap((cell) => separationsUs.map((separationUs): RowFigures => ({
      cell, separationUs, planned: 0, pairs: 0, right: 0, tie: 0, wrong: 0, wrongOutside: 0, unanswered: 0, lost: 0,
      inside: 0, outside: 0, beyondInside: 0, beyondOutside: 0, worstOutsideUs: 0,
    })));
    let uid = 0;
    let done = 0;
    const world = {
      pairs: options.pairs, slapGoalRaces: options.slapGoalRaces ?? SLAP_GOAL_RACES,
      seed: options.seed, physics, cells, separationsUs,
    };
    const planned = plannedPerRow(world);
    rows.forEach((row, i) => {
      rows[i] = { ...row, planned: planned[i] as number };
    });
    const total = planned.reduce((a, b) => a + b, 0);
    try {
      for (const race of plannedRaces(world)) {
        const result = await runRace(rig, race, seeds, () => uid++);
        tally(rows[race.cell * separationsUs.length + race.separation] as RowFigures, race, result, physics);
        if (++done % 200 === 0) onProgress(`${link}: ${done} of ${total} races`);
      }
    } finally {
      simulatedSeconds = (rig.time.nowUs() - startUs) / 1e6;
      await rig.stop();
    }
    links.push({ link, rows, driverWarnings: rig.notes.warnings, goals: fairnessGoals(link, rows) });
  }
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  const goals: Goal[] = [{
    name: 'peak RSS of the bench process ≤ 250 MB', pass: peakRssMb <= 250, detail: `${peakRssMb.toFixed(0)} MB`,
  }];
  return { seed: options.seed, pairsPerRow: options.pairs, physics, faults, links, simulatedSeconds, peakRssMb, goals };
}

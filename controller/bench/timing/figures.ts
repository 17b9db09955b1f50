/**
 * What the timing benchmark reports (the `--json` output is these types).
 */
import type { LinkName } from '../sim/simulated-link.ts';
import type { PairKind } from './pair-kinds.ts';

/** Our arbitration's outcomes in one cell. Ties are neither correct nor wrong. */
export interface OursCounts {
  readonly correct: number;
  readonly tie: number;
  readonly wrong: number;
}

/** One cell: a pair kind at one separation, under one link model. */
export interface CellFigures {
  readonly kind: PairKind;
  readonly separationUs: number;
  /** Pairs evaluated (both events reached the controller). */
  readonly pairs: number;
  /** Pairs with an event lost to a restart (not evaluated). */
  readonly lost: number;
  readonly ours: OursCounts;
  /** The arrival-order baseline (docs/timing.md §4): it always decides. */
  readonly arrival: { readonly correct: number; readonly wrong: number };
  /**
   * Events (two per pair) whose true time lay inside the interval they were compared by: device time on one
   * station, controller time across stations.
   */
  readonly inside: number;
}

export interface MappingFigures {
  /** Stamps mapped with a synced clock. */
  readonly events: number;
  /** Stamps of a boot without a sync sample yet (infinite uncertainty: they can only tie). */
  readonly unsynced: number;
  /** |mapped − true| of the stamp (the moment `micros()` was read): percentiles and maximum, µs. */
  readonly p50Us: number;
  readonly p99Us: number;
  readonly maxUs: number;
  /** Share of stamps whose true time lies within ± the reported uncertainty. */
  readonly withinBound: number;
  /** Reported uncertainty percentiles, µs. */
  readonly uncertaintyP50Us: number;
  readonly uncertaintyP99Us: number;
}

/** How often the true time of a kind of event lay inside its whole reported interval. */
export interface IntervalFigures {
  /** `button`, `slap`, `tag` (a `TAG+` with its own interval), `card by slap` (a `TAG+` dated by its slap). */
  readonly source: 'button' | 'slap' | 'tag' | 'card by slap';
  readonly events: number;
  /** Inside `[deviceUs − beforeUs, deviceUs + afterUs]` ± the stamp resolution. */
  readonly insideDevice: number;
  /** Inside the same, mapped: `hostUs` ± (sensor interval × (1 + rate error) + uncertainty). Synced events only. */
  readonly insideHost: number;
  readonly syncedEvents: number;
  /** p50 and largest width of the sensor interval (`beforeUs + afterUs`), device µs. */
  readonly widthP50Us: number;
  readonly widthMaxUs: number;
}

export interface GoalFigures {
  readonly goal: string;
  readonly value: string;
  readonly met: boolean;
}

export interface LinkFigures {
  readonly link: LinkName;
  readonly lines: number;
  readonly syncSamples: number;
  /** Restarts the controller noticed (by banner or by time). */
  readonly restartsDetected: number;
  readonly cells: readonly CellFigures[];
  readonly mapping: MappingFigures;
  readonly intervals: readonly IntervalFigures[];
  /**
   * The constants the realistic baseline subtracts from an arrival (µs): the median delay from the
   * happening to the competitor's line arriving, per kind of line (chosen on this very run: the best
   * constant a competitor could pick). Absent for the pessimistic baseline (raw arrival order).
   */
  readonly arrivalOffsetsUs: { readonly edge: number; readonly tag: number } | undefined;
  readonly goals: readonly GoalFigures[];
}

/** The `TAG+` windows the simulated firmware reported, by tags resting on the pad. */
export interface TagWindowFigures {
  readonly resting: number;
  /** Cards that were the only new tag in their window. */
  readonly reads: number;
  readonly p50Us: number;
  readonly maxUs: number;
  /** The largest window of a card read right after another new one (both windows reach back to the same poll). */
  readonly sharedMaxUs: number;
}

export interface TimingBenchFigures {
  readonly seed: string;
  readonly pairsPerCell: number;
  readonly stations: number;
  readonly simulatedHours: number;
  /** Restarts simulated, and `micros()` wraps during the run. */
  readonly restarts: number;
  readonly wraps: number;
  readonly tagWindows: readonly TagWindowFigures[];
  readonly links: readonly LinkFigures[];
}

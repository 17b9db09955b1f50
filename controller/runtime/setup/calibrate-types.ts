/**
 * The calibration flow's ports and messages (calibrate-session.ts is the flow itself).
 */
import type { StationId } from '../../hardware/interface.ts';
import type { Result } from '../../kernel/result.ts';
import type { BarrelWeights } from '../calibration/barrel-weights.ts';
import type { Calibration } from '../calibration/calibration-file.ts';
import type { Scheduler } from '../ports.ts';
import type { TagRegistry } from '../registry/tag-registry.ts';
import type { FlaggedBarrel } from './barrel-learning.ts';

/** A station command's answer: a failure carries the driver's or the station's code (`TIMEOUT`, `SENSOR_TIMEOUT`, …). */
export type ScaleReply<T extends object> = Result<T>;

/** The two scale commands the flow sends; `SerialStations` provides them. */
export interface ScaleCommands {
  tare(station: StationId): Promise<ScaleReply<{ readonly tareCounts: number }>>;
  calibrate(station: StationId, grams: number): Promise<ScaleReply<{ readonly perKg: number }>>;
}

/** What the person is asked to do. `confirm`: they say when it is done (Enter); otherwise the sensors tell. */
export type CalibrateStep =
  | { readonly kind: 'clear-pad'; readonly station: StationId; readonly confirm: true }
  | { readonly kind: 'place-known'; readonly station: StationId; readonly grams: number; readonly confirm: true }
  | { readonly kind: 'remove-known'; readonly station: StationId; readonly confirm: false }
  | { readonly kind: 'place-barrel'; readonly station: StationId; readonly barrel: number; readonly confirm: false }
  | { readonly kind: 'lift'; readonly station: StationId; readonly uid: string; readonly confirm: false };

/** Where the run stands: scales calibrated and barrels weighed, of all to do. */
export interface CalibrateProgress {
  readonly done: number;
  readonly total: number;
}

export type CalibrateUpdate =
  | { readonly kind: 'step'; readonly step: CalibrateStep; readonly text: string; readonly progress: CalibrateProgress }
  | { readonly kind: 'busy'; readonly text: string }
  | { readonly kind: 'tared'; readonly station: StationId; readonly tareCounts: number }
  | { readonly kind: 'calibrated'; readonly station: StationId; readonly perKg: number }
  | { readonly kind: 'verified'; readonly station: StationId; readonly grams: number; readonly knownGrams: number }
  | { readonly kind: 'notice'; readonly message: string }
  | { readonly kind: 'weighed'; readonly barrel: number; readonly grams: number; readonly progress: CalibrateProgress }
  | { readonly kind: 'learned'; readonly weights: BarrelWeights; readonly flagged: readonly FlaggedBarrel[] }
  /** A step failed; `confirm()` tries it again. */
  | { readonly kind: 'failed'; readonly code: string; readonly message: string; readonly retry: string }
  | { readonly kind: 'save-failed'; readonly message: string }
  | { readonly kind: 'done'; readonly calibration: Calibration };

export interface CalibrateSessionOptions {
  /** Stations whose scales are tared and calibrated, in order (may be empty: barrels only). */
  readonly stations: readonly StationId[];
  /** The pad the barrels are weighed on (already calibrated, or in `stations`). */
  readonly barrelStation: StationId;
  /** Barrels to weigh (= their stone counts), at least two different ones; empty: no barrel learning. */
  readonly barrels: readonly number[];
  /** The known mass for `calibrate`, g (integer 1..100000). */
  readonly knownGrams: number;
  /** How far the read-back weight may be off, g. Default max(1 g, 0.5 % of the known mass). */
  readonly toleranceGrams?: number;
  /** How long to wait for the read-back weight after `calibrate`, ms. Default 5000. */
  readonly verifyTimeoutMs?: number;
  /** Confirms which barrel a tag is on. */
  readonly registry: TagRegistry;
  /** The calibration as loaded; stations not calibrated in this run keep their entries. */
  readonly calibration: Calibration;
  readonly scale: ScaleCommands;
  readonly scheduler: Scheduler;
  /** Wall-clock time for the file's stamps. */
  readonly now: () => Date;
  /** Persists the calibration (atomically); throwing stops the session with `save-failed`. */
  readonly save: (calibration: Calibration) => void;
  readonly onUpdate: (update: CalibrateUpdate) => void;
}

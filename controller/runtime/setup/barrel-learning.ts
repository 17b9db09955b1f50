/**
 * Learning the barrel weights from the barrels weighed during calibration, and flagging a barrel whose tag
 * and weight disagree. Pure.
 *
 * One wrongly filled or relabelled barrel would pull a plain least-squares fit towards itself, so the fit is
 * done twice: over every sample, then — when some samples disagree with that fit — over the agreeing ones
 * only, and the others are flagged against the second fit. With few samples (the default three) a wrong one
 * cannot always be told from a right one; then no fit is made and the person is asked to weigh again.
 */
import { reject, type Result } from '../../kernel/result.ts';
import { crossCheckBarrel, fitBarrelWeights, type BarrelWeights } from '../calibration/barrel-weights.ts';
import type { BarrelSample } from '../calibration/calibration-file.ts';

export interface FlaggedBarrel {
  readonly barrel: number;
  readonly grams: number;
  /** The stone count the weight stands for. */
  readonly measuredStones: number;
  readonly message: string;
}

export type Learned = Result<{
  readonly weights: BarrelWeights;
  /** Every sample, the flagged ones marked (they were left out of the fit). */
  readonly samples: readonly BarrelSample[];
  readonly flagged: readonly FlaggedBarrel[];
}>;

function fit(samples: readonly BarrelSample[]) {
  return fitBarrelWeights(samples.map((s) => ({ stones: s.barrel, grams: s.grams })));
}

function disagreeing(weights: BarrelWeights, samples: readonly BarrelSample[]): Set<BarrelSample> {
  return new Set(samples.filter((s) => !crossCheckBarrel(weights, s.barrel, s.grams).ok));
}

/** Fits `empty + k × stone` to the samples and flags those that do not fit. */
export function learnBarrels(samples: readonly BarrelSample[]): Learned {
  const first = fit(samples);
  if (!first.ok) return first;
  const bad = disagreeing(first.weights, samples);
  if (bad.size === 0) return { ok: true, weights: first.weights, samples, flagged: [] };
  const good = samples.filter((s) => !bad.has(s));
  // The agreeing barrels must outnumber the others, or "agreeing" means nothing.
  const second = good.length > bad.size ? fit(good) : undefined;
  if (second?.ok !== true || disagreeing(second.weights, good).size > 0) {
    const names = [...bad].map((s) => s.barrel).join(', ');
    return reject('BARRELS_DISAGREE', `the barrels' weights do not fit one empty weight and one stone weight (barrels ${names} stand out; `
      + `rms ${first.weights.rmsResidualGrams.toFixed(1)} g): check their filling and labels, or weigh more barrels`);
  }
  const weights = second.weights;
  const flagged: FlaggedBarrel[] = [];
  for (const s of bad) {
    const check = crossCheckBarrel(weights, s.barrel, s.grams);
    if (check.ok) continue;
    flagged.push({ barrel: s.barrel, grams: s.grams, measuredStones: check.measured.stones, message: check.message });
  }
  const flaggedSet = new Set(flagged.map((f) => f.barrel));
  return { ok: true, weights, samples: samples.map((s) => (flaggedSet.has(s.barrel) ? { ...s, flagged: true } : s)), flagged };
}

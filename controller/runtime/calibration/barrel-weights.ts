/**
 * Weight → stone count. A barrel's settled weight on a calibrated pad is `empty + k × stone` (ZAPP-1: barrel k
 * holds k stones). `fitBarrelWeights` learns both numbers from a few barrels by least squares; after that a
 * weight gives a stone count, and a barrel whose tag says k but whose weight says otherwise is flagged
 * (a wrongly filled or relabelled barrel, or two barrels on one pad). Pure.
 */
import { reject, type Ok, type Rejection, type Result } from '../../kernel/result.ts';

export interface BarrelWeights {
  /** Weight of an empty barrel with its plug and tag (g). */
  readonly emptyGrams: number;
  /** Weight of one stone (g). */
  readonly stoneGrams: number;
  /** Root-mean-square residual of the fit (g): how well the samples agree with the model. */
  readonly rmsResidualGrams: number;
  /** How many samples the fit used. */
  readonly samples: number;
}

export interface WeightSample {
  readonly stones: number;
  readonly grams: number;
}

export type FitResult = Result<{ readonly weights: BarrelWeights }, 'NOT_ENOUGH_SAMPLES' | 'STONES_TOO_LIGHT' | 'BAD_SAMPLE'>;

/** Least-squares fit of `grams = empty + stones × stone` over samples with at least two stone counts. */
export function fitBarrelWeights(samples: readonly WeightSample[]): FitResult {
  for (const s of samples) {
    if (!Number.isInteger(s.stones) || s.stones < 0 || s.stones > 13 || !Number.isFinite(s.grams)) {
      return reject('BAD_SAMPLE', `bad sample ${JSON.stringify(s)}`);
    }
  }
  if (new Set(samples.map((s) => s.stones)).size < 2) {
    return reject('NOT_ENOUGH_SAMPLES', 'weigh barrels with at least two different stone counts (e.g. 1 and 13)');
  }
  const n = samples.length;
  const mx = samples.reduce((a, s) => a + s.stones, 0) / n;
  const my = samples.reduce((a, s) => a + s.grams, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const s of samples) {
    sxy += (s.stones - mx) * (s.grams - my);
    sxx += (s.stones - mx) ** 2;
  }
  const stoneGrams = sxy / sxx;
  const emptyGrams = my - stoneGrams * mx;
  // A stone must weigh clearly more than the scale's noise, or counts cannot be told apart.
  if (!(stoneGrams >= 0.5)) {
    return reject('STONES_TOO_LIGHT', `a stone weighs ${stoneGrams.toFixed(2)} g: too little to count stones (need ≥ 0.5 g)`);
  }
  const rms = Math.sqrt(samples.reduce((a, s) => a + (s.grams - emptyGrams - stoneGrams * s.stones) ** 2, 0) / n);
  return { ok: true, weights: { emptyGrams, stoneGrams, rmsResidualGrams: rms, samples: n } };
}

export interface StoneReading {
  /** The nearest stone count (may be outside 1..13 for something that is not one barrel). */
  readonly stones: number;
  /** Measured minus predicted weight for that count (g). */
  readonly errorGrams: number;
  /** True when the weight is within a third of a stone of the predicted one. */
  readonly confident: boolean;
}

/** The stone count a settled weight stands for. */
export function stonesFromGrams(weights: BarrelWeights, grams: number): StoneReading {
  const stones = Math.round((grams - weights.emptyGrams) / weights.stoneGrams);
  const errorGrams = grams - (weights.emptyGrams + stones * weights.stoneGrams);
  return { stones, errorGrams, confident: Math.abs(errorGrams) <= weights.stoneGrams / 3 };
}

export type CrossCheck =
  | Ok<{ readonly stones: number }>
  | (Rejection<'WEIGHT_MISMATCH'> & { readonly expected: number; readonly measured: StoneReading });

/** Does a barrel whose tag says `value` weigh like barrel `value`? */
export function crossCheckBarrel(weights: BarrelWeights, value: number, grams: number): CrossCheck {
  const measured = stonesFromGrams(weights, grams);
  if (measured.stones === value && measured.confident) return { ok: true, stones: value };
  return {
    ok: false,
    code: 'WEIGHT_MISMATCH',
    message: `the tag says barrel ${value} but ${grams.toFixed(1)} g weighs like ${measured.stones} stone(s)`
      + `${measured.confident ? '' : ' (and not clearly)'}: check the barrel's filling and label`,
    expected: value,
    measured,
  };
}

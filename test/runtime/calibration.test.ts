import { describe, expect, it } from 'vitest';
import { crossCheckBarrel, fitBarrelWeights, stonesFromGrams } from '../../controller/runtime/calibration/barrel-weights.ts';

describe('barrel weights', () => {
  // A plausible box: 21.5 g empty barrel, 4.2 g per stone, ±0.3 g scale noise.
  const noise = [0.3, -0.2, 0.1, -0.3, 0.2, 0, -0.1];
  const samples = [1, 4, 7, 10, 13, 2, 12].map((k, i) => ({ stones: k, grams: 21.5 + 4.2 * k + (noise[i] ?? 0) }));

  it('learns the empty barrel and the stone weight from a few barrels', () => {
    const fit = fitBarrelWeights(samples);
    expect(fit.ok).toBe(true);
    if (!fit.ok) return;
    expect(fit.weights.emptyGrams).toBeCloseTo(21.5, 0);
    expect(fit.weights.stoneGrams).toBeCloseTo(4.2, 1);
    expect(fit.weights.rmsResidualGrams).toBeLessThan(0.3);
  });

  it('turns a settled weight into a stone count and flags a barrel whose tag and weight disagree', () => {
    const fit = fitBarrelWeights(samples);
    if (!fit.ok) throw new Error(fit.message);
    for (let k = 1; k <= 13; k++) {
      expect(stonesFromGrams(fit.weights, 21.5 + 4.2 * k + 0.4)).toMatchObject({ stones: k, confident: true });
      expect(crossCheckBarrel(fit.weights, k, 21.5 + 4.2 * k)).toEqual({ ok: true, stones: k });
    }
    const wrong = crossCheckBarrel(fit.weights, 7, 21.5 + 4.2 * 8);
    expect(wrong).toMatchObject({ ok: false, code: 'WEIGHT_MISMATCH', expected: 7, measured: { stones: 8 } });
    // Two barrels on one pad weigh like no single barrel.
    expect(crossCheckBarrel(fit.weights, 3, 2 * 21.5 + 4.2 * 5)).toMatchObject({ ok: false, code: 'WEIGHT_MISMATCH' });
    expect(stonesFromGrams(fit.weights, 21.5 + 4.2 * 5 + 2.1).confident).toBe(false);
  });

  it('refuses fits that cannot tell stone counts apart', () => {
    expect(fitBarrelWeights([{ stones: 3, grams: 34 }, { stones: 3, grams: 34.2 }])).toMatchObject({ ok: false, code: 'NOT_ENOUGH_SAMPLES' });
    expect(fitBarrelWeights([{ stones: 1, grams: 20 }, { stones: 13, grams: 21 }])).toMatchObject({ ok: false, code: 'STONES_TOO_LIGHT' });
    expect(fitBarrelWeights([{ stones: 1.5, grams: 20 }, { stones: 13, grams: 21 }])).toMatchObject({ ok: false, code: 'BAD_SAMPLE' });
  });
});

import { describe, expect, it } from 'vitest';
import { isRng, nextInt, nextUint32, seedRng, shuffle } from '../../controller/rules/common/rng.ts';

describe('seeded generator', () => {
  it('gives the same sequence for the same seed and different ones for different seeds', () => {
    const draw = (seed: number | string): number[] => {
      let rng = seedRng(seed);
      const out: number[] = [];
      for (let i = 0; i < 20; i++) {
        let x: number;
        [x, rng] = nextUint32(rng);
        out.push(x);
      }
      return out;
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw('42')).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
  });

  it('draws integers in range, reaching every value', () => {
    let rng = seedRng('range');
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      let x: number;
      [x, rng] = nextInt(rng, 6);
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(6);
      seen.add(x);
    }
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('rejects a bad bound (a programmer error)', () => {
    expect(() => nextInt(seedRng(1), 0)).toThrow(RangeError);
    expect(() => nextInt(seedRng(1), 1.5)).toThrow(RangeError);
  });

  it('shuffles into a permutation without touching the input', () => {
    const items = Array.from({ length: 56 }, (_, i) => i);
    const [shuffled] = shuffle(seedRng(7), items);
    expect(items).toEqual(Array.from({ length: 56 }, (_, i) => i));
    expect([...shuffled].sort((a, b) => a - b)).toEqual(items);
    expect(shuffled).not.toEqual(items);
  });

  it('keeps its state as plain JSON that survives a round trip', () => {
    const rng = seedRng('json');
    const copy: unknown = JSON.parse(JSON.stringify(rng));
    expect(isRng(copy)).toBe(true);
    expect(nextUint32(copy as typeof rng)).toEqual(nextUint32(rng));
    expect(isRng([1, 2, 3])).toBe(false);
    expect(isRng([1, 2, 3, -1])).toBe(false);
  });
});

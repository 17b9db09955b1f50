import { describe, expect, it } from 'vitest';
import { mean, percentile, sortedAscending, summarise } from '../../controller/kernel/stats.ts';

describe('statistics: one percentile convention (nearest rank)', () => {
  const thousand = sortedAscending(Array.from({ length: 1000 }, (_, i) => 1000 - i)); // 1..1000, given backwards

  it('takes the sample at rank ⌈p/100 · n⌉: p50 of 1..1000 is 500, p99 is 990, p99.9 is 999, p100 is the largest', () => {
    expect(percentile(thousand, 50)).toBe(500);
    expect(percentile(thousand, 90)).toBe(900);
    expect(percentile(thousand, 99)).toBe(990);
    expect(percentile(thousand, 99.9)).toBe(999); // 99.9 · 1000 / 100 is 999.0000000000001 in binary
    expect(percentile(thousand, 100)).toBe(1000);
    expect(percentile(thousand, 0)).toBe(1);
  });

  it('never interpolates: the lower middle sample of an even count, the only sample of one', () => {
    expect(percentile([1, 2], 50)).toBe(1);
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(percentile([1, 2, 3, 4], 51)).toBe(3);
    expect(percentile([7], 1)).toBe(7);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([10, 20, 30], 34)).toBe(20);
  });

  it('gives NaN for no samples (an empty cell fails every goal), and refuses a p outside [0, 100]', () => {
    expect(percentile([], 50)).toBeNaN();
    expect(mean([])).toBeNaN();
    const empty = summarise([]);
    expect(empty.count).toBe(0);
    for (const key of ['min', 'p50', 'p90', 'p99', 'max', 'mean'] as const) expect(empty[key]).toBeNaN();
    expect(() => percentile(thousand, 101)).toThrow(RangeError);
    expect(() => percentile(thousand, -1)).toThrow(RangeError);
    expect(() => percentile(thousand, Number.NaN)).toThrow(RangeError);
  });

  it('summarises a sample set in any order without touching it', () => {
    const values = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    const before = [...values];
    expect(summarise(values)).toEqual({ count: 10, min: 1, p50: 5, p90: 9, p99: 10, max: 10, mean: 5.5 });
    expect(values).toEqual(before);
    expect(mean(Float64Array.from([1, 2, 4]))).toBeCloseTo(7 / 3, 12);
  });
});

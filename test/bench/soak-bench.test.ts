/**
 * The soak benchmark runs the demo with bots for a few seconds and returns its samples; the slope is a plain
 * least-squares fit. Its figures are not checked: benchmarks print figures.
 */
import { describe, expect, it } from 'vitest';
import { runSoak, slope } from '../../controller/bench/soak-bench.ts';

describe('zaptable bench soak', () => {
  it('fits a least-squares slope', () => {
    expect(slope([[0, 1], [1, 3], [2, 5]])).toBeCloseTo(2);
    expect(slope([[0, 4], [1, 4]])).toBe(0);
    expect(slope([[0, 1]])).toBe(0);
  });

  it('samples memory every interval while the bots play at four tables', async () => {
    const result = await runSoak({ seconds: 3, intervalS: 1, dashboard: false });
    expect(result.tables).toHaveLength(4);
    expect(result.samples.length).toBeGreaterThanOrEqual(4);
    for (const s of result.samples) expect(s.rssMb).toBeGreaterThan(s.heapMb);
    expect(Number.isFinite(result.heapSlopeMbPerHour)).toBe(true);
  }, 60_000);
});

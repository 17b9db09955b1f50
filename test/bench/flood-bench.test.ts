/**
 * The flood benchmark runs end to end with tiny numbers (embedded broker) and returns well-formed figures: every
 * flood request answered once, the limits refusing part of the flood, and none of it with `--no-limits` (the
 * option that breaks them on purpose). Its speed is not checked: benchmarks print figures.
 */
import { describe, expect, it } from 'vitest';
import { runFloodBench } from '../../controller/bench/flood-bench.ts';
import { formatFloodReport } from '../../controller/cli/commands/bench-flood.ts';

describe('zaptable bench flood', () => {
  it.each([false, true])('answers every flood request once (no limits: %s)', async (noLimits) => {
    const result = await runFloodBench({ brokers: ['embedded'], tables: 2, samples: 5, flood: 600, noLimits });
    const run = result.runs[0];
    expect(run?.skipped).toBeUndefined();
    expect(run?.idle?.response.samples).toBe(5);
    expect(run?.idle?.state.lost).toBe(0);
    const flood = run?.flood;
    expect(flood?.unanswered).toBe(0);
    expect(flood?.duplicates).toBe(0);
    expect(Object.values(flood?.answers ?? {}).reduce((s, n) => s + n, 0)).toBe(600);
    // 600 requests at once against a bucket of 200: refused beyond it, unless the limits are off.
    if (noLimits) expect(flood?.answers.RATE_LIMITED).toBeUndefined();
    else expect(flood?.answers.RATE_LIMITED).toBeGreaterThan(100);
    expect(run?.memory?.rssPeakMb).toBeGreaterThan(0);
    expect(formatFloodReport(result).join('\n')).toContain('600 flood requests answered');
  }, 120_000);
});

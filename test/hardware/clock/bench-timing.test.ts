import { describe, expect, it } from 'vitest';
import { benchTimingCommand } from '../../../controller/cli/commands/bench-timing.ts';
import { UsageError } from '../../../controller/cli/args.ts';
import { memoryOutput } from '../../../controller/cli/output.ts';
import { BENCH_SEPARATIONS_US, runTimingBench } from '../../../controller/hardware/clock/timing-bench.ts';

describe('timing benchmark', () => {
  it('fills every cell (separation × kind) with counts that add up, deterministically for a seed', () => {
    const a = runTimingBench({ pairs: 15, seed: 'test', stations: 3 });
    expect(a.cells).toHaveLength(2 * BENCH_SEPARATIONS_US.length);
    for (const kind of ['same-station', 'cross-station'] as const) {
      expect(a.cells.filter((c) => c.kind === kind).map((c) => c.separationUs)).toEqual(BENCH_SEPARATIONS_US);
    }
    for (const c of a.cells) {
      expect(c.pairs + c.lost).toBe(15);
      expect(c.arbitration.correct + c.arbitration.tie + c.arbitration.wrong).toBe(c.pairs);
      expect(c.arrival.correct + c.arrival.wrong).toBe(c.pairs);
    }
    expect(a.mapping.events).toBeGreaterThan(0);
    expect(a.mapping.p50Us).toBeLessThanOrEqual(a.mapping.p99Us);
    expect(a.goals.map((g) => g.goal)).toHaveLength(4);
    expect(runTimingBench({ pairs: 15, seed: 'test', stations: 3 })).toEqual(a);
  });

  it('prints the table, how ties are counted and a PASS/MISS line per goal', () => {
    const io = memoryOutput();
    expect(benchTimingCommand(['--pairs', '5', '--seed', '2'], io)).toBe(0);
    const text = io.lines.join('\n');
    expect(text).toMatch(/a tie is neither correct nor wrong/);
    expect(text).toMatch(/same station/);
    expect(text).toMatch(/across stations/);
    for (const label of ['20 us', '50 us', '100 us', '200 us', '500 us', '1 ms', '2 ms', '5 ms', '10 ms', '20 ms']) {
      expect(io.lines.filter((l) => l.trimStart().startsWith(label))).toHaveLength(2);
    }
    expect(io.lines.filter((l) => /^(PASS|MISS) {2}/.test(l))).toHaveLength(4);
    expect(text).toMatch(/clock mapping, \d+ presses: \|error\| p50 [\d.]+ us, p99 [\d.]+ us/);
  });

  it('prints JSON with --json and rejects bad options', () => {
    const io = memoryOutput();
    expect(benchTimingCommand(['--pairs', '3', '--json', '--no-banner'], io)).toBe(0);
    const figures = JSON.parse(io.lines.join('\n')) as { cells: unknown[]; banners: boolean };
    expect(figures.cells).toHaveLength(20);
    expect(figures.banners).toBe(false);
    expect(() => benchTimingCommand(['--pairs', '0'], memoryOutput())).toThrow(UsageError);
    expect(() => benchTimingCommand(['--stations', '1'], memoryOutput())).toThrow(UsageError);
    expect(() => benchTimingCommand(['--frobnicate'], memoryOutput())).toThrow(UsageError);
  });
});

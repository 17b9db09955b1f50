/**
 * The latency benchmark runs end to end with tiny numbers and returns well-formed figures. Its speed is not
 * checked here: benchmarks print figures, they are not timed tests.
 */
import { describe, expect, it } from 'vitest';
import { runLatencyBench } from '../../controller/bench/latency-bench.ts';
import { formatLatencyReport } from '../../controller/cli/commands/bench-latency.ts';

describe('zaptable bench latency', () => {
  it('measures taps, throughput and memory through the real pipeline (embedded broker)', async () => {
    const result = await runLatencyBench({ samples: 20, loadEventsPerS: 200, brokers: ['embedded'], throughputSeconds: 1 });
    expect(result.runs).toHaveLength(1);
    const run = result.runs[0];
    expect(run?.skipped).toBeUndefined();
    for (const phase of [run?.idle, run?.load]) {
      expect(phase?.samples).toBe(20);
      expect(phase?.timeouts).toBe(0);
      expect(phase?.p50Ms).toBeGreaterThan(0);
      expect(phase?.p99Ms).toBeGreaterThanOrEqual(phase?.p50Ms ?? Infinity);
      expect(phase?.maxMs).toBeGreaterThanOrEqual(phase?.p99Ms ?? Infinity);
    }
    expect(run?.load?.achievedEventsPerS).toBeGreaterThan(0);
    const t = run?.throughput;
    expect(t?.eventsDelivered).toBeGreaterThan(0);
    expect(t?.rowsLogged).toBe(t?.linesWritten);
    expect(t?.allLogged).toBe(true);
    expect(t?.statesReceived).toBeGreaterThan(0);
    expect(run?.memory?.rssPeakMb).toBeGreaterThanOrEqual(run?.memory?.rssBeforeMb ?? Infinity);
    expect(run?.driverWarnings).toBe(0);
    expect(run?.unexpectedStates).toBe(0);
    expect(result.goals.map((g) => g.goal)).toHaveLength(4);
    const report = formatLatencyReport(result);
    expect(report.some((line) => line.startsWith('embedded, idle'))).toBe(true);
    expect(report.filter((line) => /^(PASS|MISS) {2}/.test(line))).toHaveLength(4);
  }, 60_000);
});

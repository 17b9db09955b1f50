/**
 * `zaptable bench soak`: the demo with bots at several tables left running, memory sampled; prints every sample
 * and the slopes. Method: controller/bench/soak-bench.ts. Figures, not a timed test (exit code 0 whatever they say).
 */
import { runSoak, type SoakResult } from '../../bench/soak-bench.ts';
import { intOption, parse } from '../args.ts';
import { runAndReport } from './bench-options.ts';
import type { Output } from '../output.ts';

export const benchSoakHelp = `zaptable bench soak [--seconds S] [--interval S] [--tables N] [--no-dashboard] [--json]

Runs the demo — the whole controller as zaptable start wires it, simulated hardware at real speed with bots in
every seat, one table of each game and then more Zip-Zap, the dashboard on — for --seconds (default 600), and
samples this process's RSS and V8 heap every --interval seconds (default 10). Run it with plain node and
--expose-gc for the live heap (a full GC before each sample), without npm's own process:

  node --expose-gc bin/zaptable.mjs bench soak --seconds 7200

Prints each sample and the least-squares slope after the first minute, in MB per hour.`;

export async function benchSoakCommand(argv: readonly string[], io: Output): Promise<number> {
  const { values } = parse(argv, {
    seconds: { type: 'string' }, interval: { type: 'string' }, tables: { type: 'string' },
    'no-dashboard': { type: 'boolean' }, json: { type: 'boolean' },
  });
  return runAndReport(io, 'soak', values.json === true, async (progress) => runSoak({
    seconds: intOption(values.seconds, 'seconds', 600, 1, 7 * 24 * 3600),
    intervalS: intOption(values.interval, 'interval', 10, 1, 3600),
    tables: intOption(values.tables, 'tables', 4, 1, 20),
    dashboard: values['no-dashboard'] !== true,
    progress,
  }), soakReport);
}

/** The report's lines. */
function* soakReport(result: SoakResult): Generator<string> {
  yield `soak: ${result.tables.join(', ')}; bots in every seat; heap ${result.gcBeforeSample ? 'after a full GC' : 'as found (run node with --expose-gc for the live heap)'}`;
  yield '     s    RSS MB   heap MB';
  for (const s of result.samples) yield `${s.t.toFixed(0).padStart(6)}${s.rssMb.toFixed(1).padStart(10)}${s.heapMb.toFixed(1).padStart(10)}`;
  yield `slope after the first minute: RSS ${result.rssSlopeMbPerHour.toFixed(1)} MB/h, heap ${result.heapSlopeMbPerHour.toFixed(1)} MB/h`;
}

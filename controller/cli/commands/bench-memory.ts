/**
 * `zaptable bench memory`: the controller's own process left running, its resident memory sampled from /proc;
 * prints every sample, the steady min/median/max and the slope. Method: controller/bench/memory-bench.ts.
 * Figures, not a timed test (exit code 0 whatever they say).
 */
import { CONTROLLER_NODE_FLAGS } from '../../app/node-flags.ts';
import { runMemory, type MemoryResult } from '../../bench/memory-bench.ts';
import { intOption, parse } from '../args.ts';
import { runAndReport } from './bench-options.ts';
import type { Output } from '../output.ts';

/** The goals: the demo as the README runs it (issue 18); a Pi whose venue serves the dashboard (issue 19). */
const DEMO_GOAL_MB = 100;
const NO_DASHBOARD_GOAL_MB = 80;

export const benchMemoryHelp = `zaptable bench memory [--seconds S] [--interval S] [--warmup S] [--tables N] [--no-dashboard]
                      [--plain-node] [--node-option=F]... [--json]

Builds dist/ (tools/build.mjs), then starts \`node ${CONTROLLER_NODE_FLAGS.join(' ')} dist/zaptable.mjs start\`
(the flags npm start and the systemd unit run it with) in a process of its own — the built-in demo (one table,
four bot seats; --tables N: the demo at N tables) — and samples that process's VmRSS (/proc/PID/status) every
--interval seconds (default 10) for --seconds after it is up (default 600). Prints each sample with the load
average, RSS min/median/p90/max from --warmup seconds on (default 60), and the verdict against the goal: a
median of at most ${DEMO_GOAL_MB} MB for the demo, ${NO_DASHBOARD_GOAL_MB} MB with --no-dashboard (issues 18 and 19; none at N tables).

  --plain-node     without those flags (what they save)
  --node-option F  one more flag for node (repeat it: --node-option=--max-semi-space-size=1)
Linux only.`;

export async function benchMemoryCommand(argv: readonly string[], io: Output): Promise<number> {
  const { values } = parse(argv, {
    seconds: { type: 'string' }, interval: { type: 'string' }, warmup: { type: 'string' }, tables: { type: 'string' },
    'no-dashboard': { type: 'boolean' }, 'node-option': { type: 'string', multiple: true }, 'plain-node': { type: 'boolean' },
    json: { type: 'boolean' },
  });
  const tables = intOption(values.tables, 'tables', 0, 0, 20);
  const dashboard = values['no-dashboard'] !== true;
  return runAndReport(io, 'memory', values.json === true, async (progress) => runMemory({
    seconds: intOption(values.seconds, 'seconds', 600, 1, 7 * 24 * 3600),
    intervalS: intOption(values.interval, 'interval', 10, 1, 3600),
    warmupS: intOption(values.warmup, 'warmup', 60, 0, 7 * 24 * 3600),
    tables,
    dashboard,
    nodeOptions: [...values['plain-node'] === true ? [] : CONTROLLER_NODE_FLAGS, ...values['node-option'] ?? []],
    ...tables === 0 ? { goalMb: dashboard ? DEMO_GOAL_MB : NO_DASHBOARD_GOAL_MB } : {},
    progress,
  }), memoryReport);
}

/** The report's lines. */
function* memoryReport(result: MemoryResult): Generator<string> {
  const mb = (x: number): string => x.toFixed(1);
  yield `memory: ${result.what}`;
  yield `process measured: ${result.command} (pid ${result.pid}), VmRSS from /proc/${result.pid}/status`;
  yield '     s    RSS MB   anon MB  files MB   load';
  for (const s of result.samples) {
    yield `${s.t.toFixed(0).padStart(6)}${mb(s.rssMb).padStart(10)}${mb(s.anonMb).padStart(10)}${mb(s.fileMb).padStart(10)}${s.load.toFixed(2).padStart(7)}`;
  }
  const { steady } = result;
  yield `RSS from ${result.warmupS} s on (${steady.count} samples): min ${mb(steady.min)} MB, median ${mb(steady.p50)} MB, max ${mb(steady.max)} MB; `
    + `slope ${mb(result.rssSlopeMbPerHour)} MB/h; peak (VmHWM, start-up included) ${mb(result.peakMb)} MB; `
    + `load average ${result.loadStart.toFixed(2)} → ${result.loadEnd.toFixed(2)}`;
  if (result.goalMb !== undefined) {
    yield `goal: median RSS ≤ ${result.goalMb} MB: ${steady.p50 <= result.goalMb ? 'PASS' : 'MISS'} (p90 ${mb(steady.p90)} MB, max ${mb(steady.max)} MB)`;
  }
}

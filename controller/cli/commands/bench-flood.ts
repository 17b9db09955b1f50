/**
 * `zaptable bench flood`: one client floods the tables with requests; what it costs a calm referee and a viewer,
 * and whether every request is answered once. The method is in controller/bench/flood-bench.ts and
 * docs/performance.md. Figures, not a timed test: the exit code is 0 whatever they say (2 for a usage error).
 */
import { runFloodBench, type FloodBenchResult, type LatencySummary } from '../../bench/flood-bench.ts';
import { intOption, parse } from '../args.ts';
import { brokersOption, runAndReport } from './bench-options.ts';
import type { Output } from '../output.ts';

export const benchFloodHelp = `zaptable bench flood [--broker embedded|mosquitto|both] [--tables N] [--samples N] [--flood N]
                     [--no-limits] [--json]

Starts the whole controller (as zaptable start wires it, simulated hardware without bots) with N buzzer
tables, and outside MQTT clients with their own logins: a calm referee sending buzzer/score to the last
table one request at a time, a viewer of every table's state, and a flooder in a process of its own.

  idle    the calm referee's request -> its response, and -> the state message at the viewer
  flood   the same while the flooder publishes --flood requests as fast as its connection takes them
          (without waiting for PUBACKs); every flood request must be answered exactly once: answers are
          counted by kind, and unanswered or duplicated requests are reported
  memory  this process's RSS (controller, embedded broker, calm referee, viewer) at the start, its peak, the end

  --broker B     embedded, mosquitto or both (default both)
  --tables N     buzzer tables (default 5)
  --samples N    calm requests per phase (default 200; the flood phase stops early when the flood is over)
  --flood N      flood requests (default 100000)
  --no-limits    per-client rate limit, request queue bound and the embedded broker's pace off (to see
                 what they protect against)
  --json         print the figures as JSON`;

const ms = (x: number): string => `${x.toFixed(1)} ms`;

function row(label: string, l: LatencySummary): string {
  return `${label.padEnd(34)}${String(l.samples).padStart(8)}${String(l.lost).padStart(6)}${ms(l.p50Ms).padStart(11)}`
    + `${ms(l.p99Ms).padStart(11)}${ms(l.maxMs).padStart(11)}`;
}

/** The human-readable report, one string per line. */
export function formatFloodReport(r: FloodBenchResult): string[] {
  const lines = [
    `flood benchmark: ${r.tables} buzzer tables; limits ${r.noLimits ? 'OFF (--no-limits)' : 'on (defaults)'}`,
    `  Node ${r.node}, ${r.cpus} cores, load average ${r.loadAverage.toFixed(2)} at the start (other work on the machine widens the tails)`,
    '',
    `${'calm referee (buzzer/score)'.padEnd(34)}${'samples'.padStart(8)}${'lost'.padStart(6)}${'p50'.padStart(11)}${'p99'.padStart(11)}${'max'.padStart(11)}`,
  ];
  for (const run of r.runs) {
    if (run.skipped !== undefined) {
      lines.push(`${run.broker}: skipped: ${run.skipped}`);
      continue;
    }
    if (run.idle) {
      lines.push(row(`${run.broker}, idle, -> response`, run.idle.response), row(`${run.broker}, idle, -> viewer state`, run.idle.state));
    }
    if (run.flood) {
      lines.push(row(`${run.broker}, flood, -> response`, run.flood.response), row(`${run.broker}, flood, -> viewer state`, run.flood.state));
    }
  }
  lines.push('');
  for (const run of r.runs) {
    const f = run.flood;
    if (f === undefined) continue;
    const kinds = Object.entries(f.answers).sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k} ${n}`).join(', ');
    lines.push(`${run.broker}: ${f.sent} flood requests answered in ${f.seconds.toFixed(1)} s: ${kinds}; `
      + `unanswered ${f.unanswered}, answered twice ${f.duplicates}${f.unanswered + f.duplicates > 0 ? '  <-- FAILURE' : ''}`);
    const m = run.memory;
    if (m !== undefined) {
      lines.push(`  memory (this process): RSS ${m.rssStartMb.toFixed(1)} MB before the controller started, peak ${m.rssPeakMb.toFixed(1)} MB, `
        + `${m.rssEndMb.toFixed(1)} MB at the end; heap ${m.heapEndMb.toFixed(1)} MB`);
    }
  }
  return lines;
}

export async function benchFloodCommand(argv: readonly string[], io: Output): Promise<number> {
  const { values } = parse(argv, {
    broker: { type: 'string' }, tables: { type: 'string' }, samples: { type: 'string' }, flood: { type: 'string' },
    'no-limits': { type: 'boolean' }, json: { type: 'boolean' },
  });
  return runAndReport(io, 'flood', values.json === true, async (progress) => runFloodBench({
    brokers: brokersOption(values.broker),
    tables: intOption(values.tables, 'tables', 5, 2, 50),
    samples: intOption(values.samples, 'samples', 200, 1, 100_000),
    flood: intOption(values.flood, 'flood', 100_000, 1, 10_000_000),
    noLimits: values['no-limits'] === true,
    progress,
  }), formatFloodReport);
}

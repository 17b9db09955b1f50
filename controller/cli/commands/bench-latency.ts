/**
 * `zaptable bench latency`: sensor line → state message on MQTT (p50/p99/max, idle and under load), sustained
 * sensor events/s, and the process's memory, with the embedded broker and with Mosquitto. The method is in
 * controller/bench/latency-bench.ts and docs/performance.md. Figures, not a timed test: the exit code is 0
 * whatever the figures say (2 for a usage error).
 */
import {
  GOALS, runLatencyBench, type BrokerRun, type LatencyBenchResult, type LatencyFigures,
} from '../../bench/latency-bench.ts';
import { intOption, parse } from '../args.ts';
import { brokersOption, runAndReport } from './bench-options.ts';
import type { Output } from '../output.ts';

export const benchLatencyHelp = `zaptable bench latency [--samples N] [--load EVENTS_PER_S] [--broker embedded|mosquitto|both]
                       [--seconds S] [--window-ms W] [--json]

Builds the controller's pipeline in this process — SQLite event log in a temporary folder, the broker,
the real serial driver reading simulated stations over serialport's mock binding (link delays set to
zero), a Zip-Zap table runtime, and an MQTT subscriber with its own viewer login — and measures:

  latency     a card-tap line written into a seat station's port -> the state message it causes at
              the subscriber; one tap at a time, at an idle table and under a background load of
              weight readings on the other seats (they change no state)
  throughput  sensor lines pushed as fast as the controller takes them, each logged; rows counted
  memory      the process's RSS before, after and at its peak

Goals on the development machine: p99 <= ${GOALS.p99Ms} ms at 1 table, >= ${GOALS.eventsPerSecond} sensor events/s,
resident memory <= ${GOALS.rssMb} MB. Loopback only; Mosquitto (if installed) is started on a free port with
a generated password and ACL file and stopped afterwards.

  --samples N        measured taps per phase (default 1000, plus a 10 % warm-up)
  --load R           background sensor events per second in the load phase (default 5000)
  --broker B         embedded, mosquitto or both (default both)
  --seconds S        length of the throughput phase (default 5)
  --window-ms W      the table's arbitration window (default 0; a table's default is 30 ms, which
                     every play waits on purpose before it is applied)
  --json             print the figures as JSON`;

const ms = (x: number): string => `${x.toFixed(2)} ms`;
const mb = (x: number): string => x.toFixed(1);
const pct = (x: number): string => `${(x * 100).toFixed(0)} %`;

function table(rows: readonly (readonly string[])[], widths: readonly number[]): string[] {
  return rows.map((cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 12) : c.padStart(widths[i] ?? 10))).join('').trimEnd());
}

function brokerName(run: BrokerRun): string {
  return run.broker === 'embedded' ? 'embedded' : 'Mosquitto';
}

function latencyRow(label: string, f: LatencyFigures): string[] {
  const timeouts = f.timeouts === 0 ? '' : ` (${f.timeouts} lost)`;
  return [label, `${f.samples}${timeouts}`, ms(f.p50Ms), ms(f.p90Ms), ms(f.p99Ms), ms(f.maxMs), ms(f.meanMs), pct(f.elu)];
}

/** The human-readable report, one string per line. */
export function formatLatencyReport(r: LatencyBenchResult): string[] {
  const lines = [
    `latency benchmark: Zip-Zap table, 4 seats; ${r.samples} taps per phase; background load ${r.loadEventsPerS} events/s;`
    + ` arbitration window ${r.arbitrationWindowMs} ms`,
    `  Node ${r.node}, ${r.cpus} cores, load average ${r.loadAverage.toFixed(2)} at the start (other work on the machine widens the tails)`,
    '  latency = a TAG+ line written into the seat station\'s port -> the state message at an MQTT subscriber (QoS 1)',
    '',
  ];
  const ran = r.runs.filter((run) => run.skipped === undefined);
  const widths = [28, 9, 11, 11, 11, 11, 11, 7];
  const latency: string[][] = [['broker / phase', 'samples', 'p50', 'p90', 'p99', 'max', 'mean', 'ELU']];
  for (const run of ran) {
    if (run.idle) latency.push(latencyRow(`${brokerName(run)}, idle`, run.idle));
    if (run.load) {
      latency.push(latencyRow(`${brokerName(run)}, ${Math.round(run.load.achievedEventsPerS)} events/s`, run.load));
    }
  }
  lines.push(...table(latency, widths));
  for (const run of r.runs) if (run.skipped !== undefined) lines.push(`  ${brokerName(run)}: skipped: ${run.skipped}`);

  lines.push('', `throughput: sensor lines pushed as fast as the controller takes them for ${r.throughputSeconds} s (1 in 50 a card tap or lift)`);
  const tput: string[][] = [['broker', 'events/s', 'events', 'rows logged', 'all logged', 'states', 'ELU']];
  for (const run of ran) {
    const t = run.throughput;
    if (t === undefined) continue;
    tput.push([brokerName(run), String(Math.round(t.eventsPerSecond)), String(t.eventsDelivered), String(t.rowsLogged),
      t.allLogged ? 'yes' : 'NO', String(t.statesReceived), pct(t.elu)]);
  }
  lines.push(...table(tput, [28, 10, 10, 13, 12, 9, 7]));

  lines.push('', 'memory: process RSS in MB (base = before the pipeline was built: Node, the tsx loader, the CLI\'s modules)');
  const mem: string[][] = [['broker', 'base', 'ready', 'idle', 'load', 'after', 'peak', 'heap']];
  for (const run of ran) {
    const m = run.memory;
    if (m === undefined) continue;
    mem.push([
      brokerName(run), mb(m.rssBaseMb), mb(m.rssBeforeMb), mb(m.rssAfterIdleMb), mb(m.rssAfterLoadMb), mb(m.rssAfterMb),
      mb(m.rssPeakMb), mb(m.heapUsedAfterMb),
    ]);
  }
  lines.push(...table(mem, [28, 8, 8, 8, 8, 8, 8, 8]));
  const odd = ran.filter((run) => (run.driverWarnings ?? 0) > 0 || (run.unexpectedStates ?? 0) > 0);
  for (const run of odd) {
    lines.push(`  ${brokerName(run)}: ${run.driverWarnings ?? 0} driver warnings, ${run.unexpectedStates ?? 0} state messages nobody caused`);
  }
  lines.push('', ...r.goals.map((g) => `${g.met ? 'PASS' : 'MISS'}  ${g.goal}  (${g.value})`));
  return lines;
}

export async function benchLatencyCommand(argv: readonly string[], io: Output): Promise<number> {
  const { values } = parse(argv, {
    samples: { type: 'string' }, load: { type: 'string' }, broker: { type: 'string' },
    seconds: { type: 'string' }, 'window-ms': { type: 'string' }, json: { type: 'boolean' },
  });
  return runAndReport(io, 'latency', values.json === true, async (progress) => runLatencyBench({
    samples: intOption(values.samples, 'samples', 1000, 1, 1_000_000),
    loadEventsPerS: intOption(values.load, 'load', 5000, 1, 1_000_000),
    brokers: brokersOption(values.broker),
    throughputSeconds: intOption(values.seconds, 'seconds', 5, 1, 600),
    arbitrationWindowMs: intOption(values['window-ms'], 'window-ms', 0, 0, 10_000),
    progress,
  }), formatLatencyReport);
}

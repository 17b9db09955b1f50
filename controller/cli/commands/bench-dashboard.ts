/**
 * `zaptable bench dashboard`: how fast the dashboard passes a state change from MQTT to its viewers under
 * load. This process runs what `zaptable start` runs besides the controller: the embedded broker and the
 * dashboard. A child process (`bench-dashboard-world.ts`) plays N tables publishing state changes and M
 * WebSocket viewers, and measures the time from the MQTT publish to the viewer's receipt (same clock). Prints
 * p50/p99/max, this process's CPU and peak RSS (broker + dashboard), and PASS/MISS for p99 ≤ 100 ms.
 * Loopback only; bounded in time (warm-up + measurement, ~30 s by default).
 */
import { projectFile } from '../../config/project-root.ts';
import { fork } from 'node:child_process';
import { EmbeddedBroker } from '../../transport/embedded-broker.ts';
import { startDashboard } from '../../../dashboard/server/server.ts';
import { UsageError, intOption, parse } from '../args.ts';
import type { Output } from '../output.ts';
import type { WorldMessage, WorldSetup } from './bench-dashboard-world.ts';

export const benchDashboardHelp = `zaptable bench dashboard [--tables N] [--viewers M] [--rate R] [--follow all|one] [--seconds S] [--json]

Starts the embedded broker and the dashboard in this process, and in a child process N simulated
tables (default 50) each publishing R state changes per second (default 1; a real Zapp Zerapp public
view, ~3 KB) and M WebSocket viewers (default 500). Measures MQTT publish -> viewer receive latency
(p50, p99, max) over S seconds (default 20, after 5 s of warm-up), and this process's CPU and peak RSS.

  --follow all   every viewer follows every table (big screens; the default and the worst case)
  --follow one   each viewer follows one table (phones: /live?tables=<id>)
  --json         print the figures as JSON

Goal: p99 <= 100 ms with 500 viewers and 50 tables.`;

const TOKEN = 'bench-dashboard-token-0123456789';

export interface DashboardBenchFigures {
  readonly tables: number;
  readonly viewers: number;
  readonly rate: number;
  readonly follow: 'all' | 'one';
  readonly seconds: number;
  readonly connectMs: number;
  readonly published: number;
  readonly deliveries: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly meanMs: number;
  readonly cpuPercent: number;
  readonly rssPeakMb: number;
  readonly reconnects: number;
  readonly pass: boolean;
}

export async function runDashboardBench(options: {
  tables: number; viewers: number; rate: number; follow: 'all' | 'one'; seconds: number; warmupSeconds?: number;
}, progress: (text: string) => void = () => undefined): Promise<DashboardBenchFigures> {
  const users = [
    { username: 'bench-controller', password: 'bench-controller-pass', role: 'controller' as const },
    { username: 'bench-dashboard', password: 'bench-dashboard-pass', role: 'referee' as const },
  ];
  const baseTopic = 'zaptable-bench';
  const broker = new EmbeddedBroker({ baseTopic, users, port: 0 });
  await broker.start();
  const dashboard = await startDashboard({
    host: '127.0.0.1', port: 0, token: TOKEN,
    mqtt: { url: broker.url, username: 'bench-dashboard', password: 'bench-dashboard-pass', baseTopic },
  });
  const child = fork(projectFile('controller', 'cli', 'commands', 'bench-dashboard-world.ts'), [], {
    execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const setup: WorldSetup = {
      brokerUrl: broker.url, dashboardUrl: dashboard.url, baseTopic, username: 'bench-controller', password: 'bench-controller-pass',
      tables: options.tables, viewers: options.viewers, rate: options.rate, follow: options.follow,
      warmupMs: (options.warmupSeconds ?? 5) * 1000, measureMs: options.seconds * 1000,
    };
    let connectMs = 0;
    let cpuStart = process.cpuUsage();
    let wallStart = performance.now();
    let rssPeak = process.memoryUsage.rss();
    const rssTimer = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
    }, 250);
    progress(`connecting ${options.viewers} viewers`);
    const done = await new Promise<Extract<WorldMessage, { kind: 'done' }>>((resolve, reject) => {
      child.on('message', (m: WorldMessage) => {
        if (m.kind === 'ready') {
          connectMs = m.connectMs;
          progress('warming up');
        } else if (m.kind === 'measuring') {
          cpuStart = process.cpuUsage();
          wallStart = performance.now();
          progress(`measuring for ${options.seconds} s`);
        } else {
          resolve(m);
        }
      });
      child.once('exit', (code) => {
        reject(new Error(`the bench child process exited (${String(code)}) before reporting`));
      });
      child.send(setup);
    });
    const cpu = process.cpuUsage(cpuStart);
    const wallMs = performance.now() - wallStart;
    clearInterval(rssTimer);
    const { warmupSeconds: _w, ...shown } = options;
    return {
      ...shown, connectMs,
      published: done.published, deliveries: done.samples, p50Ms: done.p50, p99Ms: done.p99, maxMs: done.max, meanMs: done.mean,
      cpuPercent: ((cpu.user + cpu.system) / 1000 / wallMs) * 100, rssPeakMb: rssPeak / 1024 / 1024, reconnects: done.reconnects,
      pass: done.samples > 0 && done.p99 <= 100,
    };
  } finally {
    if (child.exitCode === null) child.kill();
    await dashboard.close();
    await broker.close();
  }
}

export function formatDashboardBench(f: DashboardBenchFigures): string[] {
  const expected = f.published * (f.follow === 'all' ? f.viewers : f.viewers / f.tables);
  return [
    `dashboard benchmark: ${f.tables} tables x ${f.rate} state change/s, ${f.viewers} viewers following `
    + `${f.follow === 'all' ? 'every table' : 'one table each'}, ${f.seconds} s measured`,
    `  viewers connected (with their snapshots) in ${(f.connectMs / 1000).toFixed(1)} s`,
    `  published ${f.published} states; ${f.deliveries} deliveries measured (expected ~${Math.round(expected)}); ${f.reconnects} viewer disconnects`,
    '',
    '  MQTT publish -> viewer receive (ms)',
    `    p50 ${f.p50Ms.toFixed(1)}   p99 ${f.p99Ms.toFixed(1)}   max ${f.maxMs.toFixed(1)}   mean ${f.meanMs.toFixed(1)}`,
    '',
    `  this process (embedded broker + dashboard): CPU ${f.cpuPercent.toFixed(0)} % of one core, peak RSS ${f.rssPeakMb.toFixed(0)} MB`,
    '',
    `${f.pass ? 'PASS' : 'MISS'}  p99 <= 100 ms with ${f.viewers} viewers and ${f.tables} tables  (p99 ${f.p99Ms.toFixed(1)} ms)`,
  ];
}

export async function benchDashboardCommand(argv: readonly string[], io: Output): Promise<number> {
  const { values } = parse(argv, {
    tables: { type: 'string' }, viewers: { type: 'string' }, rate: { type: 'string' }, follow: { type: 'string' },
    seconds: { type: 'string' }, json: { type: 'boolean' },
  });
  const follow = values.follow ?? 'all';
  if (follow !== 'all' && follow !== 'one') throw new UsageError('--follow must be all or one');
  const figures = await runDashboardBench({
    tables: intOption(values.tables, 'tables', 50, 1, 1000),
    viewers: intOption(values.viewers, 'viewers', 500, 1, 5000),
    rate: intOption(values.rate, 'rate', 1, 1, 50),
    follow,
    seconds: intOption(values.seconds, 'seconds', 20, 1, 600),
  }, (text) => {
    io.progress(`bench dashboard: ${text}`);
  });
  io.progress('');
  if (values.json === true) io.out(JSON.stringify(figures, null, 2));
  else for (const line of formatDashboardBench(figures)) io.out(line);
  return 0;
}

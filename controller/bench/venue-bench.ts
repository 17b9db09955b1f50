/**
 * `zaptable bench venue`: N controller processes (`zaptable start`, simulated tables played by bots) on one
 * Mosquitto, as a venue runs them (docs/venue.md: an account and a scoped ACL per controller), and V MQTT viewers
 * in this process following every table's events. Measures, over S seconds after a warm-up:
 *
 * - sensor → venue viewer latency: a viewer's receipt time minus the event's `at`, which is when the action
 *   happened on the controller's clock (the landing time of a card or barrel on the simulated stations, mapped
 *   through clock sync); one machine, one clock. p50/p99/max over every (event, viewer) delivery;
 * - the broker's and the controllers' CPU (/proc/<pid>/stat, utime + stime over the window, % of one core) and
 *   RSS (VmRSS at the end, VmHWM the peak), Linux only.
 *
 * Run for 1, 2, 4, 8 controllers to see how the cost grows. Loopback only; what a real venue adds (Wi-Fi, Pis)
 * is not in these figures.
 */
import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect, type MqttClient } from 'mqtt';
import { projectFile } from '../config/project-root.ts';
import { summarise } from '../kernel/stats.ts';
import { startMosquitto, type MosquittoUser } from './mosquitto.ts';

export interface VenueBenchOptions {
  readonly controllers: number;
  readonly tablesPerController: number;
  readonly viewers: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
  /** The simulated table's speed (`hardware.simulated.speed`): how fast the bots play. */
  readonly speed: number;
}

export interface ProcessFigures {
  readonly cpuPercent: number;
  readonly rssMb: number;
  readonly peakRssMb: number;
}

export interface VenueBenchFigures {
  readonly controllers: number;
  readonly tables: number;
  readonly viewers: number;
  readonly seconds: number;
  /** Events the controllers published in the window (as one viewer received them). */
  readonly events: number;
  readonly deliveries: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly broker: ProcessFigures;
  /** Each controller's figures, then their mean. */
  readonly controllersEach: readonly ProcessFigures[];
  readonly controllerMean: ProcessFigures;
  readonly startMs: number;
}

const BASE = 'venue-bench';
const VIEWER = { username: 'bench-viewer', password: 'bench-viewer-pass' } as const;
const CLOCK_TICKS = 100;

/** utime + stime of a process in seconds, or undefined when it is gone (Linux `/proc`). */
function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces: the fields after it start behind the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** VmRSS and VmHWM of a process, MB. */
function memoryMb(pid: number): { rss: number; peak: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return { rss: 0, peak: 0 };
  }
}

const GAMES = ['zip-zap', 'zapp-zerapp'] as const;

function controllerConfig(dir: string, index: number, options: VenueBenchOptions, url: string): string {
  const id = `pi-${index + 1}`;
  const file = path.join(dir, `${id}.yaml`);
  const tables = Array.from({ length: options.tablesPerController }, (_, t) => ({ id: `${id}-t${t + 1}`, game: GAMES[t % 2] ?? 'zip-zap' }));
  writeFileSync(file, [
    'tables:',
    ...tables.flatMap((t) => [`  - id: ${t.id}`, `    mode: ${t.game}`, '    seats: [{ id: a }, { id: b }, { id: c }]']),
    `hardware: { kind: simulated, simulated: { speed: ${options.speed}, bots: true } }`,
    `controller: { id: ${id} }`,
    'mqtt:',
    `  baseTopic: ${BASE}`,
    '  broker: external',
    `  external: { url: "${url}" }`,
    `  controller: { username: ctl-${id}, password: ctl-${id}-password }`,
    `dashboard: { enabled: false, token: ${id}-bench-token-0123456 }`,
    'log: { level: warn }',
    `storage: { directory: ${JSON.stringify(path.join(dir, id))} }`,
    '',
  ].join('\n'));
  return file;
}

function accounts(options: VenueBenchOptions): MosquittoUser[] {
  return [
    ...Array.from({ length: options.controllers }, (_, i) => {
      const id = `pi-${i + 1}`;
      return {
        username: `ctl-${id}`, password: `ctl-${id}-password`, role: 'controller' as const,
        venue: { controller: id, tables: Array.from({ length: options.tablesPerController }, (_, t) => `${id}-t${t + 1}`) },
      };
    }),
    { ...VIEWER, role: 'viewer' },
  ];
}

/** Starts `zaptable start --config file`; resolves once it runs. */
async function startController(file: string): Promise<ChildProcessByStdio<null, Readable, Readable>> {
  const child = spawn(process.execPath, [projectFile('bin', 'zaptable.mjs'), 'start', '--config', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`a controller did not start within 120 s:\n${text}`));
    }, 120_000);
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('utf8');
      if (text.includes('Press Ctrl-C to stop.')) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        resolve(child);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`a controller exited with ${String(code)} before it ran:\n${text}`));
    });
  });
}

async function viewer(url: string, i: number, onEvent: (at: number) => void): Promise<MqttClient> {
  const client = connect(url, { ...VIEWER, clientId: `${VIEWER.username}-${process.pid}-${i}`, protocolVersion: 4, reconnectPeriod: 1000 });
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => {
      resolve();
    });
    client.once('error', reject);
  });
  client.on('message', (_topic, payload) => {
    const received = Date.now();
    const at = (JSON.parse(payload.toString('utf8')) as { at?: unknown }).at;
    if (typeof at === 'number') onEvent(received - at);
  });
  await client.subscribeAsync(`${BASE}/+/events`, { qos: 1 });
  return client;
}

function figures(pid: number, cpuBefore: number | undefined, seconds: number): ProcessFigures {
  const after = cpuSeconds(pid);
  const memory = memoryMb(pid);
  const cpu = after === undefined || cpuBefore === undefined ? 0 : ((after - cpuBefore) / seconds) * 100;
  return { cpuPercent: cpu, rssMb: memory.rss, peakRssMb: memory.peak };
}

/** Runs one step (N controllers) and returns its figures; every process and file is gone afterwards. */
export async function runVenueBench(
  options: VenueBenchOptions, progress: (text: string) => void = () => undefined,
): Promise<VenueBenchFigures> {
  const dir = mkdtempSync(path.join(tmpdir(), 'zaptable-bench-venue-'));
  const broker = await startMosquitto(BASE, accounts(options));
  const children: ChildProcess[] = [];
  const clients: MqttClient[] = [];
  try {
    progress(`venue: starting ${options.controllers} controller(s)…`);
    const started = performance.now();
    children.push(...await Promise.all(Array.from({ length: options.controllers }, async (_, i) =>
      startController(controllerConfig(dir, i, options, broker.url)))));
    const startMs = performance.now() - started;
    let measuring = false;
    const latencies: number[] = [];
    let events = 0;
    for (let i = 0; i < options.viewers; i++) {
      clients.push(await viewer(broker.url, i, (ms) => {
        if (!measuring) return;
        latencies.push(ms);
        if (i === 0) events++;
      }));
    }
    progress(`venue: ${options.controllers} controller(s) running, warming up ${options.warmupSeconds} s…`);
    await new Promise((resolve) => setTimeout(resolve, options.warmupSeconds * 1000));
    const pids = children.map((c) => c.pid ?? 0);
    const brokerPid = broker.pid ?? 0;
    const before = { broker: cpuSeconds(brokerPid), controllers: pids.map(cpuSeconds) };
    measuring = true;
    progress(`venue: measuring ${options.seconds} s…`);
    const windowStart = performance.now();
    await new Promise((resolve) => setTimeout(resolve, options.seconds * 1000));
    measuring = false;
    const seconds = (performance.now() - windowStart) / 1000;
    const each = pids.map((pid, i) => figures(pid, before.controllers[i], seconds));
    const mean = (key: keyof ProcessFigures): number => each.reduce((sum, f) => sum + f[key], 0) / Math.max(1, each.length);
    const summary = summarise(latencies.length > 0 ? latencies : [0]);
    return {
      controllers: options.controllers, tables: options.controllers * options.tablesPerController, viewers: options.viewers,
      seconds, events, deliveries: latencies.length, p50Ms: summary.p50, p99Ms: summary.p99, maxMs: summary.max,
      broker: figures(brokerPid, before.broker, seconds), controllersEach: each,
      controllerMean: { cpuPercent: mean('cpuPercent'), rssMb: mean('rssMb'), peakRssMb: mean('peakRssMb') }, startMs,
    };
  } finally {
    await Promise.all(clients.map(async (c) => c.endAsync(true)));
    await Promise.all(children.map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }));
    await broker.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

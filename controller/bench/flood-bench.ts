/**
 * `zaptable bench flood`: what one client's flood of requests costs everybody else (issue 18, item 3). The
 * whole controller as `zaptable start` wires it (`ControllerApp`: SQLite event log, broker, simulated hardware
 * without bots, transport, tables) with buzzer tables, and three outside MQTT clients with their own logins:
 *
 * - a **calm referee** that sends `buzzer/score` to the last table, one request at a time, and times
 *   request → its response, and request → the state message at
 * - a **viewer** subscribed to every table's `state` (the state the request caused: the next one of that table);
 * - in the flood phase, a **flooder** (another referee login, in a process of its own as if on another machine)
 *   that publishes `--flood` requests as fast as its connection takes them, without waiting for any PUBACK:
 *   valid `buzzer/score` to the first table, wrong tokens, schema errors, and valid ones to the second table.
 *
 * Phases: idle (the calm referee alone), then flood (the calm referee measures while the flood is answered).
 * Every flood request must be answered exactly once: the bench counts the answers by kind, and a request never
 * answered is reported as lost (never a smaller denominator). RSS and heap of this process (controller, aedes
 * and the calm referee and viewer; not the flooder) are sampled every 50 ms. `--no-limits` turns the per-client limits and the embedded
 * broker's pace off, to see what they protect against.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import mqtt, { type MqttClient } from 'mqtt';
import { ControllerApp } from '../app/controller-app.ts';
import { loadConfig } from '../config/index.ts';
import { freeLoopbackPort, mosquittoProblem, startMosquitto, type BenchBroker } from './mosquitto.ts';
import type { BrokerKind } from './pipeline.ts';

export interface FloodBenchOptions {
  readonly brokers: readonly BrokerKind[];
  /** Buzzer tables (default 5). */
  readonly tables?: number;
  /** Calm requests measured per phase (default 200). */
  readonly samples?: number;
  /** Requests in the flood (default 100,000). */
  readonly flood?: number;
  /** Turn the request limits and the embedded broker's pace off. */
  readonly noLimits?: boolean;
  readonly progress?: (text: string) => void;
}

export interface LatencySummary {
  readonly samples: number;
  /** Calm requests with no answer within 10 s (counted, never dropped from the denominator silently). */
  readonly lost: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

export interface FloodRun {
  readonly broker: BrokerKind;
  readonly skipped?: string;
  readonly idle?: { readonly response: LatencySummary; readonly state: LatencySummary };
  readonly flood?: {
    readonly response: LatencySummary;
    readonly state: LatencySummary;
    readonly sent: number;
    /** Answers by status or error code. */
    readonly answers: Readonly<Record<string, number>>;
    /** Requests answered more than once (must be 0). */
    readonly duplicates: number;
    /** Requests never answered (must be 0). */
    readonly unanswered: number;
    /** From the first flood publish to the last answer, s. */
    readonly seconds: number;
  };
  readonly memory?: {
    readonly rssStartMb: number; readonly rssPeakMb: number; readonly rssEndMb: number; readonly heapEndMb: number;
  };
}

export interface FloodBenchResult {
  readonly node: string;
  readonly cpus: number;
  readonly loadAverage: number;
  readonly tables: number;
  readonly noLimits: boolean;
  readonly runs: readonly FloodRun[];
}

const BASE = 'flood';
const TOKEN = `flood-bench-token-${randomBytes(8).toString('hex')}`;
const ANSWER_TIMEOUT_MS = 10_000;
const MB = 1024 * 1024;

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;
}

function summarise(values: readonly number[], lost: number): LatencySummary {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number): number => percentile(sorted, p);
  return { samples: sorted.length, lost, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: sorted.at(-1) ?? 0 };
}

async function connect(url: string, username: string, password: string): Promise<MqttClient> {
  const c = await mqtt.connectAsync(url, {
    protocolVersion: 4, username, password, reconnectPeriod: 0, connectTimeout: 10_000,
    clientId: `${username}-${randomBytes(6).toString('hex')}`,
  });
  // As the controller's own connections: small packets leave at once.
  (c.stream as { setNoDelay?: (on: boolean) => void }).setNoDelay?.(true);
  return c;
}

/** The calm referee: one request at a time, timed to its response and to the state it causes at the viewer. */
async function measureCalm(
  referee: MqttClient, viewer: MqttClient, table: string, samples: number, keepGoing: () => boolean = () => true,
): Promise<{ response: LatencySummary; state: LatencySummary }> {
  const refereeId = referee.options.clientId ?? '';
  const responses: number[] = [];
  const states: number[] = [];
  let lost = 0;
  let waiting: { transaction: string; sent: number; response?: number; state?: number; done: () => void } | undefined;
  const onResponse = (topic: string, payload: Buffer): void => {
    if (waiting === undefined || !topic.startsWith(`${BASE}/${table}/response/`)) return;
    if ((JSON.parse(payload.toString('utf8')) as { transaction?: unknown }).transaction !== waiting.transaction) return;
    waiting.response = performance.now();
    if (waiting.state !== undefined) waiting.done();
  };
  const onState = (topic: string): void => {
    if (waiting === undefined || topic !== `${BASE}/${table}/state` || waiting.state !== undefined) return;
    waiting.state = performance.now();
    if (waiting.response !== undefined) waiting.done();
  };
  referee.on('message', onResponse);
  viewer.on('message', onState);
  try {
    for (let i = 0; i < samples && keepGoing(); i++) {
      const transaction = `calm-${randomBytes(6).toString('hex')}`;
      const outcome = await new Promise<{ response?: number; state?: number; sent: number }>((resolve) => {
        const sent = performance.now();
        const entry: NonNullable<typeof waiting> = { transaction, sent, done: () => undefined };
        const timer = setTimeout(() => {
          resolve(entry);
        }, ANSWER_TIMEOUT_MS);
        entry.done = () => {
          clearTimeout(timer);
          resolve(entry);
        };
        waiting = entry;
        referee.publish(`${BASE}/${table}/request/${refereeId}/buzzer/score`,
          JSON.stringify({ transaction, token: TOKEN, entrant: 'ana', delta: 1 }), { qos: 1 });
      });
      waiting = undefined;
      if (outcome.response === undefined || outcome.state === undefined) lost++;
      else {
        responses.push(outcome.response - outcome.sent);
        states.push(outcome.state - outcome.sent);
      }
      // A person's pace is far slower; 10 ms apart keeps the samples independent.
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    referee.off('message', onResponse);
    viewer.off('message', onState);
  }
  return { response: summarise(responses, lost), state: summarise(states, lost) };
}

/** The flooder's script, run in a process of its own (as from another machine: its CPU is not the controller's). */
const FLOODER = `
import mqtt from 'mqtt';
const [url, username, password, total, token, base, target, other] = JSON.parse(process.argv[1]);
const clientId = username + '-' + Math.random().toString(16).slice(2, 14);
const c = await mqtt.connectAsync(url, { protocolVersion: 4, username, password, clientId, reconnectPeriod: 0 });
c.stream.setNoDelay?.(true);
await c.subscribeAsync(base + '/+/response/' + clientId + '/#', { qos: 1 });
const seen = new Map();
const answers = {};
let answered = 0;
let last = performance.now();
c.on('message', (_t, payload) => {
  const r = JSON.parse(payload.toString('utf8'));
  const k = String(r.transaction);
  seen.set(k, (seen.get(k) ?? 0) + 1);
  const kind = r.status === 'ok' ? 'ok' : (r.error && r.error.code) || '?';
  answers[kind] = (answers[kind] ?? 0) + 1;
  answered++;
  last = performance.now();
});
const start = performance.now();
for (let i = 0; i < total; i++) {
  const transaction = 'f' + i;
  const body = [
    { transaction, token, entrant: 'ana', delta: 1 },
    { transaction, token: 'wrong-token-wrong-token' },
    { transaction, token, entrant: 'ana' },
    { transaction, token, entrant: 'ben', delta: 1 },
  ][i % 4];
  c.publish(base + '/' + (i % 4 === 3 ? other : target) + '/request/' + clientId + '/buzzer/score', JSON.stringify(body), { qos: 1 });
  if (i % 1000 === 999) await new Promise((r) => setImmediate(r));
}
while (answered < total && performance.now() - last < 10000) await new Promise((r) => setTimeout(r, 100));
let duplicates = 0;
for (const n of seen.values()) if (n > 1) duplicates++;
process.stdout.write(JSON.stringify({ answers, duplicates, unanswered: total - seen.size, seconds: (last - start) / 1000 }));
await c.endAsync(true);
`;

interface FlooderResult {
  readonly answers: Record<string, number>;
  readonly duplicates: number;
  readonly unanswered: number;
  readonly seconds: number;
}

async function runFlooder(o: {
  url: string; account: { username: string; password: string }; total: number; target: string; other: string;
}): Promise<FlooderResult> {
  const args = JSON.stringify([o.url, o.account.username, o.account.password, o.total, TOKEN, BASE, o.target, o.other]);
  // cwd: the repository, so that the script's `import 'mqtt'` finds the project's own package.
  const cwd = path.resolve(import.meta.dirname, '..', '..');
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', FLOODER, args], {
    cwd, maxBuffer: 16 * MB, timeout: 30 * 60_000,
  });
  return JSON.parse(stdout) as FlooderResult;
}

async function runOne(kind: BrokerKind, options: FloodBenchOptions): Promise<FloodRun> {
  if (kind === 'mosquitto') {
    const problem = mosquittoProblem();
    if (problem !== undefined) return { broker: kind, skipped: problem };
  }
  const say = options.progress ?? (() => undefined);
  const tables = Array.from({ length: options.tables ?? 5 }, (_, i) => `q${i}`);
  const accounts = {
    controller: { username: 'flood-controller', password: randomBytes(12).toString('hex'), role: 'controller' as const },
    calm: { username: 'flood-referee', password: randomBytes(12).toString('hex'), role: 'referee' as const },
    flooder: { username: 'flood-attacker', password: randomBytes(12).toString('hex'), role: 'referee' as const },
    viewer: { username: 'flood-viewer', password: randomBytes(12).toString('hex'), role: 'viewer' as const },
  };
  const dir = mkdtempSync(path.join(tmpdir(), 'zaptable-bench-flood-'));
  let external: BenchBroker | undefined;
  let app: ControllerApp | undefined;
  const clients: MqttClient[] = [];
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 50);
  try {
    if (kind === 'mosquitto') external = await startMosquitto(BASE, Object.values(accounts));
    const port = await freeLoopbackPort();
    const file = path.join(dir, 'zaptable.yaml');
    const limits = options.noLimits === true
      ? '  requests: { ratePerSecond: 1000000000, burst: 1000000000, queuePerClient: 1000000000, queueTotal: 1000000000, brokerPacePerSecond: 0 }'
      : '';
    writeFileSync(file, [
      'tables:',
      ...tables.map((id) => `  - { id: ${id}, mode: buzzer, seats: [{ id: ana, bot: false }, { id: ben, bot: false }] }`),
      'hardware: { kind: simulated, simulated: { bots: false } }',
      'mqtt:',
      `  baseTopic: ${BASE}`,
      `  broker: ${external === undefined ? 'embedded' : 'external'}`,
      `  embedded: { port: ${port} }`,
      ...(external === undefined ? [] : [`  external: { url: "${external.url}" }`]),
      `  controller: { username: ${accounts.controller.username}, password: ${accounts.controller.password} }`,
      '  clients:',
      ...[accounts.calm, accounts.flooder, accounts.viewer].map((a) => `    - { username: ${a.username}, password: ${a.password}, role: ${a.role} }`),
      ...(limits === '' ? [] : [limits]),
      `dashboard: { enabled: false, token: ${TOKEN} }`,
      `storage: { directory: ${JSON.stringify(dir)} }`,
      '',
    ].join('\n'));
    const loaded = loadConfig({ file });
    if (!loaded.ok) throw new Error(loaded.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
    const rssStart = process.memoryUsage().rss;
    app = new ControllerApp({ config: loaded.config, say: () => undefined });
    const started = await app.start();
    const calm = await connect(started.brokerUrl, accounts.calm.username, accounts.calm.password);
    const flooder = await connect(started.brokerUrl, accounts.flooder.username, accounts.flooder.password);
    const viewer = await connect(started.brokerUrl, accounts.viewer.username, accounts.viewer.password);
    clients.push(calm, flooder, viewer);
    await calm.subscribeAsync(`${BASE}/+/response/${calm.options.clientId ?? ''}/#`, { qos: 1 });
    await flooder.subscribeAsync(`${BASE}/+/response/${flooder.options.clientId ?? ''}/#`, { qos: 1 });
    await viewer.subscribeAsync(`${BASE}/+/state`, { qos: 1 });
    const measured = tables.at(-1) ?? 'q0';
    const samples = options.samples ?? 200;
    // Warm-up (not counted): code paths compiled, SQLite pages cached.
    await measureCalm(calm, viewer, measured, 20);
    say(`${kind}: idle`);
    const idle = await measureCalm(calm, viewer, measured, samples);

    say(`${kind}: flood`);
    const total = options.flood ?? 100_000;
    const flood = runFlooder({
      url: started.brokerUrl, account: accounts.flooder, total, target: tables[0] ?? 'q0', other: tables[1] ?? 'q0',
    });
    let floodDone = false;
    void flood.finally(() => {
      floodDone = true;
    });
    // The calm referee measures while the flood is being answered (it stops early when the flood is over).
    await new Promise((resolve) => setTimeout(resolve, 200));
    const during = await measureCalm(calm, viewer, measured, samples, () => !floodDone);
    const result = await flood;
    const memory = process.memoryUsage();
    return {
      broker: kind, idle,
      flood: { ...during, sent: total, ...result },
      memory: { rssStartMb: rssStart / MB, rssPeakMb: peak / MB, rssEndMb: memory.rss / MB, heapEndMb: memory.heapUsed / MB },
    };
  } finally {
    clearInterval(sampler);
    for (const c of clients) await c.endAsync(true).catch(() => undefined);
    await app?.stop();
    await external?.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs the flood benchmark on each broker in turn. */
export async function runFloodBench(options: FloodBenchOptions): Promise<FloodBenchResult> {
  const runs: FloodRun[] = [];
  const loadAverage = loadavg()[0] ?? 0;
  for (const broker of options.brokers) runs.push(await runOne(broker, options));
  return {
    node: process.versions.node, cpus: availableParallelism(), loadAverage, tables: options.tables ?? 5,
    noLimits: options.noLimits === true, runs,
  };
}

/**
 * A venue made of real processes, for the venue tests (and for the network-cut and public-broker tests that
 * build on it): one Mosquitto venue broker with an account per controller (its ACL scoped to the controller's
 * own bridge topics and tables, docs/venue.md), controller processes (`zaptable start` on simulated tables),
 * the venue dashboard process (`zaptable dashboard`), and an MQTT watcher that reads what the venue sees.
 *
 * Processes run `bin/zaptable.mjs` (the bundle when it is current, the sources otherwise), each with its own
 * temporary folder (config, event log) and fresh ports; `VenueProcess.kill()` is a SIGKILL, `stop()` a SIGTERM.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { connect, type MqttClient } from 'mqtt';
import { freeLoopbackPort, startMosquitto, type BenchBroker, type MosquittoUser } from '../../../controller/bench/mosquitto.ts';
import { Topics } from '../../../controller/transport/topics.ts';

const root = path.resolve(import.meta.dirname, '..', '..', '..');

export const VENUE_BASE = 'venue';

/** A table of a controller: its game (or `buzzer`) and its seats. */
export interface VenueTable {
  readonly id: string;
  readonly mode: 'zapp-zerapp' | 'zip-zap' | 'killer-21' | 'buzzer';
  readonly seats: readonly string[];
}

/** One controller (one Raspberry Pi at a table): its id, tables, request token and whether bots play. */
export interface VenueControllerSpec {
  readonly id: string;
  readonly tables: readonly VenueTable[];
  /** The referee token this controller accepts (its `dashboard.token`), at least 16 characters. */
  readonly token: string;
  readonly bots: boolean;
}

/** The broker accounts besides the controllers'. */
export const DASHBOARD_USER = { username: 'venue-dashboard', password: 'venue-dashboard-pass-1' } as const;
export const REFEREE_USER = { username: 'venue-referee', password: 'venue-referee-pass-1' } as const;
export const VIEWER_USER = { username: 'venue-viewer', password: 'venue-viewer-pass-1' } as const;
/** What a browser presents to the venue dashboard (not a controller's token). */
export const VENUE_DASHBOARD_TOKEN = 'venue-dashboard-token-0123';

/** A controller's broker account: one per controller, so the ACL can keep each to its own tables. */
export function controllerUser(spec: Pick<VenueControllerSpec, 'id'>): { readonly username: string; readonly password: string } {
  return { username: `ctl-${spec.id}`, password: `ctl-${spec.id}-password-1` };
}

/**
 * The venue broker. `extraTables` are table ids a controller's account may also write (a test that restarts
 * a controller with another table list must have allowed it here: the ACL is written once, at start).
 */
export async function startVenueBroker(
  controllers: readonly VenueControllerSpec[], extraTables: Readonly<Record<string, readonly string[]>> = {},
): Promise<BenchBroker> {
  const users: MosquittoUser[] = [
    ...controllers.map((c) => ({
      ...controllerUser(c), role: 'controller' as const,
      venue: { controller: c.id, tables: [...c.tables.map((t) => t.id), ...(extraTables[c.id] ?? [])] },
    })),
    { ...DASHBOARD_USER, role: 'referee' }, { ...REFEREE_USER, role: 'referee' }, { ...VIEWER_USER, role: 'viewer' },
  ];
  return startMosquitto(VENUE_BASE, users);
}

/** Writes a controller's configuration in its own folder; returns the file. `tables` overrides the spec's. */
export function writeControllerConfig(
  spec: VenueControllerSpec, brokerUrl: string, options: { readonly dir?: string; readonly tables?: readonly VenueTable[] } = {},
): string {
  const dir = options.dir ?? mkdtempSync(path.join(tmpdir(), `zaptable-venue-${spec.id}-`));
  const file = path.join(dir, 'zaptable.yaml');
  const user = controllerUser(spec);
  writeFileSync(file, [
    'tables:',
    ...(options.tables ?? spec.tables).flatMap((t) => [
      `  - id: ${t.id}`, `    mode: ${t.mode}`, `    seats: [${t.seats.map((s) => `{ id: ${s} }`).join(', ')}]`,
    ]),
    `hardware: { kind: simulated, simulated: { speed: 1, bots: ${String(spec.bots)} } }`,
    `controller: { id: ${spec.id} }`,
    'mqtt:',
    `  baseTopic: ${VENUE_BASE}`,
    '  broker: external',
    `  external: { url: "${brokerUrl}" }`,
    `  controller: { username: ${user.username}, password: ${user.password} }`,
    `dashboard: { enabled: false, token: ${spec.token} }`,
    'log: { level: warn }',
    `storage: { directory: ${JSON.stringify(dir)} }`,
    '',
  ].join('\n'));
  return file;
}

/** Writes the venue dashboard's configuration: its broker login, its own token and each controller's token. */
export function writeDashboardConfig(brokerUrl: string, port: number, controllers: readonly VenueControllerSpec[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'zaptable-venue-dashboard-'));
  const file = path.join(dir, 'zaptable.yaml');
  writeFileSync(file, [
    'hardware: { kind: simulated }',
    'mqtt:',
    `  baseTopic: ${VENUE_BASE}`,
    '  broker: external',
    `  external: { url: "${brokerUrl}" }`,
    'dashboard:',
    `  host: 127.0.0.1`,
    `  port: ${port}`,
    `  token: ${VENUE_DASHBOARD_TOKEN}`,
    `  mqtt: { username: ${DASHBOARD_USER.username}, password: ${DASHBOARD_USER.password} }`,
    '  controllerTokens:',
    ...controllers.map((c) => `    - { controller: ${c.id}, token: ${c.token} }`),
    'log: { level: warn }',
    `storage: { directory: ${JSON.stringify(dir)} }`,
    '',
  ].join('\n'));
  return file;
}

type Child = ChildProcessByStdio<null, Readable, Readable>;

/** A `zaptable` process: its output (stdout and stderr together) and its end. */
export class VenueProcess {
  private text = '';
  private readonly exit: Promise<number | null>;

  private constructor(readonly label: string, private readonly child: Child) {
    const append = (chunk: Buffer): void => {
      this.text += chunk.toString('utf8');
    };
    child.stdout.on('data', append);
    child.stderr.on('data', append);
    this.exit = new Promise((resolve) => child.once('exit', (code) => {
      resolve(code);
    }));
  }

  /** Starts `zaptable <args>` and resolves once its output contains `ready` (rejects if it exits first). */
  static async start(label: string, args: readonly string[], ready: string | RegExp, timeoutMs = 60_000): Promise<VenueProcess> {
    const child = spawn(process.execPath, [path.join(root, 'bin', 'zaptable.mjs'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const proc = new VenueProcess(label, child);
    running.add(proc);
    await proc.waitForOutput(ready, timeoutMs);
    return proc;
  }

  output(): string {
    return this.text;
  }

  get pid(): number {
    return this.child.pid ?? 0;
  }

  /** Resolves once the output contains `what`; rejects when the process exits first or after `timeoutMs`. */
  async waitForOutput(what: string | RegExp, timeoutMs = 30_000): Promise<void> {
    const found = (): boolean => (typeof what === 'string' ? this.text.includes(what) : what.test(this.text));
    const deadline = Date.now() + timeoutMs;
    while (!found()) {
      if (this.child.exitCode !== null || this.child.signalCode !== null) throw new Error(`${this.label} exited before printing ${String(what)}:\n${this.text}`);
      if (Date.now() > deadline) throw new Error(`${this.label} did not print ${String(what)} within ${timeoutMs} ms:\n${this.text}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** SIGKILL (a Pi unplugged): nothing is said, the broker publishes the last wills. Resolves once it is gone. */
  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exit;
    running.delete(this);
  }

  /** SIGTERM (a clean stop); resolves with the exit code. */
  async stop(): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    const code = await this.exit;
    running.delete(this);
    return code;
  }

  /** Resolves with the exit code once it ends by itself. */
  async exited(): Promise<number | null> {
    return this.exit;
  }
}

const running = new Set<VenueProcess>();
process.once('exit', () => {
  for (const p of running) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
});

/** Starts a controller process; resolves once it runs (`Press Ctrl-C to stop.`). */
export async function startController(spec: VenueControllerSpec, configFile: string): Promise<VenueProcess> {
  return VenueProcess.start(`controller ${spec.id}`, ['start', '--config', configFile], 'Press Ctrl-C to stop.');
}

/** Starts the venue dashboard process; resolves once it listens. */
export async function startVenueDashboard(configFile: string): Promise<VenueProcess> {
  return VenueProcess.start('venue dashboard', ['dashboard', '--config', configFile], /dashboard: http:\/\//);
}

/** An MQTT client of the venue (viewer or referee) keeping the latest message of every topic it receives. */
export class VenueWatcher {
  readonly topics = new Topics(VENUE_BASE);
  readonly latest = new Map<string, string>();
  /** Every message in arrival order (topic, text). */
  readonly messages: { readonly topic: string; readonly text: string }[] = [];

  private constructor(readonly client: MqttClient, readonly clientId: string) {
    client.on('message', (topic, payload) => {
      const text = payload.toString('utf8');
      this.latest.set(topic, text);
      this.messages.push({ topic, text });
    });
  }

  /** `tls`: for an `mqtts://` broker with a private CA (the CA certificate's PEM text). */
  static async connect(
    url: string, user: { readonly username: string; readonly password: string }, filters: readonly string[],
    tls: { readonly ca?: string } = {},
  ): Promise<VenueWatcher> {
    const clientId = `${user.username}-${randomBytes(6).toString('hex')}`;
    const client = connect(url, { ...user, clientId, protocolVersion: 4, reconnectPeriod: 200, ...tls });
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => {
        resolve();
      });
      client.once('error', reject);
    });
    const watcher = new VenueWatcher(client, clientId);
    if (filters.length > 0) await client.subscribeAsync([...filters], { qos: 1 });
    return watcher;
  }

  json(topic: string): unknown {
    const text = this.latest.get(topic);
    return text === undefined || text.length === 0 ? undefined : JSON.parse(text) as unknown;
  }

  async close(): Promise<void> {
    await this.client.endAsync(true);
  }
}

/** Polls `check` every 50 ms until it returns a value other than undefined; rejects after `timeoutMs`. */
export async function until<T>(
  check: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A fresh loopback port (for the dashboard). */
export { freeLoopbackPort };

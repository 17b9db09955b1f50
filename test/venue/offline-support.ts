/**
 * Real processes for the venue's offline and broadcast tests: `zaptable start` as a child process on a
 * simulated table with bots, an MQTT subscriber that records what a venue (or public) viewer receives, and
 * the controller's event log read by the test itself.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { connect, type MqttClient } from 'mqtt';
import { EventLog } from '../../controller/persistence/index.ts';

const root = path.resolve(import.meta.dirname, '..', '..');

export const BASE = 'venue';
export const CONTROLLER = { username: 'zt-controller', password: 'controller-secret-1', role: 'controller' } as const;
export const REFEREE = { username: 'dashboard', password: 'dashboard-secret-1', role: 'referee' } as const;
export const VIEWER = { username: 'overlay', password: 'overlay-secret-1', role: 'viewer' } as const;
export const USERS = [CONTROLLER, REFEREE, VIEWER];

/** A `zaptable start` child process. */
export interface ControllerProcess {
  /** Resolves once it printed that it runs; rejects when it exits first (with its output). */
  readonly running: Promise<void>;
  output(): string;
  /** Ctrl-C, and waits for the exit. */
  stop(): Promise<void>;
}

/** Starts `zaptable start --config <file>`. */
export function startController(config: string): ControllerProcess {
  const child: ChildProcessByStdio<null, Readable, Readable> = spawn(
    process.execPath, [path.join(root, 'bin', 'zaptable.mjs'), 'start', '--config', config], { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let text = '';
  const collect = (chunk: Buffer): void => {
    text += chunk.toString();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => {
    resolve();
  }));
  const running = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`controller did not start:\n${text}`));
    }, 60_000);
    child.stdout.on('data', () => {
      if (text.includes('Press Ctrl-C to stop.')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`controller exited:\n${text}`));
    });
  });
  running.catch(() => undefined);
  return {
    running,
    output: () => text,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await exited;
    },
  };
}

/** The demo viewer's login on a controller's embedded broker (`mqtt.viewer`). */
export const LOCAL_VIEWER = { username: 'zaptable-viewer', password: 'local-viewer-secret-1' } as const;

/**
 * The configuration of a controller with simulated tables (bots at 10× speed): on the external broker
 * `brokerUrl`, or with `embeddedPort` on its embedded broker linked to the venue broker `brokerUrl`
 * (`mqtt.venue`).
 */
export function controllerConfig(options: {
  readonly brokerUrl: string; readonly directory: string; readonly embeddedPort?: number;
  readonly tables: readonly { readonly id: string; readonly mode: string }[];
}): string {
  const seats: Record<string, string> = {
    'zapp-zerapp': '[{ id: red }, { id: green }, { id: blue }]',
    'zip-zap': '[{ id: ada }, { id: ben }, { id: cy }]',
    'killer-21': '[{ id: ana }, { id: bo }, { id: cat }]',
  };
  return [
    'tables:',
    ...options.tables.flatMap((t) => [`  - id: ${t.id}`, `    mode: ${t.mode}`, `    seats: ${seats[t.mode] ?? ''}`]),
    'hardware:',
    '  kind: simulated',
    '  simulated: { speed: 10 }',
    'mqtt:',
    `  baseTopic: ${BASE}`,
    ...options.embeddedPort === undefined
      ? [
          '  broker: external',
          `  external: { url: ${JSON.stringify(options.brokerUrl)} }`,
          `  controller: { username: ${CONTROLLER.username}, password: ${CONTROLLER.password} }`,
        ]
      : [
          `  embedded: { port: ${options.embeddedPort} }`,
          `  viewer: { username: ${LOCAL_VIEWER.username}, password: ${LOCAL_VIEWER.password} }`,
          `  venue: { url: ${JSON.stringify(options.brokerUrl)}, username: ${CONTROLLER.username}, password: ${CONTROLLER.password} }`,
        ],
    'dashboard: { enabled: false }',
    `storage: { directory: ${JSON.stringify(options.directory)} }`,
    '',
  ].join('\n');
}

/** One message as a viewer received it. */
export interface Received {
  readonly topic: string;
  readonly text: string;
  /** Arrival time, ms (this process's clock). */
  readonly atMs: number;
}

/** An MQTT client that records every message on its subscriptions, in arrival order. */
export interface Recorder {
  readonly client: MqttClient;
  readonly messages: Received[];
  close(): Promise<void>;
}

export async function record(
  url: string, filters: readonly string[], login?: { readonly username: string; readonly password: string }, clientId?: string,
): Promise<Recorder> {
  const client = connect(url, {
    protocolVersion: 4, clean: true, reconnectPeriod: 500, clientId: clientId ?? `rec-${randomBytes(4).toString('hex')}`,
    ...(login === undefined ? {} : { username: login.username, password: login.password }),
  });
  const messages: Received[] = [];
  client.on('message', (topic, payload) => {
    messages.push({ topic, text: payload.toString('utf8'), atMs: Date.now() });
  });
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => {
      resolve();
    });
    client.once('error', reject);
  });
  await client.subscribeAsync([...filters], { qos: 1 });
  return { client, messages, close: async () => client.endAsync(true) };
}

/** The public events of one table and controller start, as the controller's log holds them (the test reads it). */
export function loggedEvents(database: string, table: string, epoch: number): ReturnType<EventLog['reader']['publicEvents']> {
  const opened = EventLog.open(database, { readonly: true });
  if (!opened.ok) throw new Error(opened.message);
  try {
    return opened.log.reader.publicEvents(table, epoch, 1, 1_000_000);
  } finally {
    opened.log.close();
  }
}

/** Waits until `ready()` holds, polling; throws with `what` after `timeoutMs`. */
export async function until(ready: () => boolean, timeoutMs: number, what: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

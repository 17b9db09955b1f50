/**
 * The whole controller (`ControllerApp`, as `zaptable start` wires it) on the simulated table, on the embedded
 * aedes broker or on a real Mosquitto, with plain mqtt.js clients acting as the outside world: a referee tool
 * (a `referee` account holding the request token) and viewers. Bots are off, so a test decides every move.
 * Tests here probe from outside exactly as an attacker with a valid viewer or referee login would.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { ControllerApp } from '../../../controller/app/controller-app.ts';
import { freeLoopbackPort, startMosquitto, type BenchBroker } from '../../../controller/bench/mosquitto.ts';
import { loadConfig } from '../../../controller/config/index.ts';
import type { ResponsePayload } from '../../../controller/transport/payloads.ts';

export type BrokerKind = 'embedded' | 'mosquitto';

/** The rig's controller id: its bridge topics are `<base>/bridge/rig/…`. */
export const RIG_CONTROLLER = 'rig';

export const BASE = 'sec';
export const CONTROLLER = { username: 'sec-controller', password: 'controller-password-1', role: 'controller' as const };
export const REFEREE = { username: 'sec-referee', password: 'referee-password-1', role: 'referee' as const };
export const VIEWER = { username: 'sec-viewer', password: 'viewer-password-1', role: 'viewer' as const };
export const TOKEN = 'security-referee-token-0123';

export interface TableSpec {
  readonly id: string;
  /** A registered game id (rules/games.ts) or `buzzer`. */
  readonly mode: string;
  readonly seats: readonly string[];
  /** Extra YAML lines for the table (indented by the caller to 4 spaces). */
  readonly extra?: readonly string[];
}

export interface RigOptions {
  readonly broker: BrokerKind;
  readonly tables: readonly TableSpec[];
  /** Reuse the storage folder of an earlier rig (a restart). */
  readonly directory?: string;
  /** Reuse an external broker (a restart on Mosquitto). */
  readonly external?: BenchBroker;
  readonly embeddedPort?: number;
  /** `mqtt.embedded.websocketPort`. */
  readonly embeddedWebsocketPort?: number;
  /** Extra YAML lines under `mqtt:` (indented by 2). */
  readonly mqttExtra?: readonly string[];
}

export interface Rig {
  readonly app: ControllerApp;
  readonly brokerUrl: string;
  readonly directory: string;
  readonly external: BenchBroker | undefined;
  readonly port: number;
  readonly lines: string[];
  /** Stops the controller (the broker stays when it is external; `dispose` ends it). */
  stop(): Promise<void>;
  dispose(): Promise<void>;
}

export function tableYaml(tables: readonly TableSpec[]): string[] {
  return tables.flatMap((t) => [
    `  - id: ${t.id}`,
    `    mode: ${t.mode}`,
    `    seats: [${t.seats.map((s) => `{ id: ${s}, bot: false }`).join(', ')}]`,
    ...(t.extra ?? []),
  ]);
}

export async function startRig(options: RigOptions): Promise<Rig> {
  const directory = options.directory ?? mkdtempSync(path.join(tmpdir(), 'zaptable-security-'));
  const external = options.broker === 'mosquitto'
    ? options.external ?? await startMosquitto(BASE, [CONTROLLER, REFEREE, VIEWER])
    : undefined;
  const port = options.embeddedPort ?? await freeLoopbackPort();
  const file = path.join(directory, 'zaptable.yaml');
  writeFileSync(file, [
    'tables:',
    ...tableYaml(options.tables),
    'hardware: { kind: simulated, simulated: { speed: 10, bots: false } }',
    `controller: { id: ${RIG_CONTROLLER} }`,
    'mqtt:',
    `  baseTopic: ${BASE}`,
    `  broker: ${external ? 'external' : 'embedded'}`,
    `  embedded: { port: ${port}${options.embeddedWebsocketPort === undefined ? '' : `, websocketPort: ${String(options.embeddedWebsocketPort)}`} }`,
    ...(external ? [`  external: { url: "${external.url}" }`] : []),
    `  controller: { username: ${CONTROLLER.username}, password: ${CONTROLLER.password} }`,
    '  clients:',
    `    - { username: ${REFEREE.username}, password: ${REFEREE.password}, role: referee }`,
    `    - { username: ${VIEWER.username}, password: ${VIEWER.password}, role: viewer }`,
    ...(options.mqttExtra ?? []),
    `dashboard: { enabled: false, token: ${TOKEN} }`,
    `storage: { directory: ${JSON.stringify(directory)} }`,
    '',
  ].join('\n'));
  const loaded = loadConfig({ file });
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
  const lines: string[] = [];
  const app = new ControllerApp({ config: loaded.config, say: (line) => lines.push(line) });
  const started = await app.start();
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await app.stop();
  };
  return {
    app, brokerUrl: started.brokerUrl, directory, external, port, lines, stop,
    async dispose() {
      await stop();
      await external?.dispose();
    },
  };
}

/** A plain mqtt.js client (MQTT 3.1.1, no reconnection) with a random client id unless one is given. */
export async function client(
  url: string, account: { username: string; password: string }, clientId?: string,
): Promise<MqttClient> {
  return mqtt.connectAsync(url, {
    protocolVersion: 4, username: account.username, password: account.password, reconnectPeriod: 0, connectTimeout: 10_000,
    clientId: clientId ?? `outside-${randomBytes(6).toString('hex')}`,
  });
}

/** Everything a client receives, in order, with a way to wait for a message. */
export class Inbox {
  readonly messages: { topic: string; text: string; retained: boolean }[] = [];
  private readonly wakers = new Set<() => void>();

  constructor(readonly client: MqttClient) {
    client.on('message', (topic, payload, packet) => {
      this.messages.push({ topic, text: payload.toString('utf8'), retained: packet.retain });
      for (const wake of this.wakers) wake();
    });
  }

  async waitFor<T>(find: () => T | undefined, what: string, timeoutMs = 10_000): Promise<T> {
    const now = find();
    if (now !== undefined) return now;
    return new Promise((resolve, reject) => {
      const wake = (): void => {
        const found = find();
        if (found === undefined) return;
        cleanup();
        resolve(found);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out waiting for ${what}; last messages: ${JSON.stringify(this.messages.slice(-5))}`));
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        this.wakers.delete(wake);
      };
      this.wakers.add(wake);
    });
  }

  /** The JSON messages received on topics starting with `prefix`. */
  json(prefix: string): unknown[] {
    return this.messages.filter((m) => m.topic.startsWith(prefix) && m.text.startsWith('{')).map((m) => JSON.parse(m.text) as unknown);
  }
}

/** A referee tool: sends requests on its own request topic and reads the answers on its own response topic. */
export class Referee {
  readonly inbox: Inbox;
  private counter = 0;

  private constructor(readonly mqttClient: MqttClient, readonly clientId: string) {
    this.inbox = new Inbox(mqttClient);
  }

  static async connect(url: string, clientId = `referee-${randomBytes(6).toString('hex')}`): Promise<Referee> {
    const c = await client(url, REFEREE, clientId);
    const referee = new Referee(c, clientId);
    await c.subscribeAsync(`${BASE}/+/response/${clientId}/#`, { qos: 1 });
    return referee;
  }

  requestTopic(table: string, name: string): string {
    return `${BASE}/${table}/request/${this.clientId}/${name}`;
  }

  /** Publishes raw text on a request topic (which may be malformed on purpose). */
  async publishRaw(topic: string, text: string | Buffer): Promise<void> {
    await this.mqttClient.publishAsync(topic, text, { qos: 1 });
  }

  /**
   * Sends a request (with the token unless `token: null`) and waits for the response with its transaction. A
   * RATE_LIMITED answer is followed, as a well-behaved client does: the same transaction again after
   * `retryAfterMs` (unless `retryLimited: false`).
   */
  async request(
    table: string, name: string, params: Record<string, unknown> = {},
    options: { token?: string | null; transaction?: string; retryLimited?: boolean } = {},
  ): Promise<ResponsePayload> {
    const transaction = options.transaction ?? `${this.clientId}-${++this.counter}`;
    const token = options.token === undefined ? TOKEN : options.token;
    const body = { ...params, transaction, ...(token === null ? {} : { token }) };
    for (;;) {
      const mine = (): ResponsePayload[] => this.responses().filter((r) => r.transaction === transaction);
      const before = mine().length;
      await this.publishRaw(this.requestTopic(table, name), JSON.stringify(body));
      const answer = await this.inbox.waitFor(() => mine()[before], `response ${transaction}`);
      if (answer.status === 'ok' || answer.error.code !== 'RATE_LIMITED' || options.retryLimited === false) return answer;
      await new Promise((resolve) => setTimeout(resolve, answer.error.retryAfterMs ?? 100));
    }
  }

  /** Every response received. */
  responses(): ResponsePayload[] {
    return this.inbox.json(`${BASE}/`).filter((r): r is ResponsePayload => typeof r === 'object' && r !== null && 'status' in r);
  }

  async close(): Promise<void> {
    await this.mqttClient.endAsync(true);
  }
}

/** Both brokers, for `describe.each`. */
export const BROKERS: readonly BrokerKind[] = ['embedded', 'mosquitto'];

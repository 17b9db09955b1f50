/**
 * The dashboard's one MQTT connection (as the `dashboard.mqtt` identity, role `referee`). It subscribes to the
 * public topics of every table under the base topic, keeps the latest value of every retained topic (the
 * snapshot a browser gets on connect) and the last events of each table (the history route), fans every change
 * out to listeners (`live.ts`), and relays referee requests: publish on `<table>/request/<clientId>/<name>`,
 * wait for the response with the same transaction on `<table>/response/<clientId>/<name>`, which only this
 * connection may read (docs/mqtt.md).
 *
 * Each message is parsed once here and turned into its `{topic, payload}` envelope once, as bytes, so that
 * sending it to hundreds of viewers costs no further JSON work. Events are kept once each (by `epoch` and `seq`),
 * and the ones this connection missed are asked of the table (`event-gaps.ts`) and put in their place.
 */
import { randomBytes } from 'node:crypto';
import { connect, type MqttClient } from 'mqtt';
import { fillPacketLengthCache } from '../../controller/transport/mqtt-packet-cache.ts';
import { silentLogger, type TransportLogger } from '../../controller/transport/logger.ts';
import { tlsClientOptions, tlsProblem, type MqttTlsOptions } from '../../controller/transport/mqtt-tls.ts';
import type { HealthPayload, ResponsePayload, StatePayload } from '../../controller/transport/payloads.ts';
import { DEFAULT_BASE_TOPIC, Topics, ownClientId, type ParsedTopic } from '../../controller/transport/topics.ts';
import { DashboardError } from './errors.ts';
import { EventGaps, eventNumber, type GapStats, type HistoryPage } from './event-gaps.ts';

export interface MqttHubOptions {
  /** `mqtt://host:port` or `mqtts://…`. */
  readonly url: string;
  readonly username: string;
  readonly password: string;
  /** TLS for `mqtts://` and `wss://` (the configured CA and client certificate, as PEM text). */
  readonly tls?: MqttTlsOptions;
  /** Default `zaptable`. */
  readonly baseTopic?: string;
  /**
   * Default `<username>-<random>`: two dashboards on one broker must not kick each other off, the embedded
   * broker reserves ids starting with the username to this account, and the random part keeps the id (and so
   * the response topic) unguessable on a broker that cannot reserve it.
   */
  readonly clientId?: string;
  /** How long a request waits for its response, ms. Default 12000 (the controller's own timeout is 10 s). */
  readonly requestTimeoutMs?: number;
  /** Events kept per table for the history route and the snapshot. Default 200. */
  readonly eventsPerTable?: number;
  /** Ask a table for the events this connection missed (`event-gaps.ts`). Default true; false leaves the holes. */
  readonly fillGaps?: boolean;
  /** How long `start()` waits for the first connection before resolving anyway, ms. Default 5000. */
  readonly connectWaitMs?: number;
  readonly reconnectPeriodMs?: number;
  readonly logger?: TransportLogger;
}

/** One message as the hub keeps and forwards it. */
export interface HubMessage {
  readonly topic: string;
  readonly parsed: Exclude<ParsedTopic, { readonly kind: 'request' | 'response' }>;
  /** The decoded payload: JSON, the bare availability string, or null for a cleared retained topic. */
  readonly payload: unknown;
  /** `{"topic":…,"payload":…}` as UTF-8 bytes, built once. */
  readonly frame: Buffer;
  /** Whether the topic is a retained kind (its latest value is part of the snapshot). */
  readonly retainedKind: boolean;
  /** The table the message belongs to (undefined for `bridge/…`). */
  readonly table: string | undefined;
  /** performance.now() when it arrived (for the benchmark). */
  readonly receivedAt: number;
}

/** A table as the overview lists it. */
export interface TableSummary {
  readonly id: string;
  /** The controller whose `bridge/<controller>/tables` lists it; null when none does (yet). */
  readonly controller: string | null;
  /** From `bridge/tables` when the controller publishes it. */
  readonly name: string;
  readonly status: 'online' | 'offline' | 'unknown';
  readonly mode: 'idle' | 'game' | 'buzzer' | 'unknown';
  readonly game: string | null;
  readonly seq: number | null;
  readonly at: number | null;
  readonly simulated: boolean;
  /** Extra fields of the table's `bridge/tables` entry (seats, stations, mode…), passed through. */
  readonly bridge: Readonly<Record<string, unknown>>;
  readonly stations: { readonly station: string; readonly online: boolean }[];
}

export type HubListener = (message: HubMessage) => void;

interface Pending {
  readonly table: string;
  readonly name: string;
  readonly resolve: (response: ResponsePayload) => void;
  readonly timer: NodeJS.Timeout;
}

const RETAINED_KINDS = new Set<ParsedTopic['kind']>(['bridgeStatus', 'bridgeTables', 'status', 'state', 'health']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isResponse(value: unknown): value is ResponsePayload {
  return isRecord(value) && (value.status === 'ok' || value.status === 'error') && 'transaction' in value;
}

/** Orders a table's events by (epoch, seq); events without numbers sort last. */
function byEventNumber(a: HubMessage, b: HubMessage): number {
  const na = eventNumber(a.payload);
  const nb = eventNumber(b.payload);
  const [ea, sa] = na === undefined ? [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER] : [na.epoch, na.seq];
  const [eb, sb] = nb === undefined ? [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER] : [nb.epoch, nb.seq];
  return ea - eb || sa - sb;
}

/** The envelope bytes; `payloadJson` is already valid JSON text. */
function frameOf(topic: string, payloadJson: string): Buffer {
  return Buffer.from(`{"topic":${JSON.stringify(topic)},"payload":${payloadJson}}`, 'utf8');
}

export class MqttHub {
  readonly topics: Topics;
  private readonly options: MqttHubOptions;
  private readonly logger: TransportLogger;
  private readonly retained = new Map<string, HubMessage>();
  private readonly events = new Map<string, HubMessage[]>();
  private readonly listeners = new Set<HubListener>();
  private readonly pending = new Map<string, Pending>();
  private readonly instance = randomBytes(8).toString('hex');
  private readonly clientId: string;
  private client: MqttClient | undefined;
  private counter = 0;
  private counters = { messages: 0, malformed: 0, requests: 0, timeouts: 0, duplicateEvents: 0 };
  private readonly gaps: EventGaps;

  /** Throws on an invalid base topic (a configuration error, at start-up). */
  constructor(options: MqttHubOptions) {
    this.options = options;
    this.logger = options.logger ?? silentLogger;
    this.topics = new Topics(options.baseTopic ?? DEFAULT_BASE_TOPIC);
    this.clientId = options.clientId ?? ownClientId(options.username, this.instance);
    const askHistory = async (table: string, params: { fromSeq: number; epoch: number; limit: number }): Promise<HistoryPage> => {
      const answer = await this.request(table, 'history', params);
      if (answer.status !== 'ok') throw new Error(`${answer.error.code}: ${answer.error.message}`);
      const data = answer.data;
      if (!isRecord(data) || !Array.isArray(data.events) || !(data.next === null || typeof data.next === 'number')) {
        throw new Error('the history answer is not a page of events');
      }
      return { events: data.events, next: data.next };
    };
    this.gaps = new EventGaps(askHistory, (table, events) => {
      this.putRecovered(table, events);
    }, this.eventsKept, this.logger);
  }

  private get eventsKept(): number {
    return this.options.eventsPerTable ?? 200;
  }

  /** Whether the connection to the broker is up now. */
  get connected(): boolean {
    return this.client?.connected === true;
  }

  /**
   * Connects and subscribes. Resolves once connected, or after `connectWaitMs` while the broker is still
   * unreachable (the client keeps retrying: the dashboard serves pages meanwhile and says it is offline).
   * Rejects when the broker refuses the credentials or its certificate does not verify (that will not get
   * better by retrying).
   */
  async start(): Promise<void> {
    if (this.client !== undefined) throw new Error('the MQTT hub is already started');
    // Before the first MQTT packet: mqtt-packet's length cache would otherwise pin memory for good.
    fillPacketLengthCache();
    const b = this.topics.base;
    // Exactly the public topics a referee may read (docs/mqtt.md): `<base>/#` would be refused.
    // `bridge/+/…`: every controller under the base (a venue has several, docs/venue.md).
    const filters = [this.topics.bridgeFilter('status'), this.topics.bridgeFilter('tables'), `${b}/+/status`, `${b}/+/state`, `${b}/+/events`, `${b}/+/health/+`,
      this.topics.responseFilter(this.clientId)];
    const client = connect(this.options.url, {
      username: this.options.username,
      password: this.options.password,
      clientId: this.clientId,
      protocolVersion: 4,
      clean: true,
      reconnectPeriod: this.options.reconnectPeriodMs ?? 2000,
      connectTimeout: 10_000,
      keepalive: 30,
      // No table of 65,536 pre-built packet-id buffers (6 MB of heap); see the controller's mqtt-connection.ts.
      writeCache: false,
      ...tlsClientOptions(this.options.tls),
    });
    this.client = client;
    client.on('message', (topic, payload, packet) => {
      this.onMessage(topic, payload, packet.retain);
    });
    client.on('connect', () => {
      this.logger.info('dashboard connected to mqtt', { url: this.options.url });
      client.subscribe(filters, { qos: 1 }, (error, granted) => {
        if (error) this.logger.warn('dashboard mqtt subscribe failed', { error: error.message });
        for (const g of granted ?? []) if (g.qos === 128) this.logger.warn('dashboard mqtt subscription refused', { filter: g.topic });
      });
    });
    client.on('offline', () => {
      this.logger.warn('dashboard lost mqtt', { url: this.options.url });
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        cleanup();
        resolve();
      }, this.options.connectWaitMs ?? 5000);
      const onConnect = (): void => {
        cleanup();
        resolve();
      };
      const onError = (error: Error): void => {
        const code = (error as { code?: unknown }).code;
        const tls = tlsProblem(error, this.options.tls);
        if ((typeof code === 'number' && code >= 1 && code <= 5) || tls !== undefined) {
          cleanup();
          client.end(true);
          reject(new Error(tls === undefined ? `the broker refused the dashboard's login (${error.message})` : `the broker at ${this.options.url}: ${tls}`));
        }
      };
      const cleanup = (): void => {
        clearTimeout(timer);
        client.off('connect', onConnect);
        client.off('error', onError);
      };
      client.on('connect', onConnect);
      client.on('error', onError);
    });
    // Later errors are reconnection attempts; they are logged, not thrown.
    client.on('error', (error) => {
      const tls = tlsProblem(error, this.options.tls);
      if (tls !== undefined) this.logger.warn(tls, { url: this.options.url });
      else this.logger.debug('dashboard mqtt error', { error: error.message });
    });
  }

  /** Disconnects; pending requests are answered with MQTT_UNAVAILABLE. Safe to call twice. */
  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    for (const [transaction, p] of this.pending) {
      clearTimeout(p.timer);
      this.pending.delete(transaction);
    }
    if (client !== undefined) await client.endAsync(true);
  }

  /** Called for every message (after the hub has stored it). Returns the function that unsubscribes. */
  subscribe(listener: HubListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /**
   * What a browser gets on connect: the latest value of every retained topic (bridge first, then per table
   * status, state, health), then the last `eventsPerTable` events of each table. `tables` limits it to some tables.
   */
  snapshot(tables?: ReadonlySet<string>, eventsPerTable = 30): HubMessage[] {
    const out: HubMessage[] = [];
    for (const m of this.retained.values()) if (m.table === undefined || tables === undefined || tables.has(m.table)) out.push(m);
    const rank = (m: HubMessage): number => ['bridgeStatus', 'bridgeTables', 'status', 'state', 'health'].indexOf(m.parsed.kind);
    out.sort((a, b) => rank(a) - rank(b));
    for (const [table, list] of this.events) {
      if (tables === undefined || tables.has(table)) out.push(...list.slice(-eventsPerTable));
    }
    return out;
  }

  /** Every table seen: listed in `bridge/tables` or with a message of its own. */
  tableIds(): string[] {
    const ids = new Set<string>(this.bridgeEntries().map((e) => e.id));
    for (const m of this.retained.values()) if (m.table !== undefined) ids.add(m.table);
    for (const table of this.events.keys()) ids.add(table);
    return [...ids].sort();
  }

  hasTable(id: string): boolean {
    return this.tableIds().includes(id);
  }

  /** The controller that runs a table (the first, by id, whose `bridge/<controller>/tables` lists it). */
  controllerOf(id: string): string | undefined {
    return this.bridgeEntries().find((e) => e.id === id)?.controller;
  }

  summary(id: string): TableSummary {
    const found: Record<string, unknown> = this.bridgeEntries().find((e) => e.id === id) ?? { id };
    const { controller, ...entry } = found;
    const status = this.retained.get(this.topics.status(id))?.payload;
    const state = this.state(id);
    const { id: _id, name, simulated, ...bridge } = entry;
    return {
      id, controller: typeof controller === 'string' ? controller : null,
      name: typeof name === 'string' ? name : id,
      status: status === 'online' || status === 'offline' ? status : 'unknown',
      mode: state?.mode ?? 'unknown',
      game: state?.mode === 'game' ? state.game : null,
      seq: state?.seq ?? null,
      at: state?.at ?? null,
      simulated: simulated === true,
      bridge,
      stations: this.health(id).map((h) => ({ station: h.station, online: h.online })),
    };
  }

  /** The table's retained state, or undefined before one arrived. */
  state(id: string): StatePayload | undefined {
    return this.retained.get(this.topics.state(id))?.payload as StatePayload | undefined;
  }

  status(id: string): 'online' | 'offline' | 'unknown' {
    const status = this.retained.get(this.topics.status(id))?.payload;
    return status === 'online' || status === 'offline' ? status : 'unknown';
  }

  health(id: string): HealthPayload[] {
    const out: HealthPayload[] = [];
    for (const m of this.retained.values()) {
      if (m.parsed.kind === 'health' && m.table === id && m.payload !== null) out.push(m.payload as HealthPayload);
    }
    return out.sort((a, b) => a.station.localeCompare(b.station));
  }

  /** The most recent events of a table held in memory (since the dashboard started), oldest first. */
  history(id: string, limit: number): unknown[] {
    return (this.events.get(id) ?? []).slice(-limit).map((m) => m.payload);
  }

  stats(): Readonly<typeof this.counters>
    & { readonly pending: number; readonly listeners: number; readonly gaps: Readonly<GapStats> } {
    return { ...this.counters, pending: this.pending.size, listeners: this.listeners.size, gaps: { ...this.gaps.stats } };
  }

  /**
   * Sends a request to a table as this dashboard and waits for its response. `params` must not hold
   * `token` or `transaction` (they are set here; no token for a request that needs none, `history`). Throws a
   * DashboardError: MQTT_UNAVAILABLE when the broker is not connected or refuses the publish, REQUEST_TIMEOUT
   * when no response came in time.
   */
  async request(
    table: string, name: string, params: Readonly<Record<string, unknown>>, token?: string,
  ): Promise<ResponsePayload> {
    const client = this.client;
    if (client?.connected !== true) throw new DashboardError('MQTT_UNAVAILABLE');
    const topic = this.topics.request(table, this.clientId, name);
    this.counters.requests++;
    const transaction = `dash-${this.instance}-${++this.counter}`;
    const timeoutMs = this.options.requestTimeoutMs ?? 12_000;
    const answer = new Promise<ResponsePayload>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(transaction);
        this.counters.timeouts++;
        reject(new DashboardError('REQUEST_TIMEOUT', `no response within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(transaction, { table, name, resolve, timer });
    });
    try {
      const body = { ...params, transaction, ...token === undefined ? {} : { token } };
      await client.publishAsync(topic, JSON.stringify(body), { qos: 1, retain: false });
    } catch (error) {
      const p = this.pending.get(transaction);
      if (p !== undefined) clearTimeout(p.timer);
      this.pending.delete(transaction);
      void answer.catch(() => undefined);
      throw new DashboardError('MQTT_UNAVAILABLE', error instanceof Error ? error.message : String(error));
    }
    return answer;
  }

  /** Every controller's `bridge/<controller>/tables` entries, each with its controller, controllers in id order. */
  private bridgeEntries(): (Record<string, unknown> & { readonly id: string; readonly controller: string })[] {
    const lists = [...this.retained.values()].filter((m) => m.parsed.kind === 'bridgeTables')
      .map((m) => ({ controller: 'controller' in m.parsed ? m.parsed.controller : '', payload: m.payload }))
      .sort((a, b) => a.controller.localeCompare(b.controller));
    return lists.flatMap(({ controller, payload }) => {
      if (!isRecord(payload) || !Array.isArray(payload.tables)) return [];
      return payload.tables.filter((t): t is Record<string, unknown> & { id: string } => isRecord(t) && typeof t.id === 'string')
        .map((t) => ({ ...t, controller }));
    });
  }

  private onMessage(topic: string, bytes: Buffer, _retained: boolean): void {
    const any = this.topics.parse(topic);
    if (any === null || any.kind === 'request') return;
    this.counters.messages++;
    const text = bytes.toString('utf8');
    if (any.kind === 'response') {
      this.onResponse(any.table, any.name, text);
      return;
    }
    // Narrowed by the two checks above (TypeScript cannot split the `request | response` member).
    const parsed = any as HubMessage['parsed'];
    const raw = parsed.kind === 'status' || parsed.kind === 'bridgeStatus';
    let payload: unknown = null;
    let json = 'null';
    if (text.length > 0) {
      if (raw) {
        payload = text;
        json = JSON.stringify(text);
      } else {
        try {
          payload = JSON.parse(text);
          json = text;
        } catch {
          this.counters.malformed++;
          this.logger.warn('dashboard ignored a payload that is not JSON', { topic: topic.slice(0, 200) });
          return;
        }
      }
    } else if (!RETAINED_KINDS.has(parsed.kind)) {
      return;
    }
    const message: HubMessage = {
      topic, parsed, payload, frame: frameOf(topic, json), retainedKind: RETAINED_KINDS.has(parsed.kind),
      table: 'table' in parsed ? parsed.table : undefined, receivedAt: performance.now(),
    };
    if (message.retainedKind) {
      // An empty retained message clears the topic (a removed station's health): forget it, tell browsers.
      if (text.length === 0) this.retained.delete(topic);
      else this.retained.set(topic, message);
    } else if (message.table !== undefined) {
      const number = eventNumber(payload);
      if (number !== undefined && this.holdsEvent(message.table, number)) {
        // A repeat (QoS 1 redelivery, or the controller's replay of what a broker missed): nothing new.
        this.counters.duplicateEvents++;
        return;
      }
      this.keepEvents(message.table, [message]);
      if (number !== undefined && this.options.fillGaps !== false) this.gaps.seen(message.table, number);
    }
    this.notify(message);
  }

  private holdsEvent(table: string, at: { seq: number; epoch: number }): boolean {
    return (this.events.get(table) ?? []).some((m) => {
      const n = eventNumber(m.payload);
      return n !== undefined && n.seq === at.seq && n.epoch === at.epoch;
    });
  }

  /** Adds events to a table's list, in the order they were numbered, keeping the newest `eventsKept`. */
  private keepEvents(table: string, messages: readonly HubMessage[]): void {
    const list = this.events.get(table) ?? [];
    const last = list.at(-1);
    const first = messages[0];
    list.push(...messages);
    // Sorted only when something came out of order (a replay, a gap filled): the usual event is the newest.
    // Stable: events without numbers stay where they arrived relative to each other.
    const outOfOrder = last !== undefined && first !== undefined && byEventNumber(last, first) > 0;
    if (messages.length > 1 || outOfOrder) list.sort(byEventNumber);
    if (list.length > this.eventsKept) list.splice(0, list.length - this.eventsKept);
    this.events.set(table, list);
  }

  /** Events the history request brought back: kept in their place and passed to the listeners like live ones. */
  private putRecovered(table: string, payloads: readonly unknown[]): void {
    const topic = this.topics.events(table);
    const parsed = this.topics.parse(topic) as HubMessage['parsed'];
    const fresh = payloads.filter((p) => {
      const n = eventNumber(p);
      return n !== undefined && !this.holdsEvent(table, n);
    }).map((payload): HubMessage => ({
      topic, parsed, payload, frame: frameOf(topic, JSON.stringify(payload)), retainedKind: false, table,
      receivedAt: performance.now(),
    }));
    if (fresh.length === 0) return;
    this.keepEvents(table, fresh);
    for (const message of fresh) this.notify(message);
  }

  private notify(message: HubMessage): void {
    for (const listener of this.listeners) {
      try {
        listener(message);
      } catch (error) {
        this.logger.warn('dashboard listener threw', { error: error instanceof Error ? error.message : String(error) });
      }
    }
  }

  private onResponse(table: string, name: string, text: string): void {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return;
    }
    if (!isResponse(body) || body.transaction === null) return;
    // Only this connection can read its response topic; the check stays as defence in depth.
    const pending = this.pending.get(String(body.transaction));
    // A duplicate (QoS 1 redelivery) or somebody else's request: nothing waits for it.
    if (pending === undefined || pending.table !== table || pending.name !== name) return;
    clearTimeout(pending.timer);
    this.pending.delete(String(body.transaction));
    pending.resolve(body);
  }
}

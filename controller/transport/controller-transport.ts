/**
 * The controller's side of MQTT, wired from the configuration: a bridge connection (availability of the
 * controller, the list of tables, every request) and one `TableChannel` per table, all logging in as the
 * controller's broker account, and one request dispatcher whose handlers the table runtime registers.
 *
 * Requests: the bridge subscribes to `<base>/+/request/#`, so every request is answered exactly once, also one
 * for a table this controller does not run (UNKNOWN_TABLE, on the bridge's connection); a table's responses go
 * out on that table's connection. The response topic mirrors the request topic, `request` → `response`.
 */
import { randomBytes } from 'node:crypto';
import { RequestDispatcher } from './request-dispatcher.ts';
import { silentLogger, type TransportLogger } from './logger.ts';
import { MqttConnection, type ConnectionStats, type MqttTlsOptions } from './mqtt-connection.ts';
import type { BridgeHealthPayload, BridgeTableEntry, BridgeTablesPayload } from './payloads.ts';
import type { RequestHandler, RequestName } from './requests.ts';
import type { DispatcherStats } from './request-dispatcher.ts';
import type { RequestToken } from './request-tokens.ts';
import type { RateLimitSettings } from './rate-limit.ts';
import type { RequestQueueOptions } from './request-queue.ts';
import type { TransactionStore } from './transaction-cache.ts';
import { TableChannel } from './table-channel.ts';
import { historyPage, type EventHistory } from './event-history.ts';
import { AuditTrail } from './audit-log.ts';
import { DEFAULT_BASE_TOPIC, Topics, encodePayload, isTableId, ownClientId } from './topics.ts';

export interface ControllerTransportOptions {
  /** The broker: the embedded one's `url`, or an external `mqtt://` / `mqtts://` URL. */
  readonly url: string;
  /** The controller's broker account (role `controller`). */
  readonly username: string;
  readonly password: string;
  readonly tls?: MqttTlsOptions;
  /** Default `zaptable`. */
  readonly baseTopic?: string;
  /** The tables this controller runs. */
  readonly tables: readonly string[];
  /** What `bridge/tables` tells about each table besides its id (name, mode, seats…), for dashboards. */
  readonly describe?: Readonly<Record<string, Omit<BridgeTableEntry, 'id'>>>;
  /** Tokens that may send requests. */
  readonly tokens: readonly RequestToken[];
  /**
   * MQTT client ids are `<prefix>` (bridge) and `<prefix>-<table>`. Default `<username>-<random>`: the embedded
   * broker reserves ids that start with an account's username to that account, and the random part (new at
   * every start) keeps them unguessable on a broker that cannot reserve them (Mosquitto, docs/mqtt.md).
   */
  readonly clientIdPrefix?: string;
  readonly requestTimeoutMs?: number;
  /** Requests per client (see `RequestDispatcherOptions.rateLimit`); null: no limit. */
  readonly rateLimit?: RateLimitSettings | null;
  /** The bound on requests waiting for an answer (see `RequestQueue`). */
  readonly requestQueue?: RequestQueueOptions;
  /** The start of this controller (ms since 1970), on the audit trail. Default: when the transport was made. */
  readonly epoch?: number;
  /** Where answers to transactions are kept (default in memory; the app passes the event log's). */
  readonly transactionStore?: TransactionStore;
  /**
   * Where every published event is recorded and read back (the app passes the event log's): events a table
   * could not send while disconnected are replayed at the reconnection, and the `history` request answers
   * from it (docs/venue-offline.md). Without it, events of a disconnected period are dropped.
   */
  readonly history?: EventHistory;
  readonly reconnectPeriodMs?: number;
  readonly keepaliveS?: number;
  readonly logger?: TransportLogger;
}

export interface TransportStats {
  readonly requests: DispatcherStats;
  readonly connections: Readonly<Record<string, ConnectionStats>>;
}

export class ControllerTransport {
  readonly topics: Topics;
  readonly requests: RequestDispatcher;
  private readonly options: ControllerTransportOptions;
  private readonly bridge: MqttConnection;
  private readonly channels = new Map<string, { readonly channel: TableChannel; readonly connection: MqttConnection }>();
  private readonly logger: TransportLogger;
  /** When this transport was made: the epoch when the options give none. */
  private readonly created = Date.now();

  /** Throws on an invalid base topic, table id or token (configuration errors, at start-up). */
  constructor(options: ControllerTransportOptions) {
    this.options = options;
    const logger = options.logger ?? silentLogger;
    this.topics = new Topics(options.baseTopic ?? DEFAULT_BASE_TOPIC);
    this.logger = logger;
    this.requests = new RequestDispatcher({
      tokens: options.tokens, logger, tables: options.tables,
      ...(options.transactionStore === undefined ? {} : { transactionStore: options.transactionStore }),
      ...(options.requestTimeoutMs === undefined ? {} : { timeoutMs: options.requestTimeoutMs }),
      ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }),
      ...(options.requestQueue === undefined ? {} : { queue: options.requestQueue }),
      audit: {
        trail: new AuditTrail({ epoch: options.epoch ?? this.created }),
        publish: (table, payload) => {
          this.channels.get(table)?.channel.publishAudit(payload).catch(() => undefined);
        },
      },
    });
    const epoch = options.epoch ?? this.created;
    const history = options.history;
    if (history !== undefined) {
      this.requests.onRequest('history', (params, { table }) => Promise.resolve({ ok: true, data: historyPage(history, table, epoch, params) }));
    }
    const prefix = options.clientIdPrefix ?? ownClientId(options.username, randomBytes(8).toString('hex'));
    this.bridge = this.connection(prefix, this.topics.bridgeStatus(), logger);
    for (const table of options.tables) {
      if (!isTableId(table)) throw new Error(`invalid table id ${JSON.stringify(table)}`);
      if (this.channels.has(table)) throw new Error(`table ${table} is listed twice`);
      const connection = this.connection(`${prefix}-${table}`, this.topics.status(table), logger);
      const channel = new TableChannel({
        table, topics: this.topics, connection, logger, epoch, ...(history === undefined ? {} : { history }),
      });
      this.channels.set(table, { channel, connection });
    }
  }

  /** Registers a request handler (see `RequestDispatcher.onRequest`); may be called before or after `start()`. */
  onRequest<N extends RequestName>(name: N, handler: RequestHandler<N>): () => void {
    return this.requests.onRequest(name, handler);
  }

  /** The channel of a table; throws for a table not in the options (a programmer error). */
  table(id: string): TableChannel {
    const entry = this.channels.get(id);
    if (entry === undefined) throw new Error(`no table ${JSON.stringify(id)} on this controller`);
    return entry.channel;
  }

  /** Connects everything; rejects when the broker refuses the credentials (see `MqttConnection.start`). */
  async start(): Promise<void> {
    const entries = [...this.channels.keys()].map((id) => ({ ...this.options.describe?.[id], id }));
    const tables: BridgeTablesPayload = { tables: entries };
    // Stored before connecting, so the first connect publishes it with everything else.
    void this.bridge.setRetained(this.topics.bridgeTables(), encodePayload('bridgeTables', tables));
    await this.bridge.subscribe(this.topics.requestFilter(), (topic, payload, retained) => {
      this.answerRequest(topic, payload, retained);
    });
    const channels = [...this.channels.values()].map(async ({ channel }) => channel.start());
    const results = await Promise.allSettled([this.bridge.start(), ...channels]);
    const failed = results.find((result) => result.status === 'rejected');
    if (failed !== undefined) {
      // Leave nothing half-connected behind a failed start.
      await this.stop();
      throw failed.reason;
    }
  }

  /** Publishes what was refused (retained on `<base>/bridge/health`, republished after a reconnect). */
  async publishBridgeHealth(health: BridgeHealthPayload): Promise<void> {
    await this.bridge.setRetained(this.topics.bridgeHealth(), encodePayload('bridgeHealth', health));
  }

  /** Announces `offline` everywhere and disconnects. */
  async stop(): Promise<void> {
    await Promise.all([...[...this.channels.values()].map(async ({ channel }) => channel.stop()), this.bridge.stop()]);
  }

  stats(): TransportStats {
    const connections: Record<string, ConnectionStats> = { bridge: this.bridge.stats() };
    for (const [table, { connection }] of this.channels) connections[table] = connection.stats();
    return { requests: this.requests.stats(), connections };
  }

  private answerRequest(topic: string, payload: Buffer, retained: boolean): void {
    const request = this.topics.parseRequest(topic);
    if (request === null) return;
    if (retained) {
      // A retained request would run again at every reconnect; it is never executed (docs/mqtt.md).
      this.logger.warn('retained mqtt request ignored', { table: JSON.stringify(request.table.slice(0, 80)) });
      return;
    }
    void this.requests.dispatch(request, payload).then(async (response) => {
      const channel = this.channels.get(request.table)?.channel;
      const sent = channel === undefined
        ? await this.bridge.publish(request.responseTopic, encodePayload('response', response))
        : await channel.publishResponse(request.responseTopic, response);
      if (!sent) this.logger.warn('mqtt response lost (disconnected); the requester may repeat its transaction', { table: request.table.slice(0, 80) });
    });
  }

  private connection(clientId: string, availabilityTopic: string, logger: TransportLogger): MqttConnection {
    const o = this.options;
    return new MqttConnection({
      url: o.url, username: o.username, password: o.password, clientId, availabilityTopic, logger,
      ...(o.tls === undefined ? {} : { tls: o.tls }),
      ...(o.reconnectPeriodMs === undefined ? {} : { reconnectPeriodMs: o.reconnectPeriodMs }),
      ...(o.keepaliveS === undefined ? {} : { keepaliveS: o.keepaliveS }),
    });
  }
}

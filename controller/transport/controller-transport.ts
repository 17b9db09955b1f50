/**
 * The controller's side of MQTT, wired from the configuration: a bridge connection (availability of the
 * controller, the list of tables, every request) and one `TableChannel` per table, all logging in as the
 * controller's broker account, and one request dispatcher whose handlers the table runtime registers.
 *
 * Requests: the bridge subscribes to `<base>/+/request/#`, so every request is answered exactly once, also one
 * for a table this controller does not run (UNKNOWN_TABLE, on the bridge's connection). At a venue (`venue`
 * set: other controllers may share the broker) a request to another online controller's table is left to that
 * controller, and one to a table no online controller runs is answered by the online controller with the
 * smallest id only (docs/venue.md). A table's responses go out on that table's connection. The response topic
 * mirrors the request topic, `request` → `response`.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { RequestDispatcher } from './request-dispatcher.ts';
import { silentLogger, type TransportLogger } from './logger.ts';
import { MqttConnection, type ConnectionStats, type MqttTlsOptions } from './mqtt-connection.ts';
import type { BridgeHealthPayload, BridgeTableEntry, BridgeTablesPayload, RefusedTable } from './payloads.ts';
import type { RequestHandler, RequestName } from './requests.ts';
import type { DispatcherStats } from './request-dispatcher.ts';
import type { RequestToken } from './request-tokens.ts';
import type { RateLimitSettings } from './rate-limit.ts';
import type { RequestQueueOptions } from './request-queue.ts';
import type { TransactionStore } from './transaction-cache.ts';
import { TableChannel } from './table-channel.ts';
import { historyPage, type EventHistory } from './event-history.ts';
import { AuditTrail } from './audit-log.ts';
import {
  DEFAULT_BASE_TOPIC, Topics, encodePayload, isControllerId, isTableId, ownClientId,
} from './topics.ts';
import { controllerIdOf } from '../config/controller-id.ts';
import { VenueView, type VenueNotice } from './venue.ts';

export interface ControllerTransportOptions {
  /** The broker: the embedded one's `url`, or an external `mqtt://` / `mqtts://` URL. */
  readonly url: string;
  /** The controller's broker account (role `controller`). */
  readonly username: string;
  readonly password: string;
  readonly tls?: MqttTlsOptions;
  /** Default `zaptable`. */
  readonly baseTopic?: string;
  /** This controller's id, the `<controller>` level of its bridge topics. Default: from the host name. */
  readonly controllerId?: string;
  /**
   * Set when other controllers share the broker (docs/venue.md): requests are read for this controller's own
   * tables only, `refused` is announced on `bridge/<id>/tables`, and what other controllers announce about
   * this controller's tables is reported to `onNotice` (each notice once).
   */
  readonly venue?: { readonly refused?: readonly RefusedTable[]; readonly onNotice?: (notice: VenueNotice) => void };
  /** The tables this controller runs. */
  readonly tables: readonly string[];
  /** What `bridge/tables` tells about each table besides its id (name, mode, seats…), for dashboards. */
  readonly describe?: Readonly<Record<string, Omit<BridgeTableEntry, 'id'>>>;
  /** Tokens that may send requests. */
  readonly tokens: readonly RequestToken[];
  /**
   * MQTT client ids are `<prefix>` (bridge) and `<prefix>-<table>`. Default `<username>-<controller>-<random>`: the embedded
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
  /**
   * A venue broker to link to besides `url` (docs/venue-offline.md): every table and the bridge topics are
   * published there too, each table with its own last will, and requests arriving there are answered there.
   * The tables play on `url` (the Pi's embedded broker: the table's own page, local clients) whatever the
   * venue link does; what the venue missed while unreachable is replayed from `history` at the reconnection.
   */
  readonly venueLink?: VenueLinkOptions;
  readonly reconnectPeriodMs?: number;
  readonly keepaliveS?: number;
  readonly logger?: TransportLogger;
}

/** The venue broker a controller links to besides its own (`ControllerTransportOptions.venueLink`). */
export interface VenueLinkOptions {
  readonly url: string;
  readonly username: string;
  readonly password: string;
  readonly tls?: MqttTlsOptions;
}

export interface TransportStats {
  readonly requests: DispatcherStats;
  readonly connections: Readonly<Record<string, ConnectionStats>>;
}

export class ControllerTransport {
  readonly topics: Topics;
  readonly requests: RequestDispatcher;
  readonly controllerId: string;
  private readonly options: ControllerTransportOptions;
  private readonly bridge: MqttConnection;
  /** The bridge connection to the venue broker, when linked to one. */
  private readonly venueBridge: MqttConnection | undefined;
  private readonly channels = new Map<string, {
    readonly channel: TableChannel; readonly connection: MqttConnection; readonly venue: MqttConnection | undefined;
  }>();

  private readonly logger: TransportLogger;
  private readonly venueNotices: VenueNotice[] = [];
  /** At a venue: the other controllers as their bridge topics tell (undefined alone on the broker). */
  private venueView: VenueView | undefined;
  /** When this transport was made: the epoch when the options give none. */
  private readonly created = Date.now();

  /** Throws on an invalid base topic, table id or token (configuration errors, at start-up). */
  constructor(options: ControllerTransportOptions) {
    this.options = options;
    const logger = options.logger ?? silentLogger;
    this.topics = new Topics(options.baseTopic ?? DEFAULT_BASE_TOPIC);
    this.controllerId = options.controllerId ?? controllerIdOf(hostname());
    if (!isControllerId(this.controllerId)) throw new Error(`invalid controller id ${JSON.stringify(this.controllerId)}`);
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
    const random = randomBytes(8).toString('hex');
    const prefix = options.clientIdPrefix ?? ownClientId(`${options.username}-${this.controllerId}`, random);
    this.bridge = this.connection(prefix, this.topics.bridgeStatus(this.controllerId), logger);
    const link = options.venueLink;
    // On the venue broker the ids start with the venue account's name (a zaptable broker reserves them so).
    const venuePrefix = link === undefined ? prefix
      : options.clientIdPrefix ?? ownClientId(`${link.username}-${this.controllerId}`, random);
    this.venueBridge = link === undefined ? undefined
      : this.connection(venuePrefix, this.topics.bridgeStatus(this.controllerId), logger, link);
    for (const table of options.tables) {
      if (!isTableId(table)) throw new Error(`invalid table id ${JSON.stringify(table)}`);
      if (this.channels.has(table)) throw new Error(`table ${table} is listed twice`);
      const connection = this.connection(`${prefix}-${table}`, this.topics.status(table), logger);
      const venueConnection = link === undefined ? undefined : this.connection(`${venuePrefix}-${table}`, this.topics.status(table), logger, link);
      const channel = new TableChannel({
        table, topics: this.topics, connection, logger, epoch, ...(history === undefined ? {} : { history }),
        ...(venueConnection === undefined ? {} : { mirrors: [venueConnection] }),
      });
      this.channels.set(table, { channel, connection, venue: venueConnection });
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
    const venue = this.options.venue;
    const tables: BridgeTablesPayload = {
      tables: entries, controller: this.controllerId, ...(this.options.epoch === undefined ? {} : { epoch: this.options.epoch }),
      ...(venue?.refused === undefined || venue.refused.length === 0 ? {} : { refused: venue.refused }),
    };
    // Stored before connecting, so the first connect publishes it with everything else.
    void this.bridge.setRetained(this.topics.bridgeTables(this.controllerId), encodePayload('bridgeTables', tables));
    if (venue !== undefined) await this.watchVenue(venue.onNotice);
    await this.bridge.subscribe(this.topics.requestFilter(), (topic, payload, retained) => {
      this.answerRequest(topic, payload, retained, this.bridge);
    });
    const venueBridge = this.venueBridge;
    if (venueBridge !== undefined) {
      void venueBridge.setRetained(this.topics.bridgeTables(this.controllerId), encodePayload('bridgeTables', tables));
      await venueBridge.subscribe(this.topics.requestFilter(), (topic, payload, retained) => {
        this.answerRequest(topic, payload, retained, venueBridge);
      });
      // In the background, as the tables' venue connections: the venue may be unreachable now.
      venueBridge.start().catch((error: unknown) => {
        this.logger.warn('the venue broker refused the controller', { error: error instanceof Error ? error.message : String(error) });
      });
    }
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
    this.venueBridge?.setRetained(this.topics.bridgeHealth(this.controllerId), encodePayload('bridgeHealth', health)).catch(() => undefined);
    await this.bridge.setRetained(this.topics.bridgeHealth(this.controllerId), encodePayload('bridgeHealth', health));
  }

  /** Follows the other controllers' status and tables; reports each new notice about this controller's tables once. */
  private async watchVenue(onNotice: ((notice: VenueNotice) => void) | undefined): Promise<void> {
    const view = new VenueView(this.controllerId);
    this.venueView = view;
    const mine = [...this.channels.keys()];
    const reported = new Set<string>();
    const take = (topic: string, payload: Buffer): void => {
      if (!view.take(this.topics.parse(topic), payload.toString('utf8'))) return;
      for (const notice of view.notices(mine)) {
        const key = `${notice.code}/${notice.table}/${notice.other}`;
        if (reported.has(key)) continue;
        reported.add(key);
        this.venueNotices.push(notice);
        onNotice?.(notice);
      }
    };
    await this.bridge.subscribe(this.topics.bridgeFilter('status'), take);
    await this.bridge.subscribe(this.topics.bridgeFilter('tables'), take);
  }

  /** What other controllers announced about this controller's tables since the start (see `VenueNotice`). */
  notices(): readonly VenueNotice[] {
    return this.venueNotices;
  }

  /** Announces `offline` everywhere and disconnects. */
  async stop(): Promise<void> {
    await Promise.all([
      ...[...this.channels.values()].map(async ({ channel }) => channel.stop()), this.bridge.stop(), this.venueBridge?.stop(),
    ]);
  }

  stats(): TransportStats {
    const connections: Record<string, ConnectionStats> = { bridge: this.bridge.stats() };
    if (this.venueBridge !== undefined) connections['venue:bridge'] = this.venueBridge.stats();
    for (const [table, { connection, venue }] of this.channels) {
      connections[table] = connection.stats();
      if (venue !== undefined) connections[`venue:${table}`] = venue.stats();
    }
    return { requests: this.requests.stats(), connections };
  }

  /** Answers a request that arrived on `via` (the own or the venue's bridge connection), on the same broker. */
  private answerRequest(topic: string, payload: Buffer, retained: boolean, via: MqttConnection): void {
    const request = this.topics.parseRequest(topic);
    if (request === null) return;
    if (!this.channels.has(request.table) && this.venueView?.answersFor(request.table) === false) return;
    if (retained) {
      // A retained request would run again at every reconnect; it is never executed (docs/mqtt.md).
      this.logger.warn('retained mqtt request ignored', { table: JSON.stringify(request.table.slice(0, 80)) });
      return;
    }
    void this.requests.dispatch(request, payload).then(async (response) => {
      const entry = this.channels.get(request.table);
      // A table's answers leave on that table's connection to the broker the request came from.
      const tableConnection = via === this.bridge ? entry?.connection : entry?.venue;
      const sent = entry === undefined || tableConnection === undefined
        ? await via.publish(request.responseTopic, encodePayload('response', response))
        : await entry.channel.publishResponse(request.responseTopic, response, tableConnection);
      if (!sent) this.logger.warn('mqtt response lost (disconnected); the requester may repeat its transaction', { table: request.table.slice(0, 80) });
    });
  }

  /** A connection to the own broker, or with `broker` to the venue's. */
  private connection(
    clientId: string, availabilityTopic: string, logger: TransportLogger, broker?: VenueLinkOptions,
  ): MqttConnection {
    const o = this.options;
    const b = broker ?? o;
    return new MqttConnection({
      url: b.url, username: b.username, password: b.password, clientId, availabilityTopic, logger,
      ...(b.tls === undefined ? {} : { tls: b.tls }),
      ...(o.reconnectPeriodMs === undefined ? {} : { reconnectPeriodMs: o.reconnectPeriodMs }),
      ...(o.keepaliveS === undefined ? {} : { keepaliveS: o.keepaliveS }),
    });
  }
}

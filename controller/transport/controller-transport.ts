/**
 * The controller's side of MQTT, wired from the configuration: a bridge connection (availability of the
 * controller, the list of tables) and one `TableChannel` per table, all logging in as the controller's broker
 * account, and one request dispatcher whose handlers the table runtime registers.
 */
import { RequestDispatcher } from './request-dispatcher.ts';
import { silentLogger, type TransportLogger } from './logger.ts';
import { MqttConnection, type ConnectionStats, type MqttTlsOptions } from './mqtt-connection.ts';
import type { BridgeTableEntry, BridgeTablesPayload } from './payloads.ts';
import type { RequestHandler, RequestName } from './requests.ts';
import type { DispatcherStats } from './request-dispatcher.ts';
import type { RequestToken } from './request-tokens.ts';
import { TableChannel } from './table-channel.ts';
import { DEFAULT_BASE_TOPIC, Topics, encodePayload, isTableId } from './topics.ts';

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
  /** MQTT client ids are `<prefix>` (bridge) and `<prefix>-<table>`. Default `zaptable-<base>`. */
  readonly clientIdPrefix?: string;
  readonly requestTimeoutMs?: number;
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

  /** Throws on an invalid base topic, table id or token (configuration errors, at start-up). */
  constructor(options: ControllerTransportOptions) {
    this.options = options;
    const logger = options.logger ?? silentLogger;
    this.topics = new Topics(options.baseTopic ?? DEFAULT_BASE_TOPIC);
    this.requests = new RequestDispatcher({
      tokens: options.tokens, logger, ...(options.requestTimeoutMs === undefined ? {} : { timeoutMs: options.requestTimeoutMs }),
    });
    const prefix = options.clientIdPrefix ?? `zaptable-${this.topics.base.replaceAll('/', '_')}`;
    this.bridge = this.connection(prefix, this.topics.bridgeStatus(), logger);
    for (const table of options.tables) {
      if (!isTableId(table)) throw new Error(`invalid table id ${JSON.stringify(table)}`);
      if (this.channels.has(table)) throw new Error(`table ${table} is listed twice`);
      const connection = this.connection(`${prefix}-${table}`, this.topics.status(table), logger);
      const channel = new TableChannel({ table, topics: this.topics, connection, dispatcher: this.requests, logger });
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
    const channels = [...this.channels.values()].map(async ({ channel }) => channel.start());
    const results = await Promise.allSettled([this.bridge.start(), ...channels]);
    const failed = results.find((result) => result.status === 'rejected');
    if (failed !== undefined) {
      // Leave nothing half-connected behind a failed start.
      await this.stop();
      throw failed.reason;
    }
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

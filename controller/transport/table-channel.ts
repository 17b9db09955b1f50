/**
 * One table's MQTT channel: its own connection (so the table's `status` can be that connection's last will),
 * the retained state and health, the event stream, and the responses to its requests (which the bridge
 * connection receives for every table, `controller-transport.ts`).
 */
import type { TransportLogger } from './logger.ts';
import type { MqttConnection } from './mqtt-connection.ts';
import type { HealthPayload, PublicEvent, ResponsePayload, StatePayload } from './payloads.ts';
import { encodePayload, isStationId, type Topic, type Topics } from './topics.ts';
import type { AuditPayload } from './audit-log.ts';

export interface TableChannelOptions {
  readonly table: string;
  readonly topics: Topics;
  /** A connection whose availability topic is this table's `status`. */
  readonly connection: MqttConnection;
  readonly logger: TransportLogger;
}

export class TableChannel {
  private readonly options: TableChannelOptions;

  constructor(options: TableChannelOptions) {
    this.options = options;
  }

  /** The table id. */
  get table(): string {
    return this.options.table;
  }

  /** Connects (and announces `online` once the retained values are republished). */
  async start(): Promise<void> {
    await this.options.connection.start();
  }

  /** Publishes one response (not retained); resolves false when it was dropped (disconnected). */
  async publishResponse(topic: Topic<'response'>, response: ResponsePayload): Promise<boolean> {
    return this.options.connection.publish(topic, encodePayload('response', response));
  }

  /** Announces `offline` and disconnects. */
  async stop(): Promise<void> {
    await this.options.connection.stop();
  }

  /**
   * Publishes the table's public state (retained; republished after every reconnect). Only `publicStateOf` /
   * `idleStateOf` make a `StatePayload`, so hidden information cannot get here. Resolves when the broker
   * acknowledged it, which can take until the next reconnect: callers on the game's path should not wait.
   */
  async publishState(state: StatePayload): Promise<void> {
    const { connection, topics, table } = this.options;
    await connection.setRetained(topics.state(table), encodePayload('state', state));
  }

  /** Publishes one public event (not retained). Resolves false when it was dropped (disconnected). */
  async publishEvent(event: PublicEvent): Promise<boolean> {
    const { connection, topics, table } = this.options;
    return connection.publish(topics.events(table), encodePayload('events', event));
  }

  /** Publishes a station's health (retained). A station id unfit for a topic is logged and skipped. */
  async publishHealth(health: HealthPayload): Promise<void> {
    const { connection, topics, table, logger } = this.options;
    if (!isStationId(health.station)) {
      logger.warn('station id cannot be a topic level; health not published', { table, station: JSON.stringify(health.station.slice(0, 80)) });
      return;
    }
    await connection.setRetained(topics.health(table, health.station), encodePayload('health', health));
  }

  /** Publishes the table's audit trail (retained; republished after every reconnect). */
  async publishAudit(payload: AuditPayload): Promise<void> {
    const { connection, topics, table } = this.options;
    await connection.setRetained(topics.audit(table), encodePayload('audit', payload));
  }

  /** Removes a station's retained health (after `remove-station`). */
  async clearHealth(station: string): Promise<void> {
    const { connection, topics, table } = this.options;
    if (isStationId(station)) await connection.clearRetained(topics.health(table, station));
  }
}

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
import type { EventHistory } from './event-history.ts';
import { EventLink } from './event-link.ts';

export interface TableChannelOptions {
  readonly table: string;
  readonly topics: Topics;
  /** A connection whose availability topic is this table's `status`. */
  readonly connection: MqttConnection;
  readonly logger: TransportLogger;
  /**
   * Where every event is recorded before it is sent, and read back after a reconnection: with it no event is
   * ever a hole for the subscribers (docs/venue-offline.md). Without it, events of a disconnected period are
   * dropped and the `seq` gap says so.
   */
  readonly history?: EventHistory;
  /** This controller's start, for events that do not carry their own `epoch`. */
  readonly epoch: number;
  /**
   * Further connections that get everything the table publishes, each with this table's `status` as its last
   * will: the venue broker, when the controller is linked to one besides its own (docs/venue-offline.md).
   */
  readonly mirrors?: readonly MqttConnection[];
}

export class TableChannel {
  private readonly options: TableChannelOptions;
  /** Every connection's share of the event stream (own broker first), when there is a history. */
  private readonly links: readonly EventLink[];

  constructor(options: TableChannelOptions) {
    this.options = options;
    const { history } = options;
    const events = options.topics.events(options.table);
    this.links = history === undefined
      ? []
      : this.connections().map((c) => new EventLink(c, options.table, events, history, options.logger));
  }

  /** The table id. */
  get table(): string {
    return this.options.table;
  }

  /**
   * Connects to the table's own broker (and announces `online` once the retained values are republished).
   * The mirrors (the venue's broker) connect in the background: a venue unreachable at start-up must not keep
   * the table from playing; they catch up when they connect.
   */
  async start(): Promise<void> {
    for (const mirror of this.options.mirrors ?? []) {
      mirror.start().catch((error: unknown) => {
        this.options.logger.warn('the venue broker refused the controller; this table is not on the venue', {
          table: this.options.table, error: error instanceof Error ? error.message : String(error),
        });
      });
    }
    await this.options.connection.start();
  }

  /**
   * Publishes one response (not retained) on `via`, the connection whose broker the request came from (default
   * the table's own). Resolves false when it was dropped (disconnected).
   */
  async publishResponse(topic: Topic<'response'>, response: ResponsePayload, via?: MqttConnection): Promise<boolean> {
    return (via ?? this.options.connection).publish(topic, encodePayload('response', response));
  }

  /** Announces `offline` and disconnects, on every broker. */
  async stop(): Promise<void> {
    await Promise.all(this.connections().map(async (c) => c.stop()));
  }

  /**
   * Publishes the table's public state (retained; republished after every reconnect). Only `publicStateOf` /
   * `idleStateOf` make a `StatePayload`, so hidden information cannot get here. Resolves when the broker
   * acknowledged it, which can take until the next reconnect: callers on the game's path should not wait.
   */
  async publishState(state: StatePayload): Promise<void> {
    const { topics, table } = this.options;
    await this.retain(topics.state(table), encodePayload('state', state));
  }

  /**
   * Publishes one public event (not retained) to every broker. With a history, the event is recorded first,
   * and a broker that cannot take it now (disconnected) gets it after its reconnection, in order: resolves
   * false then (not sent to the table's own broker now). Without a history, resolves false when it was dropped.
   */
  async publishEvent(event: PublicEvent): Promise<boolean> {
    const { topics, table, history, logger } = this.options;
    const payload = encodePayload('events', event);
    const live = async (): Promise<boolean> => {
      const sent = await Promise.all(this.connections().map(async (c) => c.publish(topics.events(table), payload)));
      return sent[0] ?? false;
    };
    if (history === undefined) return live();
    const epoch = event.epoch ?? this.options.epoch;
    try {
      history.record(table, epoch, event.seq, event.at, payload);
    } catch (error) {
      // Not recorded: it cannot be replayed, but it can still go out live.
      logger.warn('event not recorded in the history; a subscriber that misses it cannot fetch it', {
        table, seq: event.seq, error: error instanceof Error ? error.message : String(error),
      });
      return live();
    }
    const sent = await Promise.all(this.links.map(async (link) => link.send(epoch, event.seq, payload)));
    return sent[0] ?? false;
  }

  /** Publishes a station's health (retained). A station id unfit for a topic is logged and skipped. */
  async publishHealth(health: HealthPayload): Promise<void> {
    const { topics, table, logger } = this.options;
    if (!isStationId(health.station)) {
      logger.warn('station id cannot be a topic level; health not published', { table, station: JSON.stringify(health.station.slice(0, 80)) });
      return;
    }
    await this.retain(topics.health(table, health.station), encodePayload('health', health));
  }

  /** Publishes the table's audit trail (retained; republished after every reconnect). */
  async publishAudit(payload: AuditPayload): Promise<void> {
    const { topics, table } = this.options;
    await this.retain(topics.audit(table), encodePayload('audit', payload));
  }

  /** Removes a station's retained health (after `remove-station`). */
  async clearHealth(station: string): Promise<void> {
    const { topics, table } = this.options;
    if (!isStationId(station)) return;
    await Promise.all(this.connections().map(async (c) => c.clearRetained(topics.health(table, station))));
  }

  /** The table's own connection, then the mirrors. */
  private connections(): MqttConnection[] {
    return [this.options.connection, ...this.options.mirrors ?? []];
  }

  /** Sets a retained value on every broker; resolves when the table's own broker acknowledged it. */
  private async retain(topic: string, payload: string): Promise<void> {
    const [own, ...mirrors] = this.connections();
    for (const mirror of mirrors) mirror.setRetained(topic, payload).catch(() => undefined);
    await own?.setRetained(topic, payload);
  }
}

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
}

/** How many recorded events one read takes while replaying (a long cut is replayed in several reads). */
const REPLAY_PAGE = 1000;

export class TableChannel {
  private readonly options: TableChannelOptions;
  /**
   * The first event not sent, while some are waiting for the connection (`epoch`, `seq`). While set, newer
   * events are not sent either: they are replayed after it from the history, so the order stays the log's.
   */
  private missedFrom: { readonly epoch: number; readonly seq: number } | undefined;

  constructor(options: TableChannelOptions) {
    this.options = options;
    if (options.history !== undefined) {
      const history = options.history;
      options.connection.onReconnect(() => {
        this.replay(history);
      });
    }
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

  /**
   * Publishes one public event (not retained). With a history, the event is recorded first, and one that
   * cannot go out now (disconnected) is sent after the reconnection, in order: resolves false then (it was
   * not sent now). Without a history, resolves false when it was dropped.
   */
  async publishEvent(event: PublicEvent): Promise<boolean> {
    const { connection, topics, table, history, logger } = this.options;
    const payload = encodePayload('events', event);
    if (history === undefined) return connection.publish(topics.events(table), payload);
    const epoch = event.epoch ?? this.options.epoch;
    try {
      history.record(table, epoch, event.seq, event.at, payload);
    } catch (error) {
      // Not recorded: it cannot be replayed, but it can still go out live.
      logger.warn('event not recorded in the history; a subscriber that misses it cannot fetch it', {
        table, seq: event.seq, error: error instanceof Error ? error.message : String(error),
      });
      return connection.publish(topics.events(table), payload);
    }
    if (this.missedFrom !== undefined && this.missedFrom.epoch === epoch) return false;
    if (!connection.connected) {
      this.missedFrom = { epoch, seq: event.seq };
      return false;
    }
    const sent = await connection.publish(topics.events(table), payload);
    // A publish that failed while connected (rare: the broker refused it) is replayed with the next reconnection.
    if (!sent && (this.missedFrom === undefined || this.missedFrom.seq > event.seq)) this.missedFrom = { epoch, seq: event.seq };
    return sent;
  }

  /** Sends the events missed since `missedFrom` from the history, in one turn (called on reconnection). */
  private replay(history: EventHistory): void {
    const from = this.missedFrom;
    if (from === undefined) return;
    this.missedFrom = undefined;
    const { connection, topics, table, logger } = this.options;
    const topic = topics.events(table);
    let next = from.seq;
    let replayed = 0;
    for (;;) {
      const rows = history.read(table, from.epoch, next, REPLAY_PAGE);
      // Queued synchronously on the connection: nothing published meanwhile can overtake them.
      for (const row of rows) {
        if (!connection.connected) {
          // Dropped again half-way: the next reconnection goes on from here.
          this.missedFrom = { epoch: from.epoch, seq: row.seq };
          return;
        }
        void connection.publish(topic, row.payload);
      }
      replayed += rows.length;
      const last = rows.at(-1);
      if (last === undefined || rows.length < REPLAY_PAGE) break;
      next = last.seq + 1;
    }
    logger.info('mqtt events replayed from the log after reconnecting', { table, from: from.seq, replayed });
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

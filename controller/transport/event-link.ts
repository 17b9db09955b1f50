/**
 * One connection's share of a table's event stream: it sends each event when it can, and after a time it
 * could not (its broker unreachable: the venue network cut), it sends the missed ones from the event history at
 * the reconnection, in order, before the state is republished (docs/venue-offline.md). A table has one link
 * per broker it publishes to (its own, and the venue's when linked).
 */
import type { EventHistory, RecordedEvent } from './event-history.ts';
import type { TransportLogger } from './logger.ts';
import type { MqttConnection } from './mqtt-connection.ts';

/** How many recorded events one read takes while replaying (a long cut is replayed in several reads). */
const REPLAY_PAGE = 1000;

export class EventLink {
  /**
   * The first event not sent, while some are waiting for the connection (`epoch`, `seq`). While set, newer
   * events are not sent either: they are replayed after it from the history, so the order stays the log's.
   */
  private missedFrom: { readonly epoch: number; readonly seq: number } | undefined;

  constructor(
    readonly connection: MqttConnection,
    private readonly table: string,
    private readonly topic: string,
    private readonly history: EventHistory,
    private readonly logger: TransportLogger,
  ) {
    connection.onReconnect(() => {
      this.replay();
    });
  }

  /**
   * Sends one event already recorded in the history. Resolves true when the broker acknowledged it; false when
   * it waits for the reconnection (it will be replayed from the history then).
   */
  async send(epoch: number, seq: number, payload: string): Promise<boolean> {
    if (this.missedFrom !== undefined && this.missedFrom.epoch === epoch) return false;
    if (!this.connection.connected) {
      this.missedFrom = { epoch, seq };
      return false;
    }
    const sent = await this.connection.publish(this.topic, payload);
    // A publish that failed while connected (rare: the broker refused it) is replayed with the next reconnection.
    if (!sent && (this.missedFrom === undefined || this.missedFrom.seq > seq)) this.missedFrom = { epoch, seq };
    return sent;
  }

  /** Sends the events missed since `missedFrom` from the history, in one turn (called on reconnection). */
  private replay(): void {
    const from = this.missedFrom;
    if (from === undefined) return;
    this.missedFrom = undefined;
    let next = from.seq;
    let replayed = 0;
    for (;;) {
      let rows: readonly RecordedEvent[];
      try {
        rows = this.history.read(this.table, from.epoch, next, REPLAY_PAGE);
      } catch (error) {
        // The log cannot be read now (closing, damaged): keep the place; the next reconnection tries again.
        this.missedFrom = { epoch: from.epoch, seq: next };
        this.logger.warn('mqtt events could not be replayed from the log', {
          table: this.table, from: next, error: error instanceof Error ? error.message : String(error),
        });
        return;
      }
      for (const row of rows) {
        if (!this.connection.connected) {
          // Dropped again half-way: the next reconnection goes on from here.
          this.missedFrom = { epoch: from.epoch, seq: row.seq };
          return;
        }
        // Queued synchronously on the connection: nothing published meanwhile can overtake them.
        void this.connection.publish(this.topic, row.payload);
      }
      replayed += rows.length;
      const last = rows.at(-1);
      if (last === undefined || rows.length < REPLAY_PAGE) break;
      next = last.seq + 1;
    }
    this.logger.info('mqtt events replayed from the log after reconnecting', { table: this.table, from: from.seq, replayed });
  }
}

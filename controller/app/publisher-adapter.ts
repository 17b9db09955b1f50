/**
 * The table runtime's publisher port on top of the MQTT transport. Only the transport's `publicStateOf`,
 * `publicEventOf` and `tableEventOf` build what is published, so no hidden information can leave (principle 2).
 * Each table numbers its events; a state carries the number of the last event before it.
 */
import type { GameId } from '../rules/engine.ts';
import { getEngine } from '../rules/games.ts';
import type { PendingEvent, RuntimePublisher } from '../runtime/ports.ts';
import { publicEventOf, publicStateOf, tableEventOf, type ControllerTransport } from '../transport/index.ts';

export interface PublisherOptions {
  readonly transport: ControllerTransport;
  /** Controller time in ms for the envelopes. */
  readonly nowMs: () => number;
  /** Called when a publish fails (broker gone: the transport republishes retained values on reconnect). */
  readonly onError: (error: unknown) => void;
  /** This start of the controller (see `PublishMeta.epoch`). */
  readonly epoch: number;
}

/** The publisher, and the number of each table's last published event (for request answers). */
export function runtimePublisherOf(options: PublisherOptions): RuntimePublisher & { lastSeq(table: string): number } {
  const seqs = new Map<string, number>();
  return {
    lastSeq: (table) => seqs.get(table) ?? 0,
    state(tableId: string, game: GameId, engineState: unknown) {
      const meta = { seq: seqs.get(tableId) ?? 0, at: options.nowMs(), epoch: options.epoch };
      const payload = publicStateOf(getEngine(game), engineState, meta);
      options.transport.table(tableId).publishState(payload).catch(options.onError);
    },
    events(tableId: string, game: GameId, events: readonly PendingEvent[]) {
      const channel = options.transport.table(tableId);
      for (const pending of events) {
        // An event the public filter drops takes no number: a gap in `seq` must mean a lost message.
        const meta = { seq: (seqs.get(tableId) ?? 0) + 1, at: options.nowMs(), epoch: options.epoch };
        const event = pending.source === 'engine' ? publicEventOf(game, pending.event, meta) : tableEventOf(pending.event, meta);
        if (event === null) continue;
        seqs.set(tableId, meta.seq);
        channel.publishEvent(event).catch(options.onError);
      }
    },
  };
}

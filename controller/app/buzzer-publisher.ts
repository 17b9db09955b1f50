/**
 * The buzzer runtime's publisher port on top of the MQTT transport: `buzzerStateOf` / `buzzerEventOf` build
 * what is published. Each table numbers its events; a state carries the number of the last event before it.
 */
import type { BuzzerPublisher } from '../runtime/buzzer/ports.ts';
import { buzzerEventOf, buzzerStateOf, type ControllerTransport } from '../transport/index.ts';

export interface BuzzerPublisherOptions {
  readonly transport: ControllerTransport;
  readonly nowMs: () => number;
  readonly onError: (error: unknown) => void;
  /** This start of the controller (see `PublishMeta.epoch`). */
  readonly epoch: number;
}

export function buzzerPublisherOf(options: BuzzerPublisherOptions): BuzzerPublisher & { lastSeq(table: string): number } {
  const seqs = new Map<string, number>();
  return {
    lastSeq: (table) => seqs.get(table) ?? 0,
    state(tableId, view) {
      const payload = buzzerStateOf(view, { seq: seqs.get(tableId) ?? 0, at: options.nowMs(), epoch: options.epoch });
      options.transport.table(tableId).publishState(payload).catch(options.onError);
    },
    events(tableId, events) {
      const channel = options.transport.table(tableId);
      for (const event of events) {
        const seq = (seqs.get(tableId) ?? 0) + 1;
        seqs.set(tableId, seq);
        channel.publishEvent(buzzerEventOf(event, { seq, at: options.nowMs(), epoch: options.epoch })).catch(options.onError);
      }
    },
  };
}

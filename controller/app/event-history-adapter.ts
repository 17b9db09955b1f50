/**
 * The transport's event history (`EventHistory`) on top of the SQLite event log's `public_events`: every
 * published event is kept in the same file as the actions it came from, and read back for the venue after a
 * network cut and for `history` requests (docs/venue-offline.md).
 */
import type { EventLog } from '../persistence/index.ts';
import type { EventHistory } from '../transport/index.ts';

export function eventHistoryOf(log: EventLog): EventHistory {
  return {
    record: (table, epoch, seq, at, payload) => {
      log.appendPublicEvent(table, epoch, seq, at, payload);
    },
    read: (table, epoch, fromSeq, limit) => log.reader.publicEvents(table, epoch, fromSeq, limit),
    lastSeq: (table, epoch) => log.reader.lastPublicSeq(table, epoch),
  };
}

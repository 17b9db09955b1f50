/**
 * Where a table's published events are kept, so that none is ever a hole for the venue (docs/venue-offline.md):
 * every public event is recorded (exactly the JSON published on `<base>/<table>/events`) before it is sent;
 * a channel that could not send some replays them from here, in order, when its connection is back; and any
 * viewer asks for what it missed with the `history` request. The app backs this port with the SQLite event
 * log (`public_events`); the transport may not import persistence.
 *
 * Only public events are recorded (the branded `PublicEvent`, made by `public-view.ts`), so history can never
 * tell more than the live stream told.
 */
import type { JsonValue } from './payloads.ts';
import type { RequestData, RequestParams } from './requests.ts';

/** One recorded event: its seq and the JSON text it was published with. */
export interface RecordedEvent {
  readonly seq: number;
  readonly payload: string;
}

/** The store of published events, per table and controller start (`epoch`). */
export interface EventHistory {
  /** Records one event before it is published. Throws when the store cannot write (the event still goes out). */
  record(table: string, epoch: number, seq: number, at: number, payload: string): void;
  /** The events of `table` in `epoch` with `seq >= fromSeq`, oldest first, at most `limit`. */
  read(table: string, epoch: number, fromSeq: number, limit: number): readonly RecordedEvent[];
  /** The highest recorded seq of `table` in `epoch` (0 when none). */
  lastSeq(table: string, epoch: number): number;
}

/** How many events one `history` answer carries at most, and by default. */
export const HISTORY_MAX_EVENTS = 500;
export const HISTORY_DEFAULT_EVENTS = 200;

/**
 * The most event text one answer carries (bytes of JSON): well under the brokers' 256 KiB packet limit
 * (`MAX_PACKET_BYTES`) with the response envelope around it. A longer span is fetched in pages (`next`).
 */
export const HISTORY_MAX_BYTES = 128 * 1024;

/**
 * One page of a table's history: the events from `fromSeq` on, at most `limit` and `HISTORY_MAX_BYTES` of text
 * (at least one event whatever its size, so paging always advances).
 */
export function historyPage(
  history: EventHistory, table: string, currentEpoch: number, params: RequestParams<'history'>,
): RequestData['history'] {
  const epoch = params.epoch ?? currentEpoch;
  const limit = Math.min(params.limit ?? HISTORY_DEFAULT_EVENTS, HISTORY_MAX_EVENTS);
  const rows = history.read(table, epoch, params.fromSeq, limit);
  const events: JsonValue[] = [];
  let bytes = 0;
  for (const row of rows) {
    if (events.length > 0 && bytes + row.payload.length > HISTORY_MAX_BYTES) break;
    bytes += row.payload.length;
    events.push(JSON.parse(row.payload) as JsonValue);
  }
  const lastSeq = history.lastSeq(table, epoch);
  const last = rows[events.length - 1]?.seq;
  const next = last !== undefined && last < lastSeq ? last + 1 : null;
  return { epoch, current: epoch === currentEpoch, lastSeq, events, next };
}

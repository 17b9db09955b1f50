/**
 * The buzzer runtime's log port on top of the SQLite event log. Buzzer mode has no rules engine, so it keeps
 * no `games` row: every press is a sensor row (raw device µs, epoch, mapped µs, uncertainty in columns) and
 * every session start, applied action and refusal a system row of the table outside any game:
 *   {"buzzerSession": setup} · {"buzzer": action} · {"buzzerRefused": action, "code", "message"}
 * Replaying the `buzzer` rows after the latest `buzzerSession` rebuilds the session (recovery, export, replay).
 */
import { parseBuzzerAction, type BuzzerAction, type BuzzerSetup } from '../buzzer/index.ts';
import type { EventLog, HasReader } from '../persistence/index.ts';
import type { BuzzerLog } from '../runtime/buzzer/ports.ts';

export function buzzerLogOf(log: EventLog): BuzzerLog {
  return {
    sensor: (tableId, event) => log.appendSensor(tableId, null, event),
    session: (tableId, setup) => {
      log.appendSystem(tableId, null, { buzzerSession: setup });
    },
    action: (tableId, action) => {
      log.appendSystem(tableId, null, { buzzer: action });
    },
    refused: (tableId, action, code, message) => {
      log.appendSystem(tableId, null, { buzzerRefused: action, code, message });
    },
    commit: () => {
      log.commit();
    },
  };
}

/** One logged buzzer session of a table. */
export interface LoggedSession {
  readonly tableId: string;
  /** The log seq of the session row. */
  readonly seq: number;
  readonly setup: BuzzerSetup;
  readonly actions: readonly BuzzerAction[];
  /** Log rows that could not be read back as actions (a damaged log), with the reason. */
  readonly damaged: readonly { readonly seq: number; readonly error: string }[];
}

/** Every buzzer session of a table, oldest first. */
export function loggedSessions(log: HasReader, tableId: string): LoggedSession[] {
  type Building = LoggedSession & { actions: BuzzerAction[]; damaged: { seq: number; error: string }[] };
  const sessions: Building[] = [];
  for (const row of log.reader.tableRows(tableId, 'system')) {
    if (row.kind !== 'system') continue;
    if ('buzzerSession' in row.payload) {
      sessions.push({ tableId, seq: row.seq, setup: row.payload.buzzerSession as BuzzerSetup, actions: [], damaged: [] });
      continue;
    }
    const current = sessions.at(-1);
    if (current === undefined || !('buzzer' in row.payload)) continue;
    const parsed = parseBuzzerAction(row.payload.buzzer);
    if ('error' in parsed) current.damaged.push({ seq: row.seq, error: parsed.error });
    else current.actions.push(parsed);
  }
  return sessions;
}

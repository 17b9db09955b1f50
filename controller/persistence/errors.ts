/**
 * The event log's errors, each with a stable code (controller/README.md: errors are values with stable codes).
 * `EventLog.open` returns them as values, because a corrupted or missing file is an expected situation the
 * caller must report, not a crash. Once open, a failing write throws an `EventLogError`: the promise "nothing
 * is lost" cannot be kept any more, so the runtime must stop publishing (crash-only; a restart recovers).
 */
import Database from 'better-sqlite3';

export type EventLogErrorCode =
  /** The file is not an SQLite database, or its pages fail the integrity check. Left untouched. */
  | 'LOG_CORRUPT'
  /** The file or its folder cannot be opened (permissions, missing in read-only mode, disk). */
  | 'LOG_UNREADABLE'
  /** Another process holds the write lock longer than the busy timeout. */
  | 'LOG_BUSY'
  /** The file was written by a newer zaptable (its schema version is unknown to this one). */
  | 'LOG_TOO_NEW'
  /** A write was attempted on a log opened read-only. */
  | 'LOG_READONLY'
  /** A write failed (disk full, I/O error); the batch was rolled back and must not be published. */
  | 'LOG_WRITE_FAILED'
  /** The log was used after close(). */
  | 'LOG_CLOSED'
  /** A game id that does not name a game in progress of that table (a bug in the caller). */
  | 'GAME_NOT_OPEN'
  /** startGame for a table that still has an unfinished game (end or abandon it first). */
  | 'GAME_IN_PROGRESS';

export class EventLogError extends Error {
  /** `detail` explains the problem for people; `message` is `CODE: detail`. */
  constructor(readonly code: EventLogErrorCode, readonly detail: string, options?: { cause?: unknown }) {
    super(`${code}: ${detail}`, options);
    this.name = 'EventLogError';
  }
}

/** The SQLite result codes that mean the file's content is damaged. */
function isCorruption(code: string): boolean {
  return code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT');
}

/** Maps an exception from better-sqlite3 (or anything else) to an EventLogError with a stable code. */
export function toLogError(error: unknown, file: string, fallback: EventLogErrorCode): EventLogError {
  if (error instanceof EventLogError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof Database.SqliteError) {
    if (isCorruption(error.code)) {
      return new EventLogError('LOG_CORRUPT', `${file} is corrupted (${message}); it was left untouched`, { cause: error });
    }
    if (error.code.startsWith('SQLITE_BUSY') || error.code.startsWith('SQLITE_LOCKED')) {
      return new EventLogError('LOG_BUSY', `${file} is locked by another process (${message})`, { cause: error });
    }
    if (error.code.startsWith('SQLITE_CANTOPEN') || error.code.startsWith('SQLITE_PERM')) {
      return new EventLogError('LOG_UNREADABLE', `cannot open ${file} (${message})`, { cause: error });
    }
    if (error.code.startsWith('SQLITE_READONLY')) {
      return new EventLogError('LOG_READONLY', `${file} is read-only (${message})`, { cause: error });
    }
  }
  return new EventLogError(fallback, `${file}: ${message}`, { cause: error });
}

/**
 * Opening the SQLite file behind the event log: folders, WAL, durability, busy timeout, a quick integrity
 * check and the schema migrations. Every failure comes back as a value with a stable code, and a damaged file
 * is never modified (nothing is written before the check has passed).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { reject, type Result } from '../kernel/result.ts';
import { toLogError, type EventLogErrorCode } from './errors.ts';
import { MIGRATIONS, SCHEMA_VERSION } from './schema.ts';

/**
 * How far a committed batch survives:
 * - `process` (default): `synchronous=NORMAL` in WAL mode. A commit is a write() into the WAL without fsync;
 *   it survives the process being killed (SIGKILL, OOM, crash) because the OS page cache holds it, but a power
 *   loss or kernel panic may lose the last transactions (never corrupt the file). Cheap: no fsync per batch.
 * - `power`: `synchronous=FULL`. Every commit fsyncs the WAL, so it survives a power cut too, at the price of
 *   one fsync per batch (milliseconds on an SD card) — use it with a UPS-less Pi where every press matters.
 */
export type Durability = 'process' | 'power';

export interface OpenOptions {
  /** See `Durability`. Default `process`. */
  readonly durability?: Durability;
  /** How long a write waits for another connection's lock before failing with LOG_BUSY. Default 5000 ms. */
  readonly busyTimeoutMs?: number;
  /**
   * The integrity check at open: `quick` (PRAGMA quick_check: every page's structure, O(file size), skips
   * index/content cross-checks) by default, `full` (PRAGMA integrity_check), or `none`.
   */
  readonly check?: 'quick' | 'full' | 'none';
  /** Open an existing log for reading only (history, replay, disputes) — safe next to a running controller. */
  readonly readonly?: boolean;
}

export type OpenDatabaseResult = Result<{ readonly db: Database.Database }, EventLogErrorCode>;

function integrityProblems(db: Database.Database, check: 'quick' | 'full'): string[] {
  const pragma = check === 'quick' ? 'quick_check(20)' : 'integrity_check(20)';
  const rows = db.pragma(pragma) as Record<string, unknown>[];
  const messages = rows.map((r) => String(Object.values(r)[0]));
  return messages.length === 1 && messages[0] === 'ok' ? [] : messages;
}

function migrate(db: Database.Database, file: string, readonly: boolean): OpenDatabaseResult | undefined {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    return reject('LOG_TOO_NEW', `${file} has schema version ${version}; this zaptable knows up to ${SCHEMA_VERSION}`);
  }
  if (version === 0) {
    // A version-0 file with tables belongs to something else: do not add ours to it.
    const tables = db.prepare('SELECT count(*) FROM sqlite_master').pluck().get() as number;
    if (tables > 0 || readonly) return reject('LOG_UNREADABLE', `${file} is not a zaptable event log`);
  }
  if (version < SCHEMA_VERSION && readonly) {
    return reject('LOG_UNREADABLE', `${file} has schema version ${version}; open it read-write once to migrate`);
  }
  for (let v = version; v < SCHEMA_VERSION; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v] as string);
      db.pragma(`user_version = ${v + 1}`);
    }).immediate();
  }
  return undefined;
}

/** Opens (creating it and its folders unless read-only) and checks the log database. */
export function openDatabase(file: string, options: OpenOptions = {}): OpenDatabaseResult {
  const readonly = options.readonly ?? false;
  let db: Database.Database | undefined;
  try {
    if (!readonly) mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    db = new Database(file, { readonly, fileMustExist: readonly, timeout: options.busyTimeoutMs ?? 5000 });
    // The check runs before anything is written, so a damaged file stays exactly as it was found.
    const check = options.check ?? 'quick';
    const problems = check === 'none' ? [] : integrityProblems(db, check);
    if (problems.length > 0) {
      db.close();
      return reject('LOG_CORRUPT', `${file} failed the integrity check: ${problems.slice(0, 3).join('; ')}; it was left untouched`);
    }
    if (!readonly) db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.durability === 'power' ? 'FULL' : 'NORMAL'}`);
    db.pragma('foreign_keys = ON');
    const failed = migrate(db, file, readonly);
    if (failed !== undefined) {
      db.close();
      return failed;
    }
    return { ok: true, db };
  } catch (error) {
    db?.close();
    const e = toLogError(error, file, 'LOG_UNREADABLE');
    return reject(e.code, e.detail);
  }
}

/**
 * An online backup of the event log, taken while the controller keeps writing: SQLite's backup API
 * (better-sqlite3's `db.backup()`) copies a consistent snapshot of the pages — every committed transaction up
 * to a moment, nothing half-written — into a temporary file beside the target. The copy is then made a single
 * self-contained file (rollback journal instead of WAL), checked with `PRAGMA integrity_check` and its schema,
 * and only then renamed to the name asked for. A failed or interrupted backup never leaves a file under that
 * name, and an existing file is never overwritten.
 *
 * Why one step: the backup API restarts when another connection writes to the source between two steps, and
 * the controller commits every few milliseconds during play; copying everything in one step reads one WAL
 * snapshot, which the writer does not wait for (WAL readers never block the writer).
 */
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from './database.ts';
import type { EventLogErrorCode } from './errors.ts';
import { toLogError } from './errors.ts';

export type BackupErrorCode = EventLogErrorCode | 'BACKUP_EXISTS' | 'BACKUP_FAILED';

export type BackupResult =
  | {
    readonly ok: true;
    readonly file: string;
    readonly bytes: number;
    readonly games: number;
    readonly rows: number;
    /** The highest seq in the copy: every row up to it was committed when the snapshot was taken. */
    readonly lastSeq: number;
    readonly ms: number;
  }
  | { readonly ok: false; readonly code: BackupErrorCode; readonly message: string };

/** Copies the log `file` to `target` while it is in use (see the module comment). */
export async function backupLog(
  file: string, target: string, options: { readonly busyTimeoutMs?: number } = {},
): Promise<BackupResult> {
  const started = performance.now();
  if (existsSync(target)) return { ok: false, code: 'BACKUP_EXISTS', message: `${target} already exists; choose a new name (nothing was written)` };
  if (path.resolve(file) === path.resolve(target)) return { ok: false, code: 'BACKUP_EXISTS', message: 'the backup cannot be the log itself' };
  const source = openDatabase(file, { readonly: true, check: 'none', busyTimeoutMs: options.busyTimeoutMs ?? 5000 });
  if (!source.ok) return source;
  mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
  const partial = `${target}.partial-${process.pid}`;
  try {
    // The first step copies 100 pages; the progress callback then asks for all the rest in one step.
    await source.db.backup(partial, { progress: ({ totalPages }) => Math.max(totalPages, 1) });
  } catch (error) {
    rmSync(partial, { force: true });
    const e = toLogError(error, file, 'LOG_UNREADABLE');
    return { ok: false, code: e.code === 'LOG_UNREADABLE' ? 'BACKUP_FAILED' : e.code, message: e.detail };
  } finally {
    source.db.close();
  }
  const checked = openDatabase(partial, { check: 'full' });
  if (!checked.ok) {
    rmSync(partial, { force: true });
    return { ok: false, code: 'BACKUP_FAILED', message: `the copy failed its check (${checked.code}: ${checked.message}); nothing was kept` };
  }
  let counts: { games: number; rows: number; lastSeq: number };
  try {
    // One file to carry away: no -wal beside it.
    checked.db.pragma('journal_mode = DELETE');
    counts = {
      games: checked.db.prepare('SELECT count(*) FROM games').pluck().get() as number,
      rows: checked.db.prepare('SELECT count(*) FROM log').pluck().get() as number,
      lastSeq: (checked.db.prepare('SELECT max(seq) FROM log').pluck().get() as number | null) ?? 0,
    };
  } finally {
    checked.db.close();
  }
  if (existsSync(target)) {
    rmSync(partial, { force: true });
    return { ok: false, code: 'BACKUP_EXISTS', message: `${target} appeared while the backup ran; the copy was dropped` };
  }
  renameSync(partial, target);
  return { ok: true, file: target, bytes: statSync(target).size, ...counts, ms: performance.now() - started };
}

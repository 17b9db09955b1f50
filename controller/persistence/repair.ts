/**
 * Getting out of a damaged log (`LOG_CORRUPT`): `exportReadable` reads every row SQLite can still read,
 * without the integrity check and without writing; `repairLog` copies those rows into a fresh log file
 * (same schema, same seq and game ids, so history and replay keep working) and keeps the damaged file beside
 * it, untouched, for a person to inspect. What could not be read is counted, never guessed.
 */
import { existsSync, renameSync } from 'node:fs';
import Database from 'better-sqlite3';
import { reject, type Rejection } from '../kernel/result.ts';
import { openDatabase } from './database.ts';

/** The tables copied, with their key column (read in key order, in batches, skipping what fails). */
const TABLES = [
  { name: 'games', key: 'id' },
  { name: 'log', key: 'seq' },
  { name: 'snapshots', key: 'rowid' },
  { name: 'answers', key: 'rowid' },
] as const;

export interface ReadableRows {
  /** Rows per table that could be read. */
  readonly tables: Readonly<Record<string, readonly Record<string, unknown>[]>>;
  /** Per table, how many reads failed (a batch, then each row of it, is tried). */
  readonly unreadable: Readonly<Record<string, number>>;
}

export type RepairResult =
  | { readonly ok: true; readonly copied: Readonly<Record<string, number>>; readonly unreadable: Readonly<Record<string, number>>;
    readonly damagedCopy: string; }
  | Rejection<'LOG_UNREADABLE' | 'LOG_CORRUPT'>;

function readTable(db: Database.Database, name: string, key: string): { rows: Record<string, unknown>[]; failed: number } {
  const rows: Record<string, unknown>[] = [];
  let failed = 0;
  let max: number;
  try {
    max = Number(db.prepare(`SELECT max(${key}) FROM ${name}`).pluck().get() ?? 0);
  } catch {
    return { rows, failed: 1 };
  }
  const batch = db.prepare(`SELECT * FROM ${name} WHERE ${key} > ? AND ${key} <= ? ORDER BY ${key}`);
  for (let from = 0; from < max; from += 500) {
    try {
      rows.push(...(batch.all(from, from + 500) as Record<string, unknown>[]));
    } catch {
      // A damaged page: try the rows of this batch one by one.
      for (let k = from + 1; k <= from + 500; k++) {
        try {
          rows.push(...(batch.all(k - 1, k) as Record<string, unknown>[]));
        } catch {
          failed++;
        }
      }
    }
  }
  return { rows, failed };
}

/** Every row SQLite can still read from `file` (opened read-only, without the integrity check). */
export function exportReadable(file: string): ReadableRows | { readonly error: string } {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    return { error: `cannot open ${file}: ${(error as Error).message}` };
  }
  try {
    const tables: Record<string, Record<string, unknown>[]> = {};
    const unreadable: Record<string, number> = {};
    for (const { name, key } of TABLES) {
      const read = readTable(db, name, key);
      tables[name] = read.rows;
      unreadable[name] = read.failed;
    }
    return { tables, unreadable };
  } finally {
    db.close();
  }
}

/**
 * Copies the readable rows of `file` into a new log, then puts the new log in its place and the damaged one at
 * `<file>.damaged-<time>`. The controller must not be running on the file.
 */
export function repairLog(file: string, now: () => number = Date.now): RepairResult {
  if (!existsSync(file)) return reject('LOG_UNREADABLE', `${file} does not exist`);
  const readable = exportReadable(file);
  if ('error' in readable) return reject('LOG_UNREADABLE', readable.error);
  const fresh = `${file}.repairing-${now()}`;
  const opened = openDatabase(fresh);
  if (!opened.ok) return reject('LOG_UNREADABLE', opened.message);
  const db = opened.db;
  const copied: Record<string, number> = {};
  try {
    db.transaction(() => {
      for (const { name } of TABLES) {
        const rows = readable.tables[name] ?? [];
        copied[name] = 0;
        // Only the columns this schema has; a row that breaks a constraint (a log row of a lost game) is left out.
        const columns = (db.pragma(`table_info(${name})`) as { name: string }[]).map((c) => c.name);
        const insert = db.prepare(`INSERT INTO ${name} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
        for (const row of rows) {
          try {
            insert.run(...columns.map((c) => row[c] ?? null));
            copied[name]++;
          } catch {
            // Counted below as unreadable: it cannot be kept consistently.
          }
        }
      }
    })();
  } finally {
    db.close();
  }
  const unreadable: Record<string, number> = {};
  for (const { name } of TABLES) {
    const read = readable.tables[name]?.length ?? 0;
    unreadable[name] = (readable.unreadable[name] ?? 0) + read - (copied[name] ?? 0);
  }
  const damagedCopy = `${file}.damaged-${now()}`;
  renameSync(file, damagedCopy);
  for (const suffix of ['-wal', '-shm']) if (existsSync(file + suffix)) renameSync(file + suffix, damagedCopy + suffix);
  renameSync(fresh, file);
  for (const suffix of ['-wal', '-shm']) if (existsSync(fresh + suffix)) renameSync(fresh + suffix, file + suffix);
  return { ok: true, copied, unreadable, damagedCopy };
}

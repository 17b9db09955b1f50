/**
 * Getting out of a damaged log (`LOG_CORRUPT`): `exportReadable` reads every row that can still be read,
 * without the integrity check and without writing; `repairLog` copies those rows into a fresh log file (same
 * schema, same seq and game ids, so history and replay keep working) and keeps the damaged file beside it,
 * untouched, for a person to inspect.
 *
 * Two readers, so that a row survives whenever the pages holding it do: SQLite (every row it can reach through
 * the b-tree, in batches, row by row where a batch hits a damaged page), and — when SQLite cannot open the
 * file, its quick check fails or a read failed — the page reader (page-reader.ts), which decodes every intact
 * leaf page on its own, also with the header, the schema page or the last page lost. A row both read is taken
 * from SQLite when its JSON columns parse (SQLite does not check what an overflow page holds). A game whose row was lost is rebuilt from its `game-started` log row (which carries the setup)
 * and its `game-ended` row; its log rows are kept with it. What could not be read is counted, never guessed.
 */
import { existsSync, renameSync } from 'node:fs';
import Database from 'better-sqlite3';
import { reject, type Rejection } from '../kernel/result.ts';
import { openDatabase } from './database.ts';
import { emptyTables, LOG_TABLE_COLUMNS, readLogPages, rowLooksWhole, type LogTableName, type RawRow } from './page-reader.ts';

type Tables = Record<LogTableName, Map<number, RawRow>>;

/** The tables copied, with their key column (read in key order, in batches, skipping what fails). */
const TABLES = [
  { name: 'games', key: 'id' },
  { name: 'log', key: 'seq' },
  { name: 'snapshots', key: 'rowid' },
  { name: 'answers', key: 'rowid' },
  // Every event as it was published (migration 4): what `history` and the venue's replay serve.
  { name: 'public_events', key: 'rowid' },
] as const;

export interface ReadableRows {
  /** Rows per table that could be read, in key order. */
  readonly tables: Readonly<Record<string, readonly Record<string, unknown>[]>>;
  /**
   * Per table, rows known to be lost: the gaps in `games.id` and `log.seq` (both are numbered without gaps, so
   * a missing number is a lost row, except rows after the last one read, which nothing can count), and for
   * `snapshots`, `answers` and `public_events` the records found but not decodable.
   */
  readonly unreadable: Readonly<Record<string, number>>;
  /** Game rows rebuilt from their `game-started` and `game-ended` log rows. */
  readonly rebuiltGames: number;
  /** `sqlite`: SQLite read the whole file; `pages`: the page reader was needed too. */
  readonly reader: 'sqlite' | 'pages';
}

export type RepairResult =
  | { readonly ok: true; readonly copied: Readonly<Record<string, number>>; readonly unreadable: Readonly<Record<string, number>>;
    readonly rebuiltGames: number; readonly damagedCopy: string; }
  | Rejection<'LOG_UNREADABLE' | 'LOG_CORRUPT'>;

function readTable(db: Database.Database, name: string, key: string): { rows: Map<number, RawRow>; failed: number } {
  const rows = new Map<number, RawRow>();
  let failed = 0;
  let max: number;
  try {
    max = Number(db.prepare(`SELECT max(${key}) FROM ${name}`).pluck().get() ?? 0);
  } catch {
    return { rows, failed: 1 };
  }
  const batch = db.prepare(`SELECT rowid AS "rowid:", * FROM ${name} WHERE ${key} > ? AND ${key} <= ? ORDER BY ${key}`);
  const keep = (found: RawRow[]): void => {
    for (const { 'rowid:': rowid, ...row } of found) rows.set(Number(rowid), row);
  };
  for (let from = 0; from < max; from += 500) {
    try {
      keep(batch.all(from, from + 500) as RawRow[]);
    } catch {
      // A damaged page: try the rows of this batch one by one.
      for (let k = from + 1; k <= from + 500; k++) {
        try {
          keep(batch.all(k - 1, k) as RawRow[]);
        } catch {
          failed++;
        }
      }
    }
  }
  return { rows, failed };
}

/** What SQLite reads, or why it cannot; `complete` when the file passed the quick check and every read worked. */
function readWithSqlite(file: string): { tables: Tables; complete: boolean } | { error: string } {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    return { error: `cannot open ${file}: ${(error as Error).message}` };
  }
  const tables = emptyTables();
  let complete: boolean;
  try {
    try {
      complete = db.pragma('quick_check(1)', { simple: true }) === 'ok';
    } catch {
      complete = false;
    }
    for (const { name, key } of TABLES) {
      const read = readTable(db, name, key);
      tables[name] = read.rows;
      // The quick check does not look into overflow pages: a value read through a zeroed one is caught here.
      if (read.failed > 0 || [...read.rows.values()].some((row) => !rowLooksWhole(name, row))) complete = false;
    }
  } finally {
    db.close();
  }
  return { tables, complete };
}

/** The game rows the log itself can give back: from `game-started` (with its setup) and `game-ended` rows. */
function rebuildGames(games: Map<number, RawRow>, log: ReadonlyMap<number, RawRow>): number {
  const started = new Map<number, RawRow>();
  const ended = new Map<number, RawRow>();
  for (const row of log.values()) {
    if (row.kind !== 'system' || typeof row.game_id !== 'number' || games.has(row.game_id)) continue;
    const event = systemEvent(row.payload);
    if (event?.event === 'game-started') started.set(row.game_id, row);
    if (event?.event === 'game-ended') ended.set(row.game_id, row);
  }
  let rebuilt = 0;
  for (const [id, row] of started) {
    const event = systemEvent(row.payload) ?? {};
    // Rows written before the setup was logged with the game cannot be rebuilt: their config is unknown.
    if (typeof event.game !== 'string' || typeof event.config !== 'object' || event.config === null || event.seed === undefined) continue;
    const end = ended.get(id);
    const result = end === undefined ? undefined : systemEvent(end.payload)?.result;
    games.set(id, {
      id, table_id: row.table_id, game: event.game, config: JSON.stringify(event.config), seed: JSON.stringify(event.seed),
      started_at: row.at_wall_ms, ended_at: end?.at_wall_ms ?? null, result: result === undefined ? null : JSON.stringify(result),
    });
    rebuilt++;
  }
  return rebuilt;
}

function systemEvent(payload: unknown): Record<string, unknown> | undefined {
  if (typeof payload !== 'string') return undefined;
  try {
    const value = JSON.parse(payload) as unknown;
    return typeof value === 'object' && value !== null ? value as Record<string, unknown> : undefined;
  } catch {
    return undefined;
  }
}

function gaps(keys: Iterable<number>): number {
  let max = 0;
  let count = 0;
  for (const k of keys) {
    max = Math.max(max, k);
    count++;
  }
  return max - count;
}

/** Every row that can still be read from `file` and its WAL (never written to; no integrity check first). */
export function exportReadable(file: string): ReadableRows | { readonly error: string } {
  if (!existsSync(file)) return { error: `${file} does not exist` };
  const sqlite = readWithSqlite(file);
  const useSqlite = !('error' in sqlite);
  if (useSqlite && sqlite.complete) {
    return finish(sqlite.tables, { games: 0, log: 0, snapshots: 0, answers: 0, public_events: 0 }, 'sqlite');
  }
  const pages = readLogPages(file);
  const tables = { ...pages.tables } as Tables;
  for (const name of Object.keys(LOG_TABLE_COLUMNS) as LogTableName[]) {
    tables[name] = new Map(pages.tables[name]);
    // SQLite's row wins where it looks whole (it read it through the b-tree); a value it read through a
    // damaged overflow page does not, and the page reader's copy (or none) stands.
    if (useSqlite) for (const [k, row] of sqlite.tables[name]) if (rowLooksWhole(name, row)) tables[name].set(k, row);
  }
  const found = Object.values(tables).reduce((n, t) => n + t.size, 0);
  if (!useSqlite && found === 0) return { error: `${sqlite.error}; no page of it holds a row of the event log` };
  return finish(tables, pages.undecodable, 'pages');
}

function finish(
  tables: Tables, undecodable: Readonly<Record<LogTableName, number>>, reader: 'sqlite' | 'pages',
): ReadableRows {
  const rebuiltGames = rebuildGames(tables.games, tables.log);
  const sorted = (m: ReadonlyMap<number, RawRow>): RawRow[] => [...m].sort((a, b) => a[0] - b[0]).map(([, row]) => row);
  return {
    tables: {
      games: sorted(tables.games), log: sorted(tables.log), snapshots: sorted(tables.snapshots), answers: sorted(tables.answers),
      public_events: sorted(tables.public_events),
    },
    unreadable: {
      games: gaps(tables.games.keys()), log: gaps(tables.log.keys()),
      snapshots: undecodable.snapshots, answers: undecodable.answers, public_events: undecodable.public_events,
    },
    rebuiltGames, reader,
  };
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
  return { ok: true, copied, unreadable, rebuiltGames: readable.rebuiltGames, damagedCopy };
}

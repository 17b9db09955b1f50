/**
 * Retention for a log that runs all season: `archiveGames` moves finished games older than N days (their game
 * row, every log row and snapshot they own) out of the live log into a dated archive file — a complete event
 * log of the same schema, so `zaptable history --db` and `replay --db` read it as they read the live one.
 *
 * The move is a copy, a check and a removal, in that order: the games are copied into the archive in one
 * transaction that fsyncs (`synchronous=FULL`), the copy is compared with the live rows (every column of every
 * game, log and snapshot row, both ways), and only then are they removed from the live log in one transaction. A crash between the
 * two leaves a game in both files, never in neither; the next run finds it in the archive, checks it again and
 * removes it from the live log. It runs beside a running controller: both use WAL and a busy timeout.
 *
 * Removal is the one place where rows leave the log. The append-only triggers stay in force for everything
 * else: this transaction drops the three delete triggers, deletes, and recreates them from their own SQL
 * before it commits, so no other connection ever sees the log without them.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { openDatabase } from './database.ts';
import type { EventLogErrorCode } from './errors.ts';
import { toLogError } from './errors.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The triggers that keep rows in the log; dropped and recreated inside the removal's transaction only. */
const DELETE_TRIGGERS = ['log_no_delete', 'snapshots_no_delete', 'games_no_delete', 'public_events_no_delete'] as const;

export interface ArchiveOptions {
  /** Games that ended more than this many days ago are moved (0: every finished game). */
  readonly olderThanDays: number;
  /** Where archive files go. Default: `archive/` beside the log. */
  readonly dir?: string;
  /** The wall clock (ms since 1970) that "older than" and the file's date are taken from. Default Date.now(). */
  readonly nowMs?: number;
  /** Wait this long for the running controller's write lock (LOG_BUSY after). Default 5000 ms. */
  readonly busyTimeoutMs?: number;
}

export type ArchiveErrorCode = EventLogErrorCode | 'ARCHIVE_MISMATCH';

export interface ArchivedGame {
  readonly id: number;
  readonly rows: number;
}

export type ArchiveResult =
  | {
    readonly ok: true;
    /** The archive file (also when nothing was moved: where it would have gone). */
    readonly archiveFile: string;
    readonly games: readonly ArchivedGame[];
    /**
     * Public events (as published; `history` and the venue's replay read them) older than the cutoff, moved
     * with the games: a season's live log would otherwise keep every event it ever published.
     */
    readonly publicEvents: number;
    /** Finished games old enough but kept, with why (the newest game keeps the ids counting up). */
    readonly kept: readonly { readonly id: number; readonly reason: string }[];
  }
  | { readonly ok: false; readonly code: ArchiveErrorCode; readonly message: string };

/** `<dir>/<log name>-YYYY-MM-DD.db`, dated by the (UTC) day the archive runs. */
export function archiveFileFor(logFile: string, nowMs: number, dir?: string): string {
  const base = path.basename(logFile).replace(/\.(db|sqlite3?)$/i, '');
  const day = new Date(nowMs).toISOString().slice(0, 10);
  return path.join(dir ?? path.join(path.dirname(logFile), 'archive'), `${base}-${day}.db`);
}

function columns(db: Database.Database, table: string): string {
  return (db.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name).join(', ');
}

/** The finished games ended before the cutoff that may move, and the ones that must stay (with why). */
function candidates(db: Database.Database, cutoffMs: number): { move: number[]; kept: { id: number; reason: string }[] } {
  const old = db.prepare('SELECT id FROM games WHERE ended_at IS NOT NULL AND ended_at < ? ORDER BY id').pluck().all(cutoffMs) as number[];
  // SQLite gives a new row the highest id (seq) + 1: if the newest game or the newest log row left the file,
  // the next game or row would reuse its number, and the archive and the live log would disagree on what
  // "game 12" is. Those two stay until something newer is logged.
  const newestGame = db.prepare('SELECT max(id) FROM games').pluck().get() as number | null;
  const newestRowGame = db.prepare('SELECT game_id FROM log ORDER BY seq DESC LIMIT 1').pluck().get() as number | null | undefined;
  const kept: { id: number; reason: string }[] = [];
  const move = old.filter((id) => {
    if (id === newestGame) kept.push({ id, reason: 'the newest game stays, so that game ids keep counting up' });
    else if (id === newestRowGame) kept.push({ id, reason: 'it holds the newest log row, so that seq numbers keep counting up' });
    else return true;
    return false;
  });
  return { move, kept };
}

/**
 * Moves the finished games that ended more than `olderThanDays` days ago into the dated archive file (created
 * with the log's schema if needed, appended to if it exists). Errors are values: `LOG_*` codes from opening
 * either file, `LOG_BUSY` when the controller holds the lock too long, `ARCHIVE_MISMATCH` when the copy does
 * not match the live rows (nothing is removed then).
 */
export function archiveGames(logFile: string, options: ArchiveOptions): ArchiveResult {
  const nowMs = options.nowMs ?? Date.now();
  const archiveFile = archiveFileFor(logFile, nowMs, options.dir);
  if (!existsSync(logFile)) return { ok: false, code: 'LOG_UNREADABLE', message: `${logFile} does not exist` };
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  const live = openDatabase(logFile, { busyTimeoutMs });
  if (!live.ok) return live;
  const db = live.db;
  try {
    const cutoffMs = nowMs - options.olderThanDays * DAY_MS;
    const { move, kept } = candidates(db, cutoffMs);
    const publicEvents = db.prepare('SELECT count(*) FROM public_events WHERE at_wall_ms < ?').pluck().get(cutoffMs) as number;
    if (move.length === 0 && publicEvents === 0) return { ok: true, archiveFile, games: [], publicEvents: 0, kept };
    const copied = copyToArchive(logFile, archiveFile, move, cutoffMs, busyTimeoutMs);
    if (!copied.ok) return copied;
    removeFromLive(db, move, cutoffMs);
    return { ok: true, archiveFile, games: copied.games, publicEvents, kept };
  } catch (error) {
    const e = toLogError(error, logFile, 'LOG_WRITE_FAILED');
    return { ok: false, code: e.code, message: e.detail };
  } finally {
    db.close();
  }
}

type CopyResult =
  | { readonly ok: true; readonly games: ArchivedGame[] }
  | { readonly ok: false; readonly code: ArchiveErrorCode; readonly message: string };

/** Copies the games into the archive (durably) and checks the copy against the live rows. */
function copyToArchive(
  logFile: string, archiveFile: string, ids: readonly number[], cutoffMs: number, busyTimeoutMs: number,
): CopyResult {
  mkdirSync(path.dirname(archiveFile), { recursive: true });
  const opened = openDatabase(archiveFile, { durability: 'power', busyTimeoutMs });
  if (!opened.ok) return opened;
  const archive = opened.db;
  try {
    archive.prepare('ATTACH DATABASE ? AS live').run(path.resolve(logFile));
    const list = ids.join(', ');
    archive.transaction(() => {
      // Games already in the archive were copied by an earlier run that stopped before removing them.
      archive.exec(`
        INSERT INTO main.games (${columns(archive, 'games')})
          SELECT ${columns(archive, 'games')} FROM live.games WHERE id IN (${list}) AND id NOT IN (SELECT id FROM main.games);
        INSERT INTO main.log (${columns(archive, 'log')})
          SELECT ${columns(archive, 'log')} FROM live.log WHERE game_id IN (${list}) AND seq NOT IN (SELECT seq FROM main.log);
        INSERT INTO main.snapshots (${columns(archive, 'snapshots')})
          SELECT ${columns(archive, 'snapshots')} FROM live.snapshots WHERE game_id IN (${list})
            AND NOT EXISTS (SELECT 1 FROM main.snapshots s WHERE s.game_id = live.snapshots.game_id AND s.seq = live.snapshots.seq);
        INSERT INTO main.public_events (${columns(archive, 'public_events')})
          SELECT ${columns(archive, 'public_events')} FROM live.public_events WHERE at_wall_ms < ${cutoffMs}
            AND NOT EXISTS (SELECT 1 FROM main.public_events p WHERE p.table_id = live.public_events.table_id
              AND p.epoch = live.public_events.epoch AND p.seq = live.public_events.seq);`);
    }).immediate();
    // The copy must equal the live rows exactly, every column, both ways (EXCEPT compares whole rows).
    const checked = [
      ['games', `id IN (${list})`], ['log', `game_id IN (${list})`], ['snapshots', `game_id IN (${list})`],
      ['public_events', `at_wall_ms < ${cutoffMs}`],
    ] as const;
    for (const [table, where] of checked) {
      const cols = columns(archive, table);
      const differ = (a: string, b: string): number => archive.prepare(
        `SELECT count(*) FROM (SELECT ${cols} FROM ${a}.${table} WHERE ${where} EXCEPT SELECT ${cols} FROM ${b}.${table} WHERE ${where})`,
      ).pluck().get() as number;
      const missing = differ('live', 'main');
      // The archive holds the public events of earlier runs too, which are no longer live: for them only the
      // way live → archive is checked (a clash on an event's number shows there as a missing row).
      const extra = table === 'public_events' ? 0 : differ('main', 'live');
      if (missing > 0 || extra > 0) {
        return {
          ok: false, code: 'ARCHIVE_MISMATCH',
          message: `${archiveFile} does not hold the live log's ${table} rows ${ids.length > 0 && table !== 'public_events' ? `of games ${list} ` : ''}as they are (${missing} missing or different, `
            + `${extra} extra); is it another log's archive? Nothing was removed from ${logFile}`,
        };
      }
    }
    const counts = archive.prepare(`SELECT game_id AS id, count(*) AS rows FROM main.log WHERE game_id IN (${list}) GROUP BY game_id`)
      .all() as { id: number; rows: number }[];
    const games: ArchivedGame[] = ids.map((id) => ({ id, rows: counts.find((c) => c.id === id)?.rows ?? 0 }));
    archive.exec('DETACH DATABASE live');
    return { ok: true, games };
  } finally {
    archive.close();
  }
}

/** Removes the games and the old public events from the live log in one transaction, the delete triggers lifted inside it only. */
function removeFromLive(db: Database.Database, ids: readonly number[], cutoffMs: number): void {
  const list = ids.join(', ');
  const sql = db.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name IN (${DELETE_TRIGGERS.map((t) => `'${t}'`).join(', ')})`)
    .all() as { name: string; sql: string }[];
  if (sql.length !== DELETE_TRIGGERS.length) throw new Error(`the log lacks its append-only triggers (found ${sql.map((t) => t.name).join(', ') || 'none'})`);
  db.transaction(() => {
    for (const t of sql) db.exec(`DROP TRIGGER ${t.name}`);
    db.exec(`
      DELETE FROM snapshots WHERE game_id IN (${list});
      DELETE FROM log WHERE game_id IN (${list});
      DELETE FROM games WHERE id IN (${list});
      DELETE FROM public_events WHERE at_wall_ms < ${cutoffMs};`);
    for (const t of sql) db.exec(t.sql);
  }).immediate();
}

/**
 * A season on one SD card, on real SQLite files: `archiveGames` moves old finished games into a dated archive
 * that `history` and `replay --db` read like the live log, keeps the append-only triggers, survives a crash
 * between copy and removal, refuses an archive whose rows clash; `backupLog` copies the log while another
 * process (the kill test's bot writer) keeps committing, and the copy is a consistent, checked snapshot.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { playGame } from '../../controller/bots/play-game.ts';
import { historyCommand } from '../../controller/cli/commands/history.ts';
import { replayDbCommand } from '../../controller/cli/commands/replay-db.ts';
import { main } from '../../controller/cli/main.ts';
import { memoryOutput } from '../../controller/cli/output.ts';
import {
  archiveFileFor, archiveGames, backupLog, gameLog, listGames, rebuildGame, recoverTables, type EventLog,
} from '../../controller/persistence/index.ts';
import { getEngine } from '../../controller/rules/games.ts';
import { newFile, openLog, press } from './helpers.ts';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 11, 2, 9, 0, 0);
/** The controller start the published events belong to. */
const EPOCH = NOW - 300 * DAY;
const players = ['A', 'B', 'C'];

/** A log with `ages.length` finished games, game i ending `ages[i]` days before NOW, each with a press and a snapshot. */
function seasonLog(ages: readonly number[]): { file: string; ids: number[] } {
  const file = newFile('season');
  let wall = 0;
  let published = 0;
  const log: EventLog = openLog(file, { autoCommit: false, wallClock: () => wall });
  const ids = ages.map((age, i) => {
    const game = i % 2 === 0 ? 'zapp-zerapp' : 'zip-zap';
    const engine = getEngine(game);
    const played = playGame(engine, { players }, 100 + i);
    const setup = engine.setup({ players }, 100 + i);
    if (!setup.ok) throw new Error(setup.message);
    let state = setup.state;
    wall = NOW - age * DAY - 3_600_000;
    const id = log.startGame({ tableId: 'T1', game, config: { players }, seed: 100 + i });
    log.appendSensor('T1', id, press('seat-1', 1_000_000 + i));
    for (const [n, action] of played.actions.entries()) {
      const outcome = engine.apply(state, action);
      if (!outcome.ok) throw new Error(outcome.message);
      state = outcome.state;
      log.appendAction('T1', id, action);
      // What the controller published for it (the `history` request and the venue's replay read these).
      published++;
      log.appendPublicEvent('T1', EPOCH, published, wall, JSON.stringify({ seq: published, at: wall, action }));
      if (n === 3) log.appendSnapshot(id, state);
    }
    wall = NOW - age * DAY;
    log.endGame(id, played.result);
    log.commit();
    return id;
  });
  log.close();
  return { file, ids };
}

/** The events a log holds as published, in their order. */
function publishedIn(file: string): { at_wall_ms: number; payload: string }[] {
  const db = new Database(file, { readonly: true });
  const rows = db.prepare('SELECT at_wall_ms, payload FROM public_events ORDER BY epoch, seq').all() as { at_wall_ms: number; payload: string }[];
  db.close();
  return rows;
}

function rowsOf(file: string, id: number): unknown[] {
  const log = openLog(file, { readonly: true });
  try {
    return gameLog(log, id)?.rows ?? [];
  } finally {
    log.close();
  }
}

function gameIds(file: string): number[] {
  const log = openLog(file, { readonly: true });
  try {
    return listGames(log).map((g) => g.id).sort((a, b) => a - b);
  } finally {
    log.close();
  }
}

describe('zaptable log archive', () => {
  it('moves old finished games into a dated archive that history and replay read, and keeps the rest', () => {
    const { file, ids } = seasonLog([200, 120, 95, 40, 10, 1]);
    const before = new Map(ids.map((id) => [id, rowsOf(file, id)]));
    const allPublished = publishedIn(file);
    const replayBefore = memoryOutput();
    expect(replayDbCommand(['--db', file, '--game', String(ids[1])], replayBefore)).toBe(0);

    const result = archiveGames(file, { olderThanDays: 90, nowMs: NOW });
    if (!result.ok) expect.fail(`${result.code}: ${result.message}`);
    expect(result.archiveFile).toBe(path.join(path.dirname(file), 'archive', 'zaptable-2026-12-02.db'));
    expect(result.games.map((g) => g.id)).toEqual(ids.slice(0, 3));
    expect(gameIds(file)).toEqual(ids.slice(3));
    expect(gameIds(result.archiveFile)).toEqual(ids.slice(0, 3));
    // Every row moved unchanged (same seq, same payloads), and nothing is left behind in the live log.
    for (const id of ids.slice(0, 3)) {
      expect(rowsOf(result.archiveFile, id)).toEqual(before.get(id));
      expect(rowsOf(file, id)).toEqual([]);
    }
    for (const id of ids.slice(3)) expect(rowsOf(file, id)).toEqual(before.get(id));

    // The archive is an event log like any other: history lists it, replay rebuilds the same view.
    const history = memoryOutput();
    expect(historyCommand(['--db', result.archiveFile], history)).toBe(0);
    expect(history.lines.map((l) => /^#(\d+)/.exec(l)?.[1])).toEqual(ids.slice(0, 3).reverse().map(String));
    const replayAfter = memoryOutput();
    expect(replayDbCommand(['--db', result.archiveFile, '--game', String(ids[1])], replayAfter)).toBe(0);
    expect(replayAfter.lines).toEqual(replayBefore.lines);

    // The events published before the cutoff moved too, unchanged and in order; the later ones stayed.
    const cutoff = NOW - 90 * DAY;
    expect(result.publicEvents).toBe(allPublished.filter((e) => e.at_wall_ms < cutoff).length);
    expect(result.publicEvents).toBeGreaterThan(10);
    expect(publishedIn(result.archiveFile)).toEqual(allPublished.filter((e) => e.at_wall_ms < cutoff));
    expect(publishedIn(file)).toEqual(allPublished.filter((e) => e.at_wall_ms >= cutoff));

    // The append-only triggers are back in both files.
    for (const f of [file, result.archiveFile]) {
      const db = new Database(f);
      expect(() => db.prepare('DELETE FROM log WHERE seq = (SELECT max(seq) FROM log)').run()).toThrow(/LOG_APPEND_ONLY/);
      expect(() => db.prepare('DELETE FROM games').run()).toThrow(/LOG_APPEND_ONLY/);
      expect(() => db.prepare('DELETE FROM public_events').run()).toThrow(/LOG_APPEND_ONLY/);
      db.close();
    }

    // A second run the same day appends to the same file; with nothing old enough left it changes nothing.
    const again = archiveGames(file, { olderThanDays: 30, nowMs: NOW });
    expect(again.ok && again.games.map((g) => g.id)).toEqual([ids[3]]);
    expect(gameIds(result.archiveFile)).toEqual(ids.slice(0, 4));
    const nothing = archiveGames(file, { olderThanDays: 30, nowMs: NOW });
    expect(nothing.ok && nothing.games).toEqual([]);
  });

  it('keeps the newest game, so that a new game never reuses an archived id', () => {
    const { file, ids } = seasonLog([300, 200]);
    const result = archiveGames(file, { olderThanDays: 0, nowMs: NOW });
    if (!result.ok) expect.fail(result.message);
    expect(result.games.map((g) => g.id)).toEqual([ids[0]]);
    expect(result.kept).toEqual([{ id: ids[1], reason: expect.stringContaining('newest game') as string }]);
    const log = openLog(file);
    const next = log.startGame({ tableId: 'T1', game: 'zip-zap', config: { players }, seed: 1 });
    log.close();
    expect(next).toBeGreaterThan(ids[1] ?? Infinity);
  });

  it('finishes the move after a crash between copy and removal, without copying a row twice', () => {
    const { file, ids } = seasonLog([200, 150, 5]);
    // A run that copied games 1 and 2 and died before removing them: the same log under the same name elsewhere,
    // archived into the same folder, leaves exactly that archive beside a live log that still has them.
    const archiveDir = path.join(path.dirname(file), 'archive');
    const twin = path.join(path.dirname(file), 'twin', 'zaptable.db');
    mkdirSync(path.dirname(twin), { recursive: true });
    copyFileSync(file, twin);
    const copied = archiveGames(twin, { olderThanDays: 90, nowMs: NOW, dir: archiveDir });
    if (!copied.ok) expect.fail(copied.message);
    const archive = archiveFileFor(file, NOW);
    expect(copied.archiveFile).toBe(archive);
    const countRows = (f: string) => {
      const db = new Database(f, { readonly: true });
      const n = db.prepare('SELECT count(*) FROM log').pluck().get() as number;
      db.close();
      return n;
    };
    const archived = countRows(archive);
    expect(gameIds(file)).toEqual(ids);

    const result = archiveGames(file, { olderThanDays: 90, nowMs: NOW });
    if (!result.ok) expect.fail(result.message);
    expect(result.games.map((g) => g.id)).toEqual(ids.slice(0, 2));
    expect(countRows(archive)).toBe(archived);
    expect(gameIds(archive)).toEqual(ids.slice(0, 2));
    expect(gameIds(file)).toEqual([ids[2]]);
  });

  it('refuses an archive whose rows clash with the live log, and removes nothing (ARCHIVE_MISMATCH)', () => {
    const { file, ids } = seasonLog([200, 150, 5]);
    const archive = archiveFileFor(file, NOW);
    // Another log's file under this name: its seq numbers overlap ours with other rows.
    const { file: other } = seasonLog([400]);
    mkdirSync(path.dirname(archive), { recursive: true });
    copyFileSync(other, archive);
    const before = readFileSync(file);
    const result = archiveGames(file, { olderThanDays: 90, nowMs: NOW });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe('ARCHIVE_MISMATCH');
    expect(result.message).toMatch(/nothing was removed/i);
    expect(gameIds(file)).toEqual(ids);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('answers a missing or foreign log with a code and creates nothing', () => {
    const missing = path.join(path.dirname(newFile('none')), 'nothing.db');
    const r1 = archiveGames(missing, { olderThanDays: 1, nowMs: NOW });
    expect(r1.ok ? '' : r1.code).toBe('LOG_UNREADABLE');
    expect(existsSync(path.dirname(archiveFileFor(missing, NOW)))).toBe(false);
    const foreign = newFile('foreign');
    mkdirSync(path.dirname(foreign), { recursive: true });
    const db = new Database(foreign);
    db.exec('CREATE TABLE notes (x)');
    db.close();
    const r2 = archiveGames(foreign, { olderThanDays: 1, nowMs: NOW });
    expect(r2.ok ? '' : r2.code).toBe('LOG_UNREADABLE');
    expect(existsSync(archiveFileFor(foreign, NOW))).toBe(false);
  });

  it('zaptable log archive prints what moved; --older-than is required and checked', async () => {
    const { file, ids } = seasonLog([400, 2]);
    const io = memoryOutput();
    expect(await main(['log', 'archive', '--db', file, '--older-than', '30'], io)).toBe(0);
    expect(io.lines.at(-1)).toMatch(new RegExp(`^zaptable log archive: moved 1 games \\(\\d+ log rows; ids ${ids[0]}\\) and \\d+ published events from .* to .*archive/zaptable-\\d{4}-\\d{2}-\\d{2}\\.db; read them with zaptable history --db `));
    const usage = memoryOutput();
    expect(await main(['log', 'archive', '--db', file], usage)).toBe(2);
    expect(usage.errors.join('\n')).toMatch(/--older-than DAYS/);
    const bad = memoryOutput();
    expect(await main(['log', 'archive', '--db', file, '--older-than', '-3'], bad)).toBe(2);
    expect(gameIds(file)).toEqual([ids[1]]);
  });
});

/** Starts the kill test's bot writer on `file`; resolves its exit once it printed `done`. */
function startWriter(file: string, games: number): { ready: Promise<void>; done: Promise<void> } {
  const writer = path.join(import.meta.dirname, 'fixtures', 'writer.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', writer, file, 'backup', String(games), '0'], { cwd: path.join(import.meta.dirname, '..', '..') });
  let out = '';
  let err = '';
  let onReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    onReady = resolve;
  });
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    if (out.includes('published')) onReady();
  });
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const done = new Promise<void>((resolve, reject) => {
    child.on('close', (code) => {
      if (code === 0 && out.includes('done')) resolve();
      else reject(new Error(`writer exited with ${String(code)}: ${out.slice(-300)} ${err.slice(-500)}`));
    });
  });
  return { ready, done };
}

describe('zaptable log backup', () => {
  it('copies the log while another process keeps committing: a checked, consistent snapshot in one file', async () => {
    const file = newFile('live');
    const writer = startWriter(file, 40);
    await writer.ready;
    const target = path.join(path.dirname(file), 'backups', 'night.db');
    const copies: number[] = [];
    // Several backups while the writer runs, each under its own name.
    for (let i = 0; i < 3; i++) {
      const result = await backupLog(file, `${target}.${i}`);
      if (!result.ok) expect.fail(`${result.code}: ${result.message}`);
      copies.push(result.lastSeq);
      expect(existsSync(`${target}.${i}-wal`)).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    await writer.done;
    // The writer was still writing: the copies were taken at different moments, before it finished.
    const live = openLog(file, { readonly: true });
    const finalSeq = live.reader.lastSeq();
    expect(copies.some((seq) => seq < finalSeq)).toBe(true);
    for (let i = 0; i < 3; i++) {
      const db = new Database(`${target}.${i}`, { readonly: true });
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('journal_mode', { simple: true })).toBe('delete');
      // A prefix of the live log: every row of the copy is the live row with the same seq, and nothing is missing below its last seq.
      const rows = db.prepare('SELECT * FROM log ORDER BY seq').all() as { seq: number }[];
      const liveRows = new Database(file, { readonly: true }).prepare('SELECT * FROM log WHERE seq <= ? ORDER BY seq').all(copies[i]);
      expect(rows).toEqual(liveRows);
      db.close();
      // Consistent: the game in progress in the copy rebuilds, exactly as a restart from it would.
      const copy = openLog(`${target}.${i}`, { readonly: true });
      for (const table of recoverTables(copy)) expect(table.ok).toBe(true);
      for (const g of listGames(copy)) expect(rebuildGame(copy, g.id, { useSnapshots: false }).ok).toBe(true);
      copy.close();
    }
    live.close();
  }, 60_000);

  it('never overwrites: an existing target is refused and left as it was; a foreign file is not a log', async () => {
    const { file } = seasonLog([3]);
    const target = path.join(path.dirname(file), 'keep.db');
    writeFileSync(target, 'yesterday');
    const r1 = await backupLog(file, target);
    expect(r1.ok ? '' : r1.code).toBe('BACKUP_EXISTS');
    expect(readFileSync(target, 'utf8')).toBe('yesterday');
    const r2 = await backupLog(target, path.join(path.dirname(file), 'new.db'));
    expect(r2.ok ? '' : r2.code).toMatch(/^LOG_(CORRUPT|UNREADABLE)$/);
    expect(existsSync(path.join(path.dirname(file), 'new.db'))).toBe(false);
  });

  it('zaptable log backup TARGET prints what it copied', async () => {
    const { file } = seasonLog([3, 2]);
    const io = memoryOutput();
    const target = path.join(path.dirname(file), 'cli.db');
    expect(await main(['log', 'backup', target, '--db', file], io)).toBe(0);
    const summary = /^zaptable log backup: .* → .*cli\.db: 2 games, \d+ log rows up to seq \d+, \d+ bytes, checked, in \d+ ms$/;
    expect(io.lines.at(-1)).toMatch(summary);
    const usage = memoryOutput();
    expect(await main(['log', 'backup', '--db', file], usage)).toBe(2);
  });
});

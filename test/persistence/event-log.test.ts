/**
 * The event log against real SQLite files: appends read back exactly, group commit, append-only enforcement,
 * contract errors, and damaged or foreign files reported with a code instead of a crash.
 */
import { mkdirSync, openSync, readFileSync, writeFileSync, writeSync, closeSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { SensorEvent } from '../../controller/hardware/interface.ts';
import { EventLog, EventLogError, MIGRATIONS, SCHEMA_VERSION, type LogRow } from '../../controller/persistence/index.ts';
import { newFile, openLog, press } from './helpers.ts';

const RESULT = { over: true, winners: ['A'], scores: { A: 3, B: 1 }, rounds: 4 };

describe('appending and reading back', () => {
  it('keeps every kind of row with its fields, sensor times in columns (Infinity and host-stamped included)', () => {
    const file = newFile();
    let wall = 1_700_000_000_000;
    const log = openLog(file, { wallClock: () => wall++ });
    const unsynced: SensorEvent = { station: 'seat-2', kind: 'tag-arrived', uid: 'DEADBEEF', seq: 7,
      time: { source: 'device', epoch: 3, deviceUs: 4_294_968_000, rawUs: 1704, hostUs: 9_000_000, uncertaintyUs: Infinity, beforeUs: 52_480, afterUs: 0 } };
    const hostStamped: SensorEvent = { station: 'hub', kind: 'button-released', button: 'b1',
      time: { source: 'host', epoch: 0, deviceUs: 9_100_000, hostUs: 9_100_000, uncertaintyUs: 2000, beforeUs: 0, afterUs: 0 } };
    const before = log.appendSensor('T1', null, unsynced);
    const gameId = log.startGame({ tableId: 'T1', game: 'zip-zap', config: { players: ['A', 'B'] }, seed: 42 });
    log.appendSensor('T1', gameId, hostStamped);
    const action = log.appendAction('T1', gameId, { type: 'zap', player: 'A', at: 1200 } as never, { events: ['zapped'] }, 1_200_000);
    log.appendRejected('T1', gameId, { type: 'play', player: 'B' }, { code: 'NOT_YOUR_TURN', message: 'B may not play now' });
    log.appendSystem('T1', null, { event: 'station-offline', station: 'seat-3' });
    log.endGame(gameId, RESULT);
    log.close();

    const again = openLog(file, { readonly: true });
    const game = again.reader.game(gameId);
    expect(game).toMatchObject({ tableId: 'T1', game: 'zip-zap', config: { players: ['A', 'B'] }, seed: 42, result: RESULT });
    expect(game?.endedAtMs).toBeGreaterThan(game?.startedAtMs ?? Infinity);
    const rows = again.reader.rows(gameId);
    expect(rows.map((r) => r.kind)).toEqual(['system', 'sensor', 'action', 'rejected', 'system']);
    expect(rows[1]).toMatchObject({ kind: 'sensor', event: hostStamped, hostUs: 9_100_000 });
    expect((rows[1] as Extract<LogRow, { kind: 'sensor' }>).event.time.rawUs).toBeUndefined();
    expect(rows[2]).toMatchObject({ seq: action, kind: 'action', action: { type: 'zap', player: 'A', at: 1200 }, summary: { events: ['zapped'] }, hostUs: 1_200_000 });
    expect(rows[3]).toMatchObject({ kind: 'rejected', code: 'NOT_YOUR_TURN', action: { type: 'play', player: 'B' } });
    expect(rows[4]).toMatchObject({ kind: 'system', payload: { event: 'game-ended', result: RESULT } });
    const first = again.reader.row(before);
    expect(first).toMatchObject({ kind: 'sensor', gameId: null, event: unsynced });
    expect(again.reader.row(before + 5)).toMatchObject({ kind: 'system', gameId: null, payload: { station: 'seat-3' } });
    expect(again.reader.games({ finished: true }).map((g) => g.id)).toEqual([gameId]);
    again.close();
  });

  it('creates the folders and uses WAL with the chosen durability', () => {
    for (const [durability, synchronous] of [['process', 1], ['power', 2]] as const) {
      const file = newFile(durability);
      openLog(file, { durability }).close();
      const db = new Database(file);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      db.close();
      // synchronous is per connection: check the log's own.
      const log = openLog(file, { durability });
      expect((log as unknown as { db: Database.Database }).db.pragma('synchronous', { simple: true })).toBe(synchronous);
      log.close();
    }
  });
});

describe('migrations', () => {
  it('takes a schema-1 file to the current schema: its sensor rows read back with no interval (0), new ones keep theirs', () => {
    const file = newFile('schema-1');
    mkdirSync(path.dirname(file), { recursive: true });
    const old = new Database(file);
    old.exec(MIGRATIONS[0] as string);
    old.pragma('user_version = 1');
    old.prepare(`INSERT INTO log (table_id, game_id, kind, at_wall_ms, host_us, payload, station, time_source, epoch, raw_us, device_us,
      uncertainty_us) VALUES ('T1', NULL, 'sensor', 1, 5000, '{"kind":"button-pressed","button":"zap","seq":1}', 'seat-1', 'device', 1, 400, 400, 120)`).run();
    old.close();
    const log = openLog(file);
    log.appendSensor('T1', null, press('seat-1', 9000, 100, { beforeUs: 80 }));
    log.close();
    const again = openLog(file, { readonly: true });
    const times = again.reader.sensorsBetween('T1', 0, 10_000).map((r) => (r.kind === 'sensor' ? r.event.time : undefined));
    expect(times).toEqual([
      { source: 'device', epoch: 1, deviceUs: 400, rawUs: 400, hostUs: 5000, uncertaintyUs: 120, beforeUs: 0, afterUs: 0 },
      expect.objectContaining({ hostUs: 9000, beforeUs: 80, afterUs: 0 }),
    ]);
    again.close();
  });
});

describe('group commit', () => {
  it('keeps a batch invisible to other connections until it commits at the end of the turn', async () => {
    const file = newFile();
    const log = openLog(file);
    const reader = new Database(file, { readonly: true });
    const count = () => reader.prepare('SELECT count(*) FROM log').pluck().get() as number;
    for (let i = 0; i < 5; i++) log.appendSensor('T1', null, press('seat-1', 1000 + i));
    expect(log.pendingRows).toBe(5);
    expect(count()).toBe(0);
    const info = await log.committed();
    expect(info).toEqual({ rows: 5, lastSeq: 5 });
    expect(count()).toBe(5);
    log.appendSensor('T1', null, press('seat-1', 2000));
    // The automatic commit runs in a setImmediate callback, without anyone waiting.
    await new Promise((resolve) => setImmediate(resolve));
    expect(count()).toBe(6);
    expect(await log.committed()).toEqual({ rows: 0, lastSeq: 6 });
    reader.close();
    log.close();
  });

  it('commits synchronously on commit(), and by itself at maxBatchRows', () => {
    const file = newFile();
    const log = openLog(file, { autoCommit: false, maxBatchRows: 3 });
    log.appendSensor('T1', null, press('seat-1', 1));
    expect(log.commit()).toEqual({ rows: 1, lastSeq: 1 });
    for (let i = 0; i < 4; i++) log.appendSensor('T1', null, press('seat-1', 2 + i));
    expect(log.pendingRows).toBe(1);
    expect(log.flush()).toEqual({ rows: 1, lastSeq: 5 });
    log.close();
  });

  it('loses only the uncommitted batch when the process dies (simulated by closing the file under it)', () => {
    const file = newFile();
    const log = openLog(file, { autoCommit: false });
    log.appendSensor('T1', null, press('seat-1', 1));
    log.commit();
    log.appendSensor('T1', null, press('seat-1', 2));
    // Copy the committed state as a kill would leave it: the database and its WAL, without the open transaction.
    const copy = newFile('copy');
    openLog(copy).close();
    writeFileSync(copy, readFileSync(file));
    writeFileSync(`${copy}-wal`, readFileSync(`${file}-wal`));
    log.close();
    const after = openLog(copy, { readonly: true });
    expect(after.reader.lastSeq()).toBe(1);
    after.close();
  });
});

describe('append-only', () => {
  it('refuses UPDATE and DELETE of log rows, snapshots and games, even from a raw connection', () => {
    const file = newFile();
    const log = openLog(file);
    const gameId = log.startGame({ tableId: 'T1', game: 'zip-zap', config: { players: ['A', 'B'] }, seed: 1 });
    log.appendAction('T1', gameId, { type: 'x', at: 1 });
    log.appendSnapshot(gameId, { any: 'state' });
    log.close();
    const db = new Database(file);
    for (const sql of [
      'UPDATE log SET payload = \'{}\'', 'DELETE FROM log', 'DELETE FROM log WHERE seq = 1',
      'UPDATE snapshots SET state = \'{}\'', 'DELETE FROM snapshots',
      'DELETE FROM games', 'UPDATE games SET seed = \'2\'', 'UPDATE games SET table_id = \'T2\'',
    ]) {
      expect(() => db.exec(sql), sql).toThrow(/LOG_APPEND_ONLY/);
    }
    db.exec(`UPDATE games SET ended_at = 1, result = '{}'`);
    expect(() => db.exec(`UPDATE games SET result = '{"over":true}'`)).toThrow(/finished game cannot be changed/);
    expect(db.prepare('SELECT count(*) FROM log').pluck().get()).toBe(2);
    db.close();
  });
});

describe('contract errors', () => {
  it('answers misuse with stable codes', () => {
    const file = newFile();
    const log = openLog(file);
    const gameId = log.startGame({ tableId: 'T1', game: 'zip-zap', config: { players: ['A', 'B'] }, seed: 1 });
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        return error instanceof EventLogError ? error.code : String(error);
      }
      return 'no error';
    };
    expect(code(() => log.startGame({ tableId: 'T1', game: 'zip-zap', config: { players: ['A'] }, seed: 2 }))).toBe('GAME_IN_PROGRESS');
    expect(code(() => log.appendAction('T2', gameId, { type: 'x' }))).toBe('GAME_NOT_OPEN');
    expect(code(() => log.appendAction('T1', gameId + 1, { type: 'x' }))).toBe('GAME_NOT_OPEN');
    log.endGame(gameId, RESULT);
    expect(code(() => log.appendAction('T1', gameId, { type: 'x' }))).toBe('GAME_NOT_OPEN');
    expect(code(() => {
      log.endGame(gameId, RESULT);
    })).toBe('GAME_NOT_OPEN');
    // Another table may run its own game at the same time; a finished table may start the next.
    expect(log.startGame({ tableId: 'T2', game: 'zapp-zerapp', config: { players: ['A', 'B'] }, seed: 3 })).toBeGreaterThan(gameId);
    expect(log.startGame({ tableId: 'T1', game: 'zip-zap', config: { players: ['A', 'B'] }, seed: 4 })).toBeGreaterThan(gameId);
    log.close();
    expect(code(() => log.appendSensor('T1', null, press('s', 1)))).toBe('LOG_CLOSED');
    const ro = openLog(file, { readonly: true });
    expect(code(() => ro.appendSensor('T1', null, press('s', 1)))).toBe('LOG_READONLY');
    ro.close();
  });
});

describe('damaged and foreign files', () => {
  it('reports a file that is not a database as LOG_CORRUPT and leaves it untouched', () => {
    const file = newFile();
    openLog(file).close();
    const garbage = Buffer.from('this is not an sqlite file, it is a shopping list: eggs, milk '.repeat(100));
    writeFileSync(file, garbage);
    const opened = EventLog.open(file);
    expect(opened).toMatchObject({ ok: false, code: 'LOG_CORRUPT' });
    expect(readFileSync(file)).toEqual(garbage);
  });

  it('reports damaged pages found by the quick check as LOG_CORRUPT', () => {
    const file = newFile();
    const log = openLog(file);
    const gameId = log.startGame({ tableId: 'T1', game: 'zip-zap', config: { players: ['A', 'B'] }, seed: 1 });
    for (let i = 0; i < 3000; i++) log.appendSensor('T1', gameId, press(`seat-${i % 4}`, i * 100));
    log.close();
    // Overwrite the middle of the file (b-tree pages of the log) with a byte pattern.
    const size = statSync(file).size;
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(8192, 0xa5), 0, 8192, Math.floor(size / 2 / 4096) * 4096);
    closeSync(fd);
    const opened = EventLog.open(file);
    expect(opened.ok).toBe(false);
    if (!opened.ok) {
      expect(opened.code).toBe('LOG_CORRUPT');
      expect(opened.message).toContain(file);
    }
  });

  it('refuses another program\'s database, a newer schema, and a missing file in read-only mode', () => {
    const other = newFile();
    openLog(other).close();
    const db = new Database(other);
    db.pragma('user_version = 99');
    db.close();
    expect(EventLog.open(other)).toMatchObject({ ok: false, code: 'LOG_TOO_NEW' });
    const stranger = newFile();
    openLog(stranger).close();
    const plain = `${stranger}.other`;
    const p = new Database(plain);
    p.exec('CREATE TABLE recipes (name TEXT)');
    p.close();
    expect(EventLog.open(plain)).toMatchObject({ ok: false, code: 'LOG_UNREADABLE' });
    expect(EventLog.open(`${stranger}.missing`, { readonly: true })).toMatchObject({ ok: false, code: 'LOG_UNREADABLE' });
  });
});

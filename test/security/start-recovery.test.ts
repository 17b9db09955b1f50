/**
 * Item 5 of issue 10: one referee request (a `new-game` for the other game) must not break every later start,
 * and one table's log state must never stop `zaptable start`: a game that cannot continue is kept in the log
 * as abandoned and the table starts anew; a damaged log says how to recover, and `zaptable log repair` does.
 *
 * Issue 18 item 4: a controller keeps one log file for all its tables (one order of everything logged, one
 * commit per batch), so a damaged file stops exactly the tables that write to it — that controller's — with
 * LOG_CORRUPT naming the file and the way out, leaves the file as it was, and another controller with its own
 * storage directory starts and plays.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../controller/cli/main.ts';
import type { Output } from '../../controller/cli/output.ts';
import { EventLog, listGames } from '../../controller/persistence/index.ts';
import { Referee, startRig, type Rig, type TableSpec } from './support/rig.ts';

let rig: Rig | undefined;
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await rig?.dispose();
  rig = undefined;
});

const ZAPP: TableSpec = { id: 'z1', mode: 'zapp-zerapp', seats: ['red', 'green'] };
const ZIP: TableSpec = { id: 't1', mode: 'zip-zap', seats: ['ana', 'ben'] };

function openLog(directory: string): EventLog {
  const opened = EventLog.open(path.join(directory, 'zaptable.db'));
  if (!opened.ok) throw new Error(opened.message);
  return opened.log;
}

function io(): { out: string[]; io: Output } {
  const out: string[] = [];
  const push = (line: string): void => {
    out.push(line);
  };
  return { out, io: { out: push, err: push, progress: () => undefined } };
}

/** A log with 40 finished games, then scribbled over in the middle of the file, as a failing SD card might. */
function damagedLog(directory: string): string {
  const file = path.join(directory, 'zaptable.db');
  const log = openLog(directory);
  for (let g = 0; g < 40; g++) {
    const id = log.startGame({ tableId: 'z1', game: 'zapp-zerapp', config: { players: ['red', 'green'] }, seed: g });
    log.appendSystem('z1', id, { note: 'x'.repeat(2000) });
    log.endGame(id, { over: true, winners: ['red'], scores: {}, rounds: 1 });
  }
  log.commit();
  log.close();
  const fd = openSync(file, 'r+');
  const size = statSync(file).size;
  writeSync(fd, Buffer.alloc(8192, 0xa5), 0, 8192, Math.floor(size / 2 / 4096) * 4096);
  closeSync(fd);
  return file;
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('start and the log', () => {
  it('refuses a new-game for the other game, so the next start still works', async () => {
    rig = await startRig({ broker: 'embedded', tables: [ZAPP] });
    const r = await Referee.connect(rig.brokerUrl);
    closers.push(async () => r.close());
    const refused = await r.request('z1', 'new-game', { game: 'zip-zap', players: ['red', 'green'] });
    expect(refused.error?.code).toBe('NOT_AVAILABLE');
    const { directory, port } = rig;
    await r.close();
    await rig.stop();
    rig = await startRig({ broker: 'embedded', tables: [ZAPP], directory, embeddedPort: port });
    expect(rig.app.tableState('z1')?.game).toBe('zapp-zerapp');
  });

  it('starts every table even when one table\'s unfinished game cannot continue, and keeps that game as abandoned', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'zaptable-security-'));
    const log = openLog(directory);
    // What the old `new-game` for the other game left behind, and a game whose logged action no longer applies.
    const wrongGame = log.startGame({ tableId: 'z1', game: 'zip-zap', config: { players: ['red', 'green'] }, seed: 1 });
    const broken = log.startGame({ tableId: 't1', game: 'zip-zap', config: { players: ['ana', 'ben'] }, seed: 2 });
    log.appendAction('t1', broken, { type: 'next-round' });
    log.commit();
    log.close();
    rig = await startRig({ broker: 'embedded', tables: [ZAPP, ZIP], directory });
    expect(rig.app.tableState('z1')?.game).toBe('zapp-zerapp');
    expect(rig.app.tableState('t1')?.game).toBe('zip-zap');
    expect(rig.lines.join('\n')).toMatch(/game \d+ cannot continue/);
    await rig.stop();
    const after = openLog(directory);
    const games = listGames(after);
    after.close();
    for (const id of [wrongGame, broken]) expect(games.find((g) => g.id === id)?.endedAtMs).not.toBeNull();
  });

  it('says how to recover from a damaged log, and `zaptable log repair` makes it start again', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'zaptable-security-'));
    const file = damagedLog(directory);
    await expect(startRig({ broker: 'embedded', tables: [ZAPP], directory })).rejects.toThrow(/LOG_CORRUPT[\s\S]*zaptable log repair --db/);
    const exported = io();
    expect(await main(['log', 'export', '--db', file, '--out', path.join(directory, 'rows.json')], exported.io)).toBe(0);
    expect(exported.out.join('\n')).toMatch(/games \d+, log \d+/);
    const repaired = io();
    expect(await main(['log', 'repair', '--db', file], repaired.io)).toBe(0);
    expect(repaired.out.join('\n')).toMatch(/rebuilt .* the damaged file is .*damaged-/);
    rig = await startRig({ broker: 'embedded', tables: [ZAPP], directory });
    expect(rig.app.tableState('z1')?.game).toBe('zapp-zerapp');
  });

  it('a damaged log stops only the tables that write to it: LOG_CORRUPT names the file, and another controller starts', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'zaptable-security-'));
    const file = damagedLog(directory);
    const before = readFileSync(file);
    await expect(startRig({ broker: 'embedded', tables: [ZAPP], directory })).rejects.toThrow(new RegExp(
      `event log ${escape(file)}: LOG_CORRUPT: [\\s\\S]*left untouched[\\s\\S]*zaptable log export --db ${escape(file)}`
      + `[\\s\\S]*zaptable log repair --db ${escape(file)}`,
    ));
    expect(readFileSync(file).equals(before)).toBe(true);
    // Another controller on the same machine, with its own storage directory (and so its own log), plays on.
    rig = await startRig({ broker: 'embedded', tables: [ZIP] });
    const r = await Referee.connect(rig.brokerUrl);
    closers.push(async () => r.close());
    expect((await r.request('t1', 'next-round')).error?.code).toBe('ROUND_NOT_OVER');
  });
});

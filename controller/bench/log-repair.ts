/**
 * What `zaptable log repair` gets back from a log that lost its last page (issue 18 item 4), as figures: a log
 * of `games` bot games (Zapp Zerapp and Zip-Zap alternating, a sensor row and an action per step) is written by
 * the EventLog, its last page is cut off, and `exportReadable` and `repairLog` run on the copy. Prints the pages,
 * the rows written and the rows got back per table, and how long each step took (wall clock, in this process).
 * A measurement, never a timed test:
 *
 *   node --import tsx -e "import('./controller/bench/log-repair.ts').then((m) => m.benchLogRepair({ games: 52, print: console.log }))"
 */
import { copyFileSync, mkdtempSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { playGame } from '../bots/play-game.ts';
import { EventLog, exportReadable, repairLog } from '../persistence/index.ts';
import { getEngine } from '../rules/games.ts';

export interface LogRepairFigures {
  readonly pages: number;
  /** Rows per table in the intact file. */
  readonly written: Readonly<Record<string, number>>;
  /** Rows per table `exportReadable` read from the file without its last page. */
  readonly exported: Readonly<Record<string, number>>;
  readonly exportMs: number;
  readonly repairMs: number;
}

export function benchLogRepair(options: { games?: number; print?: (line: string) => void } = {}): LogRepairFigures {
  const games = options.games ?? 52;
  const dir = mkdtempSync(path.join(tmpdir(), 'zaptable-bench-repair-'));
  try {
    const file = path.join(dir, 'zaptable.db');
    const opened = EventLog.open(file);
    if (!opened.ok) throw new Error(`${opened.code}: ${opened.message}`);
    const log = opened.log;
    for (let g = 1; g <= games; g++) {
      const zip = g % 2 === 0;
      const game = zip ? 'zip-zap' : 'zapp-zerapp';
      const tableId = zip ? 't2' : 't1';
      const config = { players: zip ? ['A', 'B', 'C'] : ['red', 'green'] };
      const played = playGame(getEngine(game), config, g);
      const id = log.startGame({ tableId, game, config, seed: g });
      for (const [i, action] of played.actions.entries()) {
        const time = { source: 'device' as const, epoch: 1, deviceUs: 1000 * i, rawUs: 1000 * i, hostUs: 1000 * i, uncertaintyUs: 100, beforeUs: 80, afterUs: 0 };
        log.appendSensor(tableId, id, { station: `${tableId}-seat-1`, kind: 'button-pressed', seq: i, time });
        log.appendAction(tableId, id, action);
      }
      log.endGame(id, getEngine(game).result(played.finalState));
      log.commit();
    }
    log.close();
    const db = new Database(file, { readonly: true });
    const pages = Number(db.pragma('page_count', { simple: true }));
    const tables = ['games', 'log', 'snapshots', 'answers'];
    const written = Object.fromEntries(tables.map((t) => [t, Number(db.prepare(`SELECT count(*) FROM ${t}`).pluck().get())]));
    const pageSize = Number(db.pragma('page_size', { simple: true }));
    db.close();
    const cut = path.join(dir, 'cut.db');
    copyFileSync(file, cut);
    truncateSync(cut, (pages - 1) * pageSize);
    let start = performance.now();
    const read = exportReadable(cut);
    const exportMs = performance.now() - start;
    if ('error' in read) throw new Error(read.error);
    const exported = Object.fromEntries(tables.map((t) => [t, read.tables[t]?.length ?? 0]));
    start = performance.now();
    const repaired = repairLog(cut);
    const repairMs = performance.now() - start;
    if (!repaired.ok) throw new Error(`${repaired.code}: ${repaired.message}`);
    const figures = { pages, written, exported, exportMs, repairMs };
    options.print?.(`log repair, last page cut off: ${String(pages)} pages; written ${JSON.stringify(written)}; `
      + `read back ${JSON.stringify(exported)} (${read.reader}); export ${exportMs.toFixed(0)} ms, repair ${repairMs.toFixed(0)} ms`);
    return figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

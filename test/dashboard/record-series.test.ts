/**
 * The game record page's charts (dashboard/web/games/record-ui.ts and each game's `record.ts`) from real records
 * built from SQLite logs of bot games: Zip-Zap penalty points by round, Killer-21 lives over time, Zapp Zerapp
 * positions (fields travelled) — the numbers the chart draws and its text alternative's table lists.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { playGame } from '../../controller/bots/play-game.ts';
import { EventLog, GameRecords } from '../../controller/persistence/index.ts';
import type { PublicGameRecord } from '../../controller/rules/game-record.ts';
import { PUBLIC } from '../../controller/rules/common/viewer.ts';
import { getEngine } from '../../controller/rules/games.ts';
import { newFile } from '../persistence/helpers.ts';

const players = ['ana', 'ben', 'cy'];

/** What this test reads of the page's chart code (dashboard/web/games/record-ui.ts). */
interface Points { readonly xs: number[]; readonly ys: Record<string, number[]> }
interface Series extends Points { readonly title: string }
interface RecordUi { chart(steps: PublicGameRecord['steps'], players: readonly string[], view: unknown): Series | undefined }

/**
 * The browser code, imported at run time by a computed path (as test/dashboard/game-registry.test.ts does): a
 * static import would make the Node typecheck read DOM code. The chart code itself needs no DOM.
 */
async function web<T>(file: string): Promise<T> {
  return await import(pathToFileURL(path.resolve(import.meta.dirname, '../../dashboard/web/games', file)).href) as T;
}

const series = async (): Promise<{ scoresByRound: (...a: Parameters<RecordUi['chart']>) => Points; scoresOverTime: (...a: Parameters<RecordUi['chart']>) => Points }> =>
  web('record-ui.ts');

function recorded(game: string, seed: number): { record: PublicGameRecord; lastView: unknown } {
  const opened = EventLog.open(newFile('series'));
  if (!opened.ok) throw new Error(opened.message);
  const log = opened.log;
  const played = playGame(getEngine(game), { players }, seed);
  const id = log.startGame({ tableId: 't', game, config: { players }, seed });
  for (const action of played.actions) log.appendAction('t', id, action);
  log.endGame(id, played.result);
  log.commit();
  const found = new GameRecords(log).record('t', id);
  log.close();
  if (!found.ok) throw new Error(found.message);
  return { record: found.record, lastView: getEngine(game).view(played.finalState, PUBLIC) };
}

describe('record charts', () => {
  it('Zip-Zap: penalty points after every round, ending with the final scores', async () => {
    const { record } = recorded('zip-zap', 4);
    const { xs, ys } = (await series()).scoresByRound(record.steps, players, undefined);
    const last = record.steps.at(-1);
    expect(xs).toEqual(Array.from({ length: (last?.rounds ?? 0) + 1 }, (_, i) => i));
    for (const p of players) {
      expect(ys[p]?.[0]).toBe(0);
      expect(ys[p]?.at(-1)).toBe(last?.scores[p]);
      // Penalty points only grow.
      expect([...(ys[p] ?? [])].sort((a, b) => a - b)).toEqual(ys[p]);
    }
  });

  it('Killer-21: lives over time, from full to the end, one point per change', async () => {
    const { record, lastView } = recorded('killer-21', 6);
    const { xs, ys } = (await series()).scoresOverTime(record.steps, players, undefined);
    expect(xs[0]).toBe(0);
    expect([...xs].sort((a, b) => a - b)).toEqual(xs);
    for (const p of players) expect(ys[p]?.at(-1)).toBe(record.steps.at(-1)?.scores[p]);
    // Every change of lives is a point: as many points as distinct standings in a row (plus the last step).
    const { k21RecordUi } = await web<{ k21RecordUi: RecordUi }>('killer-21/record.ts');
    expect(k21RecordUi.chart(record.steps, players, lastView)?.title).toBe('Lives over time');
  });

  it('Zapp Zerapp: positions from the public moves, the winner\'s pieces all in the city at the end', async () => {
    const { record, lastView } = recorded('zapp-zerapp', 2);
    const { zappRecordUi } = await web<{ zappRecordUi: RecordUi }>('zapp-zerapp/record.ts');
    const series = zappRecordUi.chart(record.steps, players, lastView);
    if (series === undefined) throw new Error('no chart');
    const view = lastView as { board: { trackLength: number }; players: { id: string; inCity: number }[] };
    const winner = record.game.result?.winners[0] ?? '';
    // Every piece of the winner in the city: (track length + 1) fields each, as many as it has pieces there.
    const inCity = view.players.find((p) => p.id === winner)?.inCity ?? 0;
    expect(series.ys[winner]?.at(-1)).toBeGreaterThanOrEqual(inCity * (view.board.trackLength + 1));
    expect(series.ys[winner]?.[0]).toBe(0);
    expect(series.xs.length).toBeGreaterThan(10);
  });
});

/**
 * The game record (controller/persistence/game-record.ts) from a real SQLite log of bot games: every step's
 * public events and standing, the public view after any step (checkpoints included), the refusals as they were
 * announced, nothing hidden (no hand, no seed), and a running game's record following its log.
 */
import { describe, expect, it } from 'vitest';
import { page } from '../../controller/app/record-handlers.ts';
import { playGame } from '../../controller/bots/play-game.ts';
import { GameRecords, rebuildGame } from '../../controller/persistence/index.ts';
import { PUBLIC } from '../../controller/rules/common/viewer.ts';
import type { BaseAction } from '../../controller/rules/engine.ts';
import { getEngine, toPublicEvents } from '../../controller/rules/games.ts';
import type { ZipZapState } from '../../controller/rules/zip-zap/index.ts';
import { newFile, openLog } from './helpers.ts';

const players = ['ana', 'ben', 'cy'];

/** The public view after the first `n` actions, replayed here independently of the record builder. */
function viewAfter(game: string, seed: string | number, actions: readonly BaseAction[], n: number): unknown {
  const engine = getEngine(game);
  const setup = engine.setup({ players }, seed);
  if (!setup.ok) throw new Error(setup.message);
  let state = setup.state;
  for (const action of actions.slice(0, n)) {
    const next = engine.apply(state, action);
    if (!next.ok) throw new Error(next.message);
    state = next.state;
  }
  return engine.view(state, PUBLIC);
}

describe('game record from the log', () => {
  it('a finished Zip-Zap bot game: steps, times, standing, refusals as announced, views after any step, nothing hidden', () => {
    const log = openLog(newFile('record'));
    const seed = 'record-1';
    const played = playGame(getEngine('zip-zap'), { players }, seed);
    const gameId = log.startGame({ tableId: 't1', game: 'zip-zap', config: { players }, seed });
    const setup = getEngine('zip-zap').setup({ players }, seed);
    if (!setup.ok) throw new Error(setup.message);
    const hand = (setup.state as ZipZapState).hands.ben ?? [];
    const someoneElses = hand[0] ?? 'R1';
    for (const [i, action] of played.actions.entries()) {
      if (i === 3) {
        // A play of a card ana does not hold, refused: announced as HIDDEN_REASON, and so in the record.
        log.appendRejected('t1', gameId, { type: 'play', player: 'ana', card: someoneElses }, { code: 'CARD_NOT_IN_HAND', message: `ana does not hold ${someoneElses}` });
        // A logged action undone by the referee is not a step.
        const wrong = log.appendAction('t1', gameId, action);
        log.appendCorrection('t1', gameId, { by: 'referee', reason: 'twice', action: { type: 'undo', seq: wrong } });
      }
      log.appendAction('t1', gameId, action);
    }
    log.endGame(gameId, played.result);
    log.commit();

    const records = new GameRecords(log, { checkpointEvery: 7 });
    expect(records.games('t1').map((g) => [g.id, g.game, g.players, g.result?.over])).toEqual([[gameId, 'zip-zap', players, true]]);
    const found = records.record('t1');
    if (!found.ok) throw new Error(found.message);
    const { record } = found;
    expect(record.steps).toHaveLength(played.actions.length + 1);
    expect(record.steps[0]).toMatchObject({ step: 0, seq: null, action: null });
    // Each step's events are exactly the engine's events through the public filter.
    const engine = getEngine('zip-zap');
    let state = setup.state;
    for (const [i, action] of played.actions.entries()) {
      const next = engine.apply(state, action);
      if (!next.ok) throw new Error(next.message);
      state = next.state;
      const step = record.steps[i + 1];
      expect(step?.action).toBe(action.type);
      expect(step?.events).toEqual(toPublicEvents('zip-zap', next.events));
      expect(step?.scores).toEqual(engine.result(state).scores);
    }
    // Times are the log's, in order.
    const times = record.steps.map((s) => s.at);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(record.steps.at(-1)?.over).toBe(true);
    // The refused play, as it was announced: no reason that tells ben's hand.
    expect(record.refusals).toEqual([expect.objectContaining({ afterStep: 3, action: 'play', code: 'HIDDEN_REASON' })]);
    expect(JSON.stringify(record)).not.toContain('CARD_NOT_IN_HAND');
    // The referee's undo, between the steps it fell between; the undone action is not a step.
    expect(record.corrections).toEqual([expect.objectContaining({ afterStep: 3, undone: played.actions[3]?.type, reason: 'twice' })]);
    // Nothing hidden: no seed, no hand (the setup step deals them and shows counts only).
    const text = JSON.stringify(record);
    expect(text).not.toContain(seed);
    expect(text).not.toContain('"hands"');
    expect(record.steps[0]?.events.length).toBeGreaterThan(0);

    // Stepping back: the public view after any step, across checkpoints, equals an independent replay's.
    for (const n of [0, 1, 6, 7, 8, 20, played.actions.length]) {
      const at = records.viewAt('t1', gameId, n);
      if (!at.ok) throw new Error(at.message);
      expect(at.view).toEqual(viewAfter('zip-zap', seed, played.actions, n));
      expect(JSON.stringify(at.view)).not.toContain('"hands"');
    }
    const rebuilt = rebuildGame(log, gameId);
    if (!rebuilt.ok) throw new Error(rebuilt.message);
    const last = records.viewAt('t1', gameId, played.actions.length);
    expect(last.ok && last.view).toEqual(engine.view(rebuilt.state, PUBLIC));

    // Bad input: answered with a code, nothing built.
    expect(records.viewAt('t1', gameId, played.actions.length + 1)).toMatchObject({ ok: false, code: 'NO_SUCH_STEP' });
    expect(records.record('t2', gameId)).toMatchObject({ ok: false, code: 'NO_SUCH_GAME' });
    expect(records.record('t2')).toMatchObject({ ok: false, code: 'NO_SUCH_GAME' });
    log.close();
  });

  it('a running game: the record follows its log; Killer-21 lives and Zapp Zerapp barrels stay as public as on MQTT', () => {
    const log = openLog(newFile('record'));
    const killer = playGame(getEngine('killer-21'), { players }, 5);
    const k = log.startGame({ tableId: 'k', game: 'killer-21', config: { players }, seed: 5 });
    for (const action of killer.actions.slice(0, 10)) log.appendAction('k', k, action);
    log.commit();
    const records = new GameRecords(log);
    const first = records.record('k');
    expect(first.ok && first.record.steps.length).toBe(11);
    for (const action of killer.actions.slice(10)) log.appendAction('k', k, action);
    log.commit();
    const all = records.record('k');
    if (!all.ok) throw new Error(all.message);
    expect(all.record.steps).toHaveLength(killer.actions.length + 1);
    // Lives over time: the scores are the lives, starting full and ending with the winner's.
    const lives = all.record.steps.map((s) => s.scores);
    expect(Object.keys(lives[0] ?? {})).toEqual(players);
    expect(lives.at(-1)).toEqual(killer.result.scores);

    const zapp = playGame(getEngine('zapp-zerapp'), { players }, 9);
    const z = log.startGame({ tableId: 'z', game: 'zapp-zerapp', config: { players }, seed: 9 });
    for (const action of zapp.actions) log.appendAction('z', z, action);
    log.commit();
    const record = records.record('z', z);
    if (!record.ok) throw new Error(record.message);
    // A placed barrel's number is in the action (`place`) but never in the record before the reveal.
    const placed = record.record.steps.filter((s) => s.action === 'place');
    expect(placed.length).toBeGreaterThan(0);
    for (const step of placed) expect(JSON.stringify(step)).not.toMatch(/"barrel"/);
    log.close();
  });

  it('pages stay under the budget and always move on', () => {
    const items = Array.from({ length: 10 }, (_, i) => ({ i, pad: 'x'.repeat(40) }));
    const first = page(items, 0, 120);
    expect(first.items.length).toBe(2);
    expect(first.next).toBe(2);
    expect(page(items, 9, 120)).toEqual({ items: [items[9]], next: null });
    // One item larger than the budget still goes (alone), so a page never stalls.
    expect(page(items, 0, 10)).toEqual({ items: [items[0]], next: 1 });
  });
});

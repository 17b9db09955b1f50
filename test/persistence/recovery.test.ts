/**
 * Recovery rebuilds the exact state of a random bot game from the log — with undo corrections and snapshots,
 * checked mid-game and at the end, and after reopening the file.
 */
import { describe, expect, it } from 'vitest';
import { playGame } from '../../controller/bots/play-game.ts';
import { pickRandom } from '../../controller/bots/random-bot.ts';
import { recoverTables, rebuildGame, type EventLog, type RebuildResult } from '../../controller/persistence/index.ts';
import { nextInt, seedRng, type Rng } from '../../controller/kernel/random.ts';
import type { BaseAction, GameId } from '../../controller/rules/engine.ts';
import { getEngine } from '../../controller/rules/games.ts';
import { newFile, openLog } from './helpers.ts';

function ok(result: RebuildResult | undefined) {
  if (result?.ok !== true) return expect.fail(`recovery failed: ${JSON.stringify(result)}`);
  return result;
}

/**
 * Plays a bot game and logs it; now and then logs one or two wrong actions first and undoes them (the
 * referee's correction), and snapshots every 20 actions — sometimes right before an undo, which invalidates it.
 * Every 40 actions, recovery must give the live state, with and without snapshots.
 */
function logBotGame(log: EventLog, game: GameId, seed: number, players: readonly string[], rules: Record<string, unknown> = {}) {
  const engine = getEngine(game);
  const config = { players, ...rules };
  const gameId = log.startGame({ tableId: `T-${game}`, game, config, seed });
  const setup = engine.setup(config, seed);
  if (!setup.ok) throw new Error(setup.message);
  let before: unknown = setup.state;
  let rng: Rng = seedRng(`undo:${seed}`);
  let undos = 0;
  const logWrong = (state: unknown, action: BaseAction): unknown => {
    let wrong: BaseAction;
    [wrong, rng] = pickRandom(rng, engine.legalActions(state));
    const stamped = wrong.at === undefined ? { ...wrong, at: action.at } : wrong;
    const outcome = engine.apply(state, stamped);
    if (!outcome.ok) return undefined;
    log.appendAction(`T-${game}`, gameId, stamped);
    return outcome.state;
  };
  const undoLast = () => {
    const seq = log.lastActionInForce(gameId);
    expect(log.appendCorrection(`T-${game}`, gameId, { by: 'referee', reason: 'misread tag', action: { type: 'undo', seq: seq ?? -1 } }))
      .toMatchObject({ ok: true });
    undos++;
  };
  const played = playGame(engine, config, seed, {
    onState: (state, action, index) => {
      let roll: number;
      [roll, rng] = nextInt(rng, 8);
      if (roll === 0) {
        const wrongState = logWrong(before, action);
        if (wrongState !== undefined) {
          [roll, rng] = nextInt(rng, 3);
          if (roll === 0) log.appendSnapshot(gameId, wrongState);
          if (roll === 1 && logWrong(wrongState, action) !== undefined) undoLast();
          undoLast();
        }
      }
      log.appendAction(`T-${game}`, gameId, action, { index });
      if ((index + 1) % 20 === 0) log.appendSnapshot(gameId, state);
      if ((index + 1) % 40 === 0) {
        log.commit();
        const recovered = ok(recoverTables(log).find((r) => r.gameId === gameId));
        expect(recovered.state).toEqual(state);
        expect(recovered.actionCount).toBe(index + 1);
        expect(ok(rebuildGame(log, gameId, { useSnapshots: false })).state).toEqual(state);
      }
      before = state;
    },
  });
  log.commit();
  return { gameId, played, undos };
}

describe('recovery', () => {
  // Killer-21 twice: dealt by the engine, and dealt at the table (its state then holds the unseen cards).
  const games = [
    ['zip-zap', {}, 7], ['zapp-zerapp', {}, 7], ['killer-21', {}, 7], ['killer-21', { dealing: 'TABLE' }, 7],
  ] as const;
  for (const [game, rules, seed] of games) {
    it(`rebuilds the exact state of a random ${game} ${JSON.stringify(rules)} bot game with undo corrections, from snapshots or from setup`, () => {
      const file = newFile(game);
      const log = openLog(file, { autoCommit: false });
      const { gameId, played, undos } = logBotGame(log, game, seed, ['A', 'B', 'C'], rules);
      expect(played.actionCount).toBeGreaterThan(40);
      expect(undos).toBeGreaterThan(played.actionCount / 40);
      const check = (l: EventLog) => {
        const [recovered] = recoverTables(l);
        const r = ok(recovered);
        expect(r).toMatchObject({ tableId: `T-${game}`, gameId, game, actionCount: played.actionCount, lastSeq: l.reader.lastSeq(gameId) });
        expect(r.fromSnapshot).not.toBeNull();
        expect(r.state).toEqual(played.finalState);
        expect(ok(rebuildGame(l, gameId, { useSnapshots: false })).state).toEqual(played.finalState);
      };
      check(log);
      log.close();
      // After a restart the writer knows which action an undo may name, from the file alone.
      const reopened = openLog(file);
      check(reopened);
      expect(reopened.actionCount(gameId)).toBe(played.actionCount);
      reopened.endGame(gameId, played.result);
      expect(recoverTables(reopened)).toEqual([]);
      expect(ok(rebuildGame(reopened, gameId)).state).toEqual(played.finalState);
      reopened.close();
    });
  }

  it('ignores a snapshot that an undo reached behind, and answers bad corrections without logging them', () => {
    const log = openLog(newFile());
    const played = playGame(getEngine('zip-zap'), { players: ['A', 'B'] }, 3);
    const gameId = log.startGame({ tableId: 'T1', game: 'zip-zap', config: { players: ['A', 'B'] }, seed: 3 });
    const correction = (seq: number) => log.appendCorrection('T1', gameId, { by: 'ref', reason: 'test', action: { type: 'undo', seq } });
    expect(correction(1)).toMatchObject({ ok: false, code: 'NOTHING_TO_UNDO' });
    const engine = getEngine('zip-zap');
    const after = (n: number) => {
      const setup = engine.setup({ players: ['A', 'B'] }, 3);
      if (!setup.ok) throw new Error('setup');
      let state = setup.state;
      for (const a of played.actions.slice(0, n)) {
        const o = engine.apply(state, a);
        if (!o.ok) throw new Error(o.message);
        state = o.state;
      }
      return state;
    };
    const seqs = [log.appendAction('T1', gameId, played.actions[0] as BaseAction)];
    log.appendSnapshot(gameId, after(1));
    seqs.push(...played.actions.slice(1, 3).map((a) => log.appendAction('T1', gameId, a)));
    log.appendSnapshot(gameId, after(3));
    expect(ok(recoverTables(log)[0]).fromSnapshot).toBe(seqs[2]);
    expect(correction(seqs[0] ?? 0)).toMatchObject({ ok: false, code: 'UNDO_NOT_LAST' });
    expect(log.appendCorrection('T1', gameId, { by: '', reason: 'x', action: { type: 'undo', seq: seqs[2] ?? 0 } }))
      .toMatchObject({ ok: false, code: 'BAD_CORRECTION' });
    expect(log.reader.counts(gameId).correction).toBe(0);
    expect(correction(seqs[2] ?? 0)).toMatchObject({ ok: true });
    const r = ok(recoverTables(log)[0]);
    expect(r.actionCount).toBe(2);
    expect(r.fromSnapshot).toBe(seqs[0]);
    expect(r.state).toEqual(after(2));
    log.close();
  });

  it('reports a game whose logged action no longer applies instead of inventing a state', () => {
    const log = openLog(newFile());
    const gameId = log.startGame({ tableId: 'T1', game: 'zip-zap', config: { players: ['A', 'B'] }, seed: 3 });
    const seq = log.appendAction('T1', gameId, { type: 'zap', player: 'Nobody', at: 5 } as BaseAction);
    expect(recoverTables(log)).toEqual([expect.objectContaining({ ok: false, gameId, tableId: 'T1', code: 'REPLAY_REJECTED', seq })]);
    expect(rebuildGame(log, 999)).toMatchObject({ ok: false, code: 'NO_SUCH_GAME' });
    log.close();
  });
});

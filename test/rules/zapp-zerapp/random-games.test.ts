// Property checks over random games: a uniformly random bot always finishes with a winner, every reachable
// state keeps its invariants, and the public view never depends on unrevealed barrel numbers.
import { describe, expect, it } from 'vitest';
import { nextInt, seedRng, type Rng } from '../../../controller/kernel/random.ts';
import { PUBLIC } from '../../../controller/rules/common/viewer.ts';
import {
  checkInvariants, zappZerappEngine as engine, type BarrelLoc, type ZappState,
} from '../../../controller/rules/zapp-zerapp/index.ts';

const MAX_ACTIONS = 20_000;

/** Plays one game with a uniformly random bot; calls `visit` after every action. */
function play(game: number, visit: (s: ZappState) => void): ZappState {
  const players = ['p1', 'p2', 'p3', 'p4'].slice(0, 2 + (game % 3));
  const variant = game % 2 === 0 ? 'BASIC' : 'PRO';
  const extra = game % 5 === 0 ? { banishMode: 'CLAIM', moveMandatory: false, maxBarrelsInHand: 1 } as const : {};
  const setup = engine.setup({ players, variant, ...extra }, `game-${game}`);
  if (!setup.ok) throw new Error(setup.message);
  let state = setup.state;
  let rng: Rng = seedRng(`bot-${game}`);
  for (let n = 0; n < MAX_ACTIONS && state.phase !== 'DONE'; n++) {
    const actions = engine.legalActions(state);
    let i: number;
    [i, rng] = nextInt(rng, actions.length);
    const action = actions[i];
    if (!action) throw new Error('no legal action in a running game');
    const out = engine.apply(state, action);
    if (!out.ok) throw new Error(`legal action ${JSON.stringify(action)} rejected: ${out.code} ${out.message}`);
    state = out.state;
    visit(state);
  }
  return state;
}

/** The same state with the unrevealed placed and held barrels swapped for other mountain barrels. */
function withOtherSecrets(state: ZappState): ZappState {
  const barrels: Record<string, BarrelLoc> = { ...state.barrels };
  const hidden = Object.entries(barrels).filter(([, loc]) => loc.at !== 'MOUNTAIN').map(([v]) => v);
  const free = Object.entries(barrels).filter(([, loc]) => loc.at === 'MOUNTAIN').map(([v]) => v);
  hidden.forEach((v, i) => {
    const other = free[free.length - 1 - i];
    if (other === undefined) return;
    barrels[other] = barrels[v] as BarrelLoc;
    barrels[v] = { at: 'MOUNTAIN' };
  });
  return { ...state, barrels };
}

describe('random games', () => {
  it('200 games (2–4 players, BASIC and PRO) all end with a winner and keep every invariant', () => {
    let checked = 0;
    for (let game = 0; game < 200; game++) {
      const final = play(game, (s) => {
        // Invariants on every state of a quarter of the games keeps the suite quick.
        if (game % 4 !== 0) return;
        const broken = checkInvariants(s);
        if (broken.length > 0) throw new Error(`game ${game}: ${broken.join('; ')}`);
        checked++;
      });
      expect(final.phase, `game ${game}`).toBe('DONE');
      const result = engine.result(final);
      expect(result.winners).toHaveLength(1);
      expect(result.scores[result.winners[0] ?? '']).toBe(3);
      expect(checkInvariants(final)).toEqual([]);
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('never shows an unrevealed barrel number in the public view', () => {
    let compared = 0;
    for (let game = 0; game < 20; game++) {
      play(game, (s) => {
        if (s.phase !== 'SELECT') return;
        const pub = engine.view(s, PUBLIC);
        for (const v of Object.values(pub.placed)) expect(typeof v).toBe('boolean');
        expect(pub.secret).toBeUndefined();
        expect(pub.barrels).toBeUndefined();
        // Swapping the hidden barrels for others must not change a single byte of the public view.
        expect(JSON.stringify(engine.view(withOtherSecrets(s), PUBLIC))).toBe(JSON.stringify(pub));
        compared++;
      });
    }
    expect(compared).toBeGreaterThan(100);
  });
});

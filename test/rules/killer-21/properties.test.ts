/**
 * Property-based tests over random bot games (fast-check picks seeds, player counts and options): invariants
 * after every action (every card in exactly one place), lives never increase, the total never passes 21,
 * same seed → same game, replaying the action log reproduces the final state, the result agrees with the
 * lives, and no view shows a card of another player's hand or of the deck.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { playGame } from '../../../controller/bots/play-game.ts';
import { OMNISCIENT, PUBLIC, type Viewer } from '../../../controller/rules/common/viewer.ts';
import {
  checkInvariants, killer21Engine, type Killer21Action, type Killer21State,
} from '../../../controller/rules/killer-21/index.ts';

const RUNS = 25;
const IDS = ['A', 'B', 'C', 'D', 'E', 'F', 'G'];

const options = fc.record({
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  players: fc.integer({ min: 2, max: 7 }),
  killerHits: fc.constantFrom('EVERYONE', 'OTHERS'),
  lifeHits: fc.constantFrom('EVERYONE', 'OTHERS'),
  afterBust: fc.constantFrom('NEXT_PLAYER', 'SAME_PLAYER'),
  allowVoluntaryBust: fc.boolean(),
  autoBust: fc.boolean(),
  allOutPolicy: fc.constantFrom('SHARED', 'HAND_POINTS'),
  variant: fc.constantFrom('STANDARD', 'BLITZ'),
  killerWindowMs: fc.constantFrom(0, 800, 3000),
});

type Options = typeof options extends fc.Arbitrary<infer T> ? T : never;

function configOf(o: Options): Record<string, unknown> & { players: string[] } {
  const { seed: _seed, players, ...rest } = o;
  return { players: IDS.slice(0, players), ...rest };
}

/**
 * Deals the cards `viewer` may not see (other hands, the deck) out again in another order, keeping every count:
 * what `viewer` sees must not change. A zero still in a hand that a Killer answer refers to is left in place.
 */
function reshuffleHidden(state: Killer21State, viewer: string | null, salt: number): Killer21State {
  const pinned = new Set(Object.values(state.killer?.answers ?? {}).map((a) => a.card).filter((c) => c !== undefined));
  const owners = state.players.filter((p) => p !== viewer);
  const pool: string[] = [];
  for (const p of owners) for (const c of state.hands[p] ?? []) if (!pinned.has(c)) pool.push(c);
  for (const c of state.deck) pool.push(c);
  if (pool.length < 2) return state;
  const k = 1 + (salt % (pool.length - 1));
  const rotated = [...pool.slice(k), ...pool.slice(0, k)];
  let i = 0;
  const hands: Record<string, readonly string[]> = { ...state.hands };
  for (const p of owners) hands[p] = (state.hands[p] ?? []).map((c) => (pinned.has(c) ? c : rotated[i++] as string));
  const deck = state.deck.map(() => rotated[i++] as string);
  return { ...state, hands, deck };
}

describe('Killer-21 random games', () => {
  it('keep every card in one place, never give a life back, never pass 21, and never show a hidden card', () => {
    fc.assert(fc.property(options, (o) => {
      const config = configOf(o);
      let before: Killer21State | null = null;
      playGame(killer21Engine, config, o.seed, {
        recordActions: false,
        onState: (raw, action, index) => {
          const state = raw as Killer21State;
          const where = `after action ${index} ${JSON.stringify(action)}`;
          const broken = checkInvariants(state);
          if (broken.length > 0) throw new Error(`${where}: ${broken.join('; ')}`);
          if (before !== null) {
            for (const p of state.players) {
              if ((state.lives[p] ?? 0) > (before.lives[p] ?? 0)) throw new Error(`${where}: ${p} gained a life`);
            }
          }
          if (state.total > 21) throw new Error(`${where}: total ${state.total}`);
          before = state;
          if (index % 3 !== 0) return; // the view checks are the slow part
          const publicJson = JSON.stringify(killer21Engine.view(state, PUBLIC));
          for (const c of state.deck) if (publicJson.includes(`"${c}"`)) throw new Error(`${where}: deck card ${c} is public`);
          for (const owner of state.players) {
            for (const c of state.hands[owner] ?? []) {
              if (publicJson.includes(`"${c}"`)) throw new Error(`${where}: ${owner}'s ${c} is public`);
            }
          }
          const me = state.players[index % state.players.length] as string;
          const mine: Viewer = { role: 'player', player: me };
          expect(killer21Engine.view(reshuffleHidden(state, null, index), PUBLIC)).toEqual(killer21Engine.view(state, PUBLIC));
          expect(killer21Engine.view(reshuffleHidden(state, me, index), mine)).toEqual(killer21Engine.view(state, mine));
        },
      });
    }), { numRuns: RUNS });
  });

  it('same seed → same game; replaying the log reproduces it; the result agrees with the lives', () => {
    fc.assert(fc.property(options, (o) => {
      const config = configOf(o);
      const first = playGame(killer21Engine, config, o.seed);
      const second = playGame(killer21Engine, config, o.seed);
      expect(second.actions).toEqual(first.actions);
      expect(second.finalState).toEqual(first.finalState);
      // Replay as `zaptable replay` does (parse every action from JSON, apply in order); `replayLog` itself
      // picks engines from the registry, which phase B extends to Killer-21.
      const log = JSON.parse(JSON.stringify({ config, seed: o.seed, actions: first.actions })) as { actions: unknown[] };
      const setup = killer21Engine.setup(config, o.seed);
      if (!setup.ok) throw new Error(setup.message);
      let state = setup.state;
      for (const raw of log.actions) {
        const action = killer21Engine.parseAction(raw);
        if ('error' in action) throw new Error(action.error);
        const outcome = killer21Engine.apply(state, action);
        if (!outcome.ok) throw new Error(`${outcome.code}: ${outcome.message}`);
        state = outcome.state;
      }
      expect(state).toEqual(first.finalState);
      const final = first.finalState as Killer21State;
      expect(first.result.over).toBe(true);
      expect(first.result.winners.length).toBeGreaterThan(0);
      expect(first.result.scores).toEqual(final.lives);
      expect(first.result.rounds).toBe(final.roundWinners.length);
      if (o.variant === 'STANDARD') {
        const left = final.players.filter((p) => (final.lives[p] ?? 0) > 0);
        expect(left.length <= 1).toBe(true);
        if (left.length === 1) expect(first.result.winners).toEqual(left);
      } else {
        expect(final.players.some((p) => final.lives[p] === 0)).toBe(true);
        const most = Math.max(...final.players.map((p) => final.lives[p] ?? 0));
        for (const w of first.result.winners) expect(final.lives[w]).toBe(most);
      }
    }), { numRuns: RUNS });
  });

  it('every listed action is accepted, and only a finished game lists none', () => {
    fc.assert(fc.property(options, (o) => {
      playGame(killer21Engine, configOf(o), o.seed, {
        recordActions: false,
        onState: (raw, _action, index) => {
          if (index % 5 !== 0) return;
          const state = raw as Killer21State;
          const legal = killer21Engine.legalActions(state);
          expect(legal.length === 0).toBe(state.phase === 'GAME_OVER');
          for (const a of legal) {
            const timed: Killer21Action = a.type === 'respond' && state.killer?.deadline != null ? { ...a, at: state.killer.deadline } : a;
            const outcome = killer21Engine.apply(state, timed);
            if (!outcome.ok) throw new Error(`listed ${JSON.stringify(a)} refused: ${outcome.code}`);
          }
          expect(killer21Engine.view(state, OMNISCIENT)).toBeDefined();
        },
      });
    }), { numRuns: 10 });
  });
});

/**
 * Property-based tests over random bot games (fast-check picks seeds, player counts and variants):
 * invariants after every action, same seed → same game, replaying the log reproduces the final state,
 * scores add up, and views never leak another player's hand or an unrevealed barrel.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { playGame } from '../../controller/bots/play-game.ts';
import { OMNISCIENT, PUBLIC } from '../../controller/rules/common/viewer.ts';
import { getEngine } from '../../controller/rules/games.ts';
import { checkInvariants as zappInvariants } from '../../controller/rules/zapp-zerapp/index.ts';
import type { ZappState, ZappView } from '../../controller/rules/zapp-zerapp/index.ts';
import { checkInvariants as zipInvariants } from '../../controller/rules/zip-zap/index.ts';
import type { ZipZapOmniscientView, ZipZapPublicView, ZipZapState } from '../../controller/rules/zip-zap/index.ts';
import { replayLog } from '../../controller/scenarios/action-log.ts';

const RUNS = 20;
const zip = getEngine('zip-zap');
const zapp = getEngine('zapp-zerapp');
const ZIP_IDS = ['A', 'B', 'C', 'D', 'E', 'F'];
const ZAPP_IDS = ['red', 'green', 'blue', 'yellow'];

describe('Zip-Zap random games', () => {
  const arbitrary = fc.record({
    seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    players: fc.integer({ min: 2, max: 6 }),
    scoringMode: fc.constantFrom('PENALTY', 'WINS'),
    reserveExhausted: fc.constantFrom('REDEAL', 'OPEN_START'),
  });

  it('keep every card in exactly one place and never show a held card to anyone else', () => {
    fc.assert(fc.property(arbitrary, ({ seed, players, scoringMode, reserveExhausted }) => {
      const ids = ZIP_IDS.slice(0, players);
      playGame(zip, { players: ids, scoringMode, reserveExhausted }, seed, {
        onState: (state, action, index) => {
          const broken = zipInvariants(state as ZipZapState);
          if (broken.length > 0) throw new Error(`after action ${index} ${JSON.stringify(action)}: ${broken.join('; ')}`);
          const all = zip.view(state, OMNISCIENT) as ZipZapOmniscientView;
          // Each view is built and serialised once per state and searched for every card held by someone else;
          // leaks are collected and asserted once per state. (One view per card and one `expect` per card and
          // viewer, ~10^6 calls, made this test take 10 s idle and over 60 s on a busy machine.)
          const views: [string, string][] = [['public', JSON.stringify(zip.view(state, PUBLIC))]];
          for (const id of ids) views.push([id, JSON.stringify(zip.view(state, { role: 'player', player: id }))]);
          const leaks: string[] = [];
          for (const [owner, hand] of Object.entries(all.hands)) {
            for (const card of hand) {
              for (const [viewer, json] of views) {
                if (viewer !== owner && json.includes(`"${card}"`)) leaks.push(`${owner}'s ${card} in the ${viewer} view`);
              }
            }
          }
          if (leaks.length > 0) throw new Error(`after action ${index} ${JSON.stringify(action)}: ${leaks.join('; ')}`);
        },
      });
    }), { numRuns: RUNS });
  });

  it('same seed → same game; replaying the log reproduces the final state; scores add up', () => {
    fc.assert(fc.property(arbitrary, ({ seed, players, scoringMode }) => {
      const config = { players: ZIP_IDS.slice(0, players), scoringMode };
      const first = playGame(zip, config, seed);
      const second = playGame(zip, config, seed);
      expect(second.actions).toEqual(first.actions);
      expect(second.finalState).toEqual(first.finalState);
      const replayed = replayLog({ game: 'zip-zap', config, seed, actions: first.actions });
      expect(replayed.ok).toBe(true);
      if (replayed.ok) expect(replayed.state).toEqual(first.finalState);
      const view = zip.view(first.finalState, PUBLIC) as ZipZapPublicView;
      expect(view.over).toBe(true);
      for (const p of view.players) {
        expect(p.total).toBe(p.roundScores.reduce((a, b) => a + b, 0));
        expect(first.result.scores[p.id]).toBe(p.total);
      }
      expect(view.roundWinners.length).toBe(first.result.rounds);
      if (scoringMode === 'WINS') {
        const totalWins = Object.values(first.result.scores).reduce((a, b) => a + b, 0);
        expect(totalWins).toBe(first.result.rounds);
      }
    }), { numRuns: RUNS });
  });
});

/** Re-deals the barrels that `keep` does not hold or own: the public (or keep's) view must not change. */
function shuffleHiddenBarrels(state: ZappState, keep: string | null, seed: number): ZappState {
  const hidden = Object.entries(state.barrels)
    .filter(([, loc]) => loc.at === 'MOUNTAIN' || loc.player !== keep)
    .map(([value]) => value);
  const locs = hidden.map((v) => state.barrels[v]);
  const rotated = locs.map((_, i) => locs[(i + 1 + (seed % Math.max(1, locs.length - 1))) % locs.length]);
  const barrels = { ...state.barrels };
  hidden.forEach((v, i) => {
    const loc = rotated[i];
    if (loc) barrels[v] = loc;
  });
  return { ...state, barrels };
}

describe('Zapp Zerapp random games', () => {
  const arbitrary = fc.record({
    seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    players: fc.integer({ min: 2, max: 4 }),
    variant: fc.constantFrom('BASIC', 'PRO'),
  });

  it('keep every piece on the board and never reveal a barrel before the reveal', () => {
    fc.assert(fc.property(arbitrary, ({ seed, players, variant }) => {
      const ids = ZAPP_IDS.slice(0, players);
      playGame(zapp, { players: ids, variant }, seed, {
        onState: (raw, action, index) => {
          const state = raw as ZappState;
          const broken = zappInvariants(state);
          if (broken.length > 0) throw new Error(`after action ${index} ${JSON.stringify(action)}: ${broken.join('; ')}`);
          const view = zapp.view(state, PUBLIC) as ZappView;
          // Checked in plain code, one error per state: an `expect` per piece and state (~150 000 calls) was
          // most of this test's time.
          const off = Object.entries(view.pieces)
            .filter(([, loc]) => !(loc === 'START' || loc === 'CITY' || (Number.isInteger(loc) && loc >= 0 && loc < view.board.trackLength)));
          if (off.length > 0) throw new Error(`after action ${index} ${JSON.stringify(action)}: off the board: ${JSON.stringify(off)}`);
          if (state.phase !== 'SELECT') return;
          // Before the reveal the barrels' numbers are secret: swapping them must not change what is published,
          // nor what another player sees.
          expect(zapp.view(shuffleHiddenBarrels(state, null, index), PUBLIC)).toEqual(view);
          const me = ids[index % ids.length] as string;
          const mine = { role: 'player', player: me } as const;
          expect(zapp.view(shuffleHiddenBarrels(state, me, index), mine)).toEqual(zapp.view(state, mine));
        },
      });
    }), { numRuns: RUNS });
  });

  it('same seed → same game; replaying the log reproduces the final state; the winner has 3 pieces home', () => {
    fc.assert(fc.property(arbitrary, ({ seed, players, variant }) => {
      const config = { players: ZAPP_IDS.slice(0, players), variant };
      const first = playGame(zapp, config, seed);
      const second = playGame(zapp, config, seed);
      expect(second.actions).toEqual(first.actions);
      expect(second.finalState).toEqual(first.finalState);
      const replayed = replayLog({ game: 'zapp-zerapp', config, seed, actions: first.actions });
      expect(replayed.ok).toBe(true);
      if (replayed.ok) expect(replayed.state).toEqual(first.finalState);
      expect(first.result.winners).toHaveLength(1);
      const view = zapp.view(first.finalState, PUBLIC) as ZappView;
      const winner = view.players.find((p) => p.id === first.result.winners[0]);
      expect(winner?.inCity).toBe(3);
      for (const p of view.players) {
        const home = Object.entries(view.pieces).filter(([id, loc]) => id.startsWith(p.colour) && loc === 'CITY').length;
        expect(first.result.scores[p.id]).toBe(home);
      }
    }), { numRuns: RUNS });
  });
});

/**
 * Random legal play: uniform bots over `legalActions` always finish the game, every state keeps the
 * invariants, and the public view never shows a card that is in a hand.
 */
import { describe, expect, it } from 'vitest';
import { playGame } from '../../../controller/bots/play-game.ts';
import { PUBLIC } from '../../../controller/rules/common/viewer.ts';
import type { AnyEngine } from '../../../controller/rules/games.ts';
import { checkInvariants, toPublicEvent, zipZapEngine, type ZipZapState } from '../../../controller/rules/zip-zap/index.ts';

const engine = zipZapEngine as unknown as AnyEngine;
const PLAYERS = ['A', 'B', 'C', 'D', 'E', 'F'];
const VARIANTS: Record<string, unknown>[] = [
  {}, { stuckDetection: 'HUMAN' }, { reserveExhausted: 'OPEN_START' }, { scoringMode: 'WINS' }, { tieWindowMs: 400 },
  { stuckDetection: 'TIMEOUT', tiePolicy: 'TIEBREAK_ROUND_WINS_THEN_SHARED' },
];

/** Card ids that are in some hand now; none may appear (quoted) in the public view. */
function leaks(state: ZipZapState): string[] {
  const text = JSON.stringify(zipZapEngine.view(state, PUBLIC));
  const out: string[] = [];
  for (const p of state.players) for (const c of state.hands[p] ?? []) if (text.includes(`"${c}"`)) out.push(c);
  for (const c of state.unseen) if (text.includes(`"${c}"`)) out.push(c);
  return out;
}

describe('random games', () => {
  it('200 games with 2..6 players all end, keep the invariants and leak no hand', () => {
    let actions = 0;
    for (let g = 0; g < 200; g++) {
      const config = { players: PLAYERS.slice(0, 2 + (g % 5)), ...VARIANTS[g % VARIANTS.length] };
      const game = playGame(engine, config, g, {
        recordActions: false,
        onState: (state, action, i) => {
          const s = state as ZipZapState;
          const problems = [...checkInvariants(s), ...leaks(s).map((c) => `public view shows ${c}`)];
          if (problems.length > 0) expect.fail(`game ${g}, action ${i} ${JSON.stringify(action)}: ${problems.join('; ')}`);
        },
      });
      expect(game.result.over).toBe(true);
      expect(game.result.winners.length).toBeGreaterThan(0);
      expect(game.result.rounds).toBe((game.finalState as ZipZapState).roundsTotal);
      actions += game.actionCount;
    }
    expect(actions).toBeGreaterThan(10_000);
  });

  it('replays identically from the same seed', () => {
    const a = playGame(engine, { players: ['A', 'B', 'C'] }, 'replay');
    const b = playGame(engine, { players: ['A', 'B', 'C'] }, 'replay');
    expect(b.finalState).toEqual(a.finalState);
    let state = zipZapEngine.setup({ players: ['A', 'B', 'C'] }, 'replay');
    for (const action of a.actions) {
      if (!state.ok) break;
      const parsed = zipZapEngine.parseAction(JSON.parse(JSON.stringify(action)));
      if ('error' in parsed) expect.fail(parsed.error);
      state = zipZapEngine.apply(state.state, parsed);
    }
    expect(state.ok && state.state).toEqual(a.finalState);
  });

  it('public events carry no hidden information', () => {
    let state = zipZapEngine.setup({ players: ['A', 'B', 'C', 'D'] }, 3);
    let steps = 0;
    while (state.ok && !zipZapEngine.result(state.state).over && steps < 3000) {
      const s: ZipZapState = state.state;
      const next = zipZapEngine.apply(s, zipZapEngine.legalActions(s)[steps % zipZapEngine.legalActions(s).length] as never);
      if (!next.ok) expect.fail(next.message);
      const text = JSON.stringify(next.events.map(toPublicEvent).filter((e) => e !== null));
      expect(text).not.toContain('STUCK_DETECTED');
      for (const p of next.state.players) for (const c of next.state.hands[p] ?? []) expect(text).not.toContain(`"${c}"`);
      state = next;
      steps++;
    }
    expect(state.ok && zipZapEngine.result(state.state).over).toBe(true);
  });

  it('TABLE dealing without registration: games end too (hands scored at round end)', () => {
    for (let g = 0; g < 12; g++) {
      const config = { players: PLAYERS.slice(0, 2 + (g % 5)), dealing: 'TABLE', scoringMode: g % 3 === 0 ? 'WINS' : 'PENALTY' };
      const game = playGame(engine, config, g, {
        recordActions: false,
        onState: (state, action, i) => {
          const problems = checkInvariants(state as ZipZapState);
          if (problems.length > 0) expect.fail(`game ${g}, action ${i} ${JSON.stringify(action)}: ${problems.join('; ')}`);
        },
      });
      expect(game.result.over).toBe(true);
    }
  });
});

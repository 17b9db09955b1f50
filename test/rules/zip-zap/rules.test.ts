import { describe, expect, it } from 'vitest';
import { follows, zipZapEngine, ZIP_REJECTIONS, type ZipZapState } from '../../../controller/rules/zip-zap/index.ts';
import { codeOf, omni, run, scenario } from './helpers.ts';

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

const race: ZipZapState = scenario({
  players: ['A', 'B', 'C'],
  hands: { A: ['R4', 'W4', 'B4', 'R5', 'Z(A)'], B: ['Y1', 'R10', 'Z(B)'], C: ['Y5', 'B9', 'Z(C)'] },
  top: { card: 'R3', by: 'B' },
});

describe('follows (ZIP-20..22)', () => {
  it.each([
    ['R3', 'R4', true], ['R3', 'W4', true], ['R3', 'B4', false], ['R3', 'R5', false], ['W7', 'G8', true],
    ['W7', 'W8', true], ['W7', 'G9', false], ['R9', 'R10', true], ['R10', 'W1', false], ['Z1', 'R1', false], ['R1', 'Z1', false],
  ])('%s → %s: %s', (top, card, want) => {
    expect(follows(top, card)).toBe(want);
  });
});

describe('plays', () => {
  it('never mutates the input state, applied or rejected', () => {
    const frozen = deepFreeze(structuredClone(race));
    expect(zipZapEngine.apply(frozen, { type: 'play', player: 'A', card: 'R4' }).ok).toBe(true);
    expect(zipZapEngine.apply(frozen, { type: 'play', player: 'A', card: 'B4' }).ok).toBe(false);
    expect(zipZapEngine.apply(frozen, { type: 'plays', plays: [{ player: 'A', card: 'B4', at: 1 }] }).ok).toBe(true);
    expect(frozen).toEqual(race);
  });

  it('shares untouched parts of the state (no deep clone per action)', () => {
    const { state } = run(race, { type: 'play', player: 'A', card: 'R4' });
    expect(state.hands.B).toBe(race.hands.B);
    expect(state.outOfPlay).toBe(race.outOfPlay);
    expect(state.config).toBe(race.config);
  });

  it('a 10 as the last card ends the round without a pause (ZIP-50)', () => {
    const s = scenario({ players: ['A', 'B'], hands: { A: ['R10'], B: ['B1', 'Z(B)'] }, top: { card: 'R9', by: 'B' } });
    const { state } = run(s, { type: 'play', player: 'A', card: 'R10' });
    expect(state.mode).toMatchObject({ kind: 'ROUND_OVER', winner: 'A' });
    expect(codeOf(zipZapEngine.apply(state, { type: 'play', player: 'B', card: 'B1' }))).toBe('ROUND_OVER');
  });

  it('a flipped 10 or a ZAP on top refuses followers with their own codes', () => {
    const ten = scenario({ players: ['A', 'B'], hands: { A: ['R1', 'Z(A)'], B: ['B1', 'Z(B)'] }, top: 'R10', mode: { kind: 'RACE' } });
    expect(codeOf(zipZapEngine.apply(ten, { type: 'play', player: 'A', card: 'R1' }))).toBe('NOTHING_FOLLOWS_TEN');
    const zapped = scenario({
      players: ['A', 'B'], hands: { A: ['R1'], B: ['B1', 'Z(B)'] }, top: { card: 'Z(A)', by: 'A' },
      mode: { kind: 'PAUSED', controller: 'A', cause: 'ZAP' },
    });
    expect(codeOf(zipZapEngine.apply(zapped, { type: 'play', player: 'B', card: 'B1' }))).toBe('NOT_CONTROLLER');
  });

  it('refuses cards not in play with UNKNOWN_CARD', () => {
    expect(codeOf(zipZapEngine.apply(race, { type: 'play', player: 'A', card: 'G4' }))).toBe('UNKNOWN_CARD');
    expect(codeOf(zipZapEngine.apply(race, { type: 'play', player: 'A', card: 'Z6' }))).toBe('UNKNOWN_CARD');
    expect(codeOf(zipZapEngine.apply(race, { type: 'play', player: 'A', card: 'Q7' }))).toBe('UNKNOWN_CARD');
  });

  it('refuses a whole batch that names an unknown player, and applies one whose plays are all refused', () => {
    expect(codeOf(zipZapEngine.apply(race, { type: 'plays', plays: [{ player: 'Q', card: 'R4', at: 1 }] }))).toBe('NOT_A_PLAYER');
    const r = zipZapEngine.apply(race, { type: 'plays', plays: [{ player: 'C', zap: true, at: 1 }] });
    expect(r.ok && r.events).toEqual([expect.objectContaining({ type: 'PLAY_REJECTED', code: 'ZAP_NOT_ON_OWN_CARD', card: null })]);
  });
});

describe('ties (tieWindowMs > 0)', () => {
  const tied = scenario({
    players: ['A', 'B', 'C'], config: { tieWindowMs: 50 },
    hands: { A: ['R4', 'Z(A)'], B: ['W4', 'R5', 'Z(B)'], C: ['Y4', 'B1', 'Z(C)'] }, top: { card: 'Y3', by: 'A' },
  });

  it('three plays on one top: all contend; later plays queue and run after the ruling', () => {
    const { state, events } = run(tied,
      { type: 'play', player: 'C', card: 'Y4', at: 100 },
      { type: 'plays', plays: [{ player: 'B', card: 'W4', at: 120 }, { player: 'A', zap: true, at: 130 }, { player: 'B', card: 'R5', at: 400 }] });
    expect(state.tie?.contenders.map((c) => c.player)).toEqual(['C', 'B', 'A']);
    expect(state.tie?.queued).toHaveLength(1);
    expect(events.filter((e) => e.type === 'TIE_PENDING')).toHaveLength(2);
    expect(zipZapEngine.legalActions(state)).toEqual(['C', 'B', 'A'].map((first) => ({ type: 'resolve-tie', first })));
    const after = run(state, { type: 'resolve-tie', first: 'A' });
    // A's ZAP lands first (A's Y3 was on top); the others no longer fit; nothing follows the ZAP.
    expect(after.state.mode).toEqual({ kind: 'PAUSED', controller: 'A', cause: 'ZAP' });
    expect(after.events.flatMap((e) => (e.type === 'PLAY_REJECTED' ? [e.code] : [])))
      .toEqual(['NOT_CONTROLLER', 'NOT_CONTROLLER', 'NOT_CONTROLLER']);
    expect(omni(after.state).hands.C).toEqual(['Y4', 'B1', 'Z3']);
  });

  it('another action between the plays ends the chance of a tie', () => {
    const s = run(tied, { type: 'play', player: 'C', card: 'Y4', at: 100 }).state;
    expect(s.recent).toHaveLength(1);
    expect(codeOf(zipZapEngine.apply(s, { type: 'next-round' }))).toBe('ROUND_NOT_OVER');
    expect(codeOf(zipZapEngine.apply(s, { type: 'resolve-tie', first: 'A' }))).toBe('NO_TIE_PENDING');
  });
});

describe('landing intervals (Part C.3)', () => {
  const tag = (player: string, card: string, at: number) => ({ player, card, at, atEarliest: at - 12, atLatest: at + 12, timedBy: 'tag' as const });

  it('never ties one player\'s own plays, even two that both follow the top: the best estimates order them', () => {
    // A's R4 and W4 both follow R3 and their windows overlap: applied in the order of their estimates, W4 then
    // no longer follows (a human at the table would not have two cards of one hand contend).
    const { state, events } = run(race, { type: 'plays', plays: [tag('A', 'W4', 105), tag('A', 'R4', 100)] });
    expect(state.tie).toBeNull();
    expect(events.map((e) => [e.type, 'card' in e ? e.card : null])).toEqual([['CARD_PLAYED', 'R4'], ['PLAY_REJECTED', 'W4']]);
  });

  it('adds tieWindowMs as a margin around the intervals', () => {
    const slap = (player: string, card: string, at: number) => ({ player, card, at, atEarliest: at - 0.125, atLatest: at + 0.125, timedBy: 'slap' as const });
    const both = { hands: { A: ['R4', 'Z(A)'], B: ['W4', 'Z(B)'] }, top: { card: 'R3', by: 'A' } };
    const plays = { type: 'plays' as const, plays: [slap('A', 'R4', 100), slap('B', 'W4', 101.5)] };
    const strict = run(scenario({ players: ['A', 'B'], ...both }), plays);
    expect(strict.state.tie).toBeNull(); // 1.25 ms between the intervals
    const margin = run(scenario({ players: ['A', 'B'], config: { tieWindowMs: 2 }, ...both }), plays);
    expect(margin.events).toContainEqual(expect.objectContaining({ type: 'TIE_PENDING', separationMs: 1.5, combinedUncertaintyMs: 0.25, tieWindowMs: 2 }));
  });

  it('refuses malformed landing intervals', () => {
    const bad = [
      { type: 'play', player: 'A', card: 'R4', at: 120, atEarliest: 90, atLatest: 114 },
      { type: 'play', player: 'A', card: 'R4', at: 100, atEarliest: 90 },
      { type: 'play', player: 'A', card: 'R4', atEarliest: 90, atLatest: 114 },
      { type: 'zap', player: 'A', at: 100, timedBy: 'guess' },
      { type: 'plays', plays: [{ player: 'A', card: 'R4', at: 100, atEarliest: 101, atLatest: 104 }] },
    ];
    for (const action of bad) expect(zipZapEngine.parseAction(action)).toHaveProperty('error');
    expect(zipZapEngine.parseAction({ type: 'play', player: 'A', card: 'R4', at: 100, atEarliest: 90, atLatest: 114, timedBy: 'tag' }))
      .not.toHaveProperty('error');
  });
});

describe('results and ties in the final standings (ZIP-54, ZIP-Q-9)', () => {
  const setup = (tiePolicy: string): ZipZapState => scenario({
    players: ['A', 'B', 'C', 'D'], config: { tiePolicy },
    roundScores: [{ A: 0, B: 2, C: 9, D: 9 }, { A: 0, B: 2, C: 9, D: 9 }, { A: 4, B: 0, C: 9, D: 9 }],
    roundWinners: ['A', 'A', 'B'],
    hands: { A: ['B1'], B: ['B2'], C: ['R9'], D: ['B3'] }, top: { card: 'R8', by: 'D' },
  });

  it('SHARED: tied lowest totals share the win', () => {
    const { state } = run(setup('SHARED'), { type: 'play', player: 'C', card: 'R9' });
    expect(zipZapEngine.result(state)).toEqual({ over: true, winners: ['A', 'B'], scores: { A: 5, B: 5, C: 27, D: 28 }, rounds: 4 });
  });

  it('TIEBREAK_ROUND_WINS_THEN_SHARED: most rounds won breaks the tie', () => {
    const { state } = run(setup('TIEBREAK_ROUND_WINS_THEN_SHARED'), { type: 'play', player: 'C', card: 'R9' });
    expect(zipZapEngine.result(state).winners).toEqual(['A']);
    expect(zipZapEngine.legalActions(state)).toEqual([]);
    expect(codeOf(zipZapEngine.apply(state, { type: 'next-round' }))).toBe('GAME_OVER');
  });
});

describe('catalogue', () => {
  it('has stable UPPER_SNAKE codes with a description each', () => {
    for (const [code, text] of Object.entries(ZIP_REJECTIONS)) {
      expect(code).toMatch(/^[A-Z]+(_[A-Z]+)*$/);
      expect(text.length).toBeGreaterThan(10);
    }
  });
});

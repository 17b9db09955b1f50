import { describe, expect, it } from 'vitest';
import { checkInvariants, zipZapEngine, type ZipZapState } from '../../../controller/rules/zip-zap/index.ts';
import { codeOf, ok, run, scenario } from './helpers.ts';

function tableGame(extra: Record<string, unknown> = {}): ZipZapState {
  return ok(zipZapEngine.setup({ players: ['A', 'B'], removedSuits: ['YELLOW', 'GREEN'], dealing: 'TABLE', rounds: 1, ...extra }, 1)).state;
}

describe('TABLE dealing (Part C.3)', () => {
  it('unknown hands are scored with score-hand before the round closes (ZIP-51)', () => {
    let s = run(tableGame(), { type: 'skip-registration' }, { type: 'flip', card: 'B1' }).state;
    // A empties a 13-card hand: 12 number cards then the ZAP on A's own card.
    const cards = ['B2', 'B3', 'B4', 'B5', 'B6', 'B7', 'B8', 'B9'];
    s = run(s, ...cards.map((card) => ({ type: 'play' as const, player: 'A', card }))).state;
    s = run(s, { type: 'play', player: 'A', card: 'B10' }, { type: 'play', player: 'A', card: 'R1' },
      { type: 'declare-stuck' }, { type: 'play', player: 'A', card: 'R5' }, { type: 'play', player: 'A', card: 'R6' },
      { type: 'zap', player: 'A' }).state;
    expect(s.mode).toMatchObject({ kind: 'ROUND_OVER', winner: 'A', pending: ['B'] });
    expect(codeOf(zipZapEngine.apply(s, { type: 'next-round' }))).toBe('SCORES_PENDING');
    expect(codeOf(zipZapEngine.apply(s, { type: 'score-hand', player: 'B', cards: ['W1'] }))).toBe('BAD_HAND');
    const hand = ['W1', 'W2', 'W3', 'W4', 'W5', 'W6', 'W7', 'W8', 'W9', 'W10', 'R2', 'R3', 'Z2'];
    expect(codeOf(zipZapEngine.apply(s, { type: 'score-hand', player: 'B', cards: [...hand.slice(0, 12), 'Z1'] }))).toBe('BAD_HAND');
    const done = run(s, { type: 'score-hand', player: 'B', cards: hand });
    expect(done.events).toContainEqual({ type: 'HAND_SCORED', player: 'B', points: 30 + 2 + 5 });
    expect(zipZapEngine.result(done.state)).toMatchObject({ over: true, winners: ['A'], scores: { A: 0, B: 37 } });
    expect(checkInvariants(done.state)).toEqual([]);
  });

  it('a blocked flip with known hands asks for another flip; the last one blocked is a misdeal (ZIP-11, ZIP-Q-2)', () => {
    const a = ['R1', 'R2', 'R3', 'R4', 'R5', 'R6', 'R7', 'R8', 'B1', 'B2', 'B3', 'B4', 'Z1'];
    const b = ['B5', 'B6', 'B7', 'B8', 'W1', 'W2', 'W3', 'W4', 'W5', 'W6', 'W7', 'W8', 'Z2'];
    let s = run(tableGame(), { type: 'register-hand', player: 'A', cards: a }, { type: 'register-hand', player: 'B', cards: b }).state;
    expect(s.reserve).toEqual(['R9', 'R10', 'B9', 'B10', 'W9', 'W10']);
    expect(codeOf(zipZapEngine.apply(s, { type: 'register-hand', player: 'A', cards: a }))).toBe('WRONG_PHASE');
    expect(codeOf(zipZapEngine.apply(s, { type: 'play', player: 'A', card: 'R1' }))).toBe('WRONG_PHASE');
    // Every 9 and 10 is in the reserve, so no flipped card can be followed.
    const flips = ['R10', 'B10', 'W10', 'R9', 'B9'].map((card) => ({ type: 'flip' as const, card }));
    const r = run(s, ...flips);
    expect(r.events.filter((e) => e.type === 'REFLIP_NEEDED')).toHaveLength(5);
    s = r.state;
    expect(s.mode.kind).toBe('START');
    expect(codeOf(zipZapEngine.apply(s, { type: 'flip', card: 'R9' }))).toBe('NOT_IN_RESERVE');
    const last = run(s, { type: 'flip', card: 'W9' });
    expect(last.events.map((e) => e.type)).toEqual(['CARD_FLIPPED', 'MISDEAL', 'ROUND_DEALT']);
    expect(last.state.mode.kind).toBe('DEALING');
    expect(last.state.round).toBe(1);
    expect(last.state.misdeals).toBe(1);
    expect(checkInvariants(last.state)).toEqual([]);
    const open = run(run(tableGame({ reserveExhausted: 'OPEN_START' }), { type: 'register-hand', player: 'A', cards: a },
      { type: 'register-hand', player: 'B', cards: b }).state, ...flips, { type: 'flip', card: 'W9' });
    expect(open.state.mode.kind).toBe('OPEN_START');
  });
});

describe('fromScenario', () => {
  it.each([
    [{ players: ['A', 'B'], hands: { A: ['R1'], B: ['R1'] } }, 'placed twice'],
    [{ players: ['A', 'B'], hands: { A: ['R1'] } }, 'hands.B'],
    [{ players: ['A', 'B'], hands: { A: ['R1'], B: [], C: [] } }, 'not a player'],
    [{ players: ['A', 'B'], removedSuits: ['RED', 'BLUE'], hands: { A: ['R1'], B: [] } }, 'out of play'],
    [{ players: ['A', 'B'], hands: { A: ['Z(B)'], B: [] } }, 'another player\'s ZAP'],
    [{ players: ['A', 'B'], hands: { A: ['R1'], B: ['B1'] }, top: { card: 'R5', by: 'B' }, mode: { kind: 'PAUSED', controller: 'A', cause: 'TEN' } }, 'controlled'],
    [{ players: ['A', 'B'], hands: { A: ['R1'], B: ['B1'] }, top: { card: 'Z(B)', by: 'B' } }, 'ZAP pause'],
    [{ players: ['A', 'B'], hands: { A: ['X9'], B: [] } }, 'unknown card'],
    ['nonsense', 'object'],
  ])('rejects an inconsistent setup with BAD_SETUP (%j)', (setup, text) => {
    const r = zipZapEngine.fromScenario(setup);
    expect(codeOf(r)).toBe('BAD_SETUP');
    if (!r.ok) expect(r.message).toContain(text);
  });

  it('places every card exactly once and infers the removed suits', () => {
    const s = scenario({ players: ['A', 'B', 'C'], hands: { A: ['R1', 'Z(A)'], B: ['B2'], C: ['W3', 'Z(C)'] }, top: { card: 'Y5', by: 'A' } });
    expect(s.removedSuits).toEqual(['GREEN']);
    expect(s.pile.map((r) => r.card)).toEqual(['Z2', 'Y5']);
    expect(checkInvariants(s)).toEqual([]);
  });
});

describe('parseAction', () => {
  it.each([
    [{ type: 'play', player: 'A', card: 'R1', at: 5 }, true],
    [{ type: 'zap', player: 'A' }, true],
    [{ type: 'plays', plays: [{ player: 'A', zap: true, at: 1 }, { player: 'B', card: 'R2', at: 2 }] }, true],
    [{ type: 'declare-stuck' }, true],
    [{ type: 'flip' }, true],
    [{ type: 'play', player: 'A' }, false],
    [{ type: 'plays', plays: [] }, false],
    [{ type: 'plays', plays: [{ player: 'A', card: 'R1' }] }, false],
    [{ type: 'plays', plays: [{ player: 'A', card: 'R1', zap: true, at: 1 }] }, false],
    [{ type: 'zap', player: 'A', card: 'Z1' }, false],
    [{ type: 'play', player: 'A', card: 'R1', at: 'soon' }, false],
    [{ type: 'dance' }, false],
    [[], false],
  ])('%j → well-formed: %s', (value, good) => {
    expect('error' in zipZapEngine.parseAction(value)).toBe(!good);
  });
});

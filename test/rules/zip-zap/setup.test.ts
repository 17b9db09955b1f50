import { describe, expect, it } from 'vitest';
import { zipZapEngine, checkInvariants, type ZipZapState } from '../../../controller/rules/zip-zap/index.ts';
import { codeOf, ok } from './helpers.ts';

const PLAYERS = ['A', 'B', 'C', 'D', 'E', 'F'];

function game(n: number, extra: Record<string, unknown> = {}, seed: number | string = 7): ZipZapState {
  return ok(zipZapEngine.setup({ players: PLAYERS.slice(0, n), ...extra }, seed)).state;
}

describe('Zip-Zap setup (A.3)', () => {
  it.each([
    [2, 12, 6, 2, 4], [3, 12, 4, 1, 6], [4, 12, 2, 0, 4], [5, 9, 5, 0, 5], [6, 8, 2, 0, 6],
  ])('%i players: %i cards + ZAP each, reserve %i, %i suit(s) removed, %i rounds (ZIP-3..6, ZIP-53)', (n, deal, reserve, removed, rounds) => {
    const s = game(n, { reserveExhausted: 'OPEN_START' });
    expect(s.removedSuits).toHaveLength(removed);
    expect(s.suits).toContain('WILD');
    expect(s.roundsTotal).toBe(rounds);
    // The start flips take cards from the reserve: reserve + flipped = the reserve size of ZIP-5.
    expect(s.reserveCount + s.pile.length).toBe(reserve);
    for (const p of s.players) {
      expect(s.hands[p]).toHaveLength(deal + 1);
      expect(s.hands[p]).toContain(s.zapOf[p]);
    }
    expect(checkInvariants(s)).toEqual([]);
  });

  it('starts in RACE on a flipped card somebody can follow (ZIP-10/11)', () => {
    for (let seed = 0; seed < 30; seed++) {
      const s = game(4, {}, seed);
      expect(s.mode.kind).toBe('RACE');
      expect(s.pile.every((r) => r.kind === 'START_FLIP' && r.by === null)).toBe(true);
    }
  });

  it('is deterministic: same seed, same state; another seed, another deal', () => {
    expect(game(4, {}, 'x')).toEqual(game(4, {}, 'x'));
    expect(game(4, {}, 'x').hands).not.toEqual(game(4, {}, 'y').hands);
  });

  it('honours explicit removed suits and the rounds override', () => {
    const s = game(2, { removedSuits: ['RED', 'BLUE'], rounds: 1 });
    expect(s.removedSuits).toEqual(['RED', 'BLUE']);
    expect(s.suits).toEqual(['YELLOW', 'GREEN', 'WILD']);
    expect(s.roundsTotal).toBe(1);
    expect(s.outOfPlay).toContain('R7');
  });

  it.each([
    [{ players: ['A'] }, 'players'],
    [{ players: ['A', 'A'] }, 'unique'],
    [{ players: ['A', ''] }, 'non-empty'],
    [{ players: ['A', 'B', 'C', 'D', 'E', 'F', 'G'] }, '2–6'],
    [{ players: ['A', 'B', 'C'], removedSuits: ['RED', 'BLUE'] }, 'exactly 1'],
    [{ players: ['A', 'B', 'C'], removedSuits: ['WILD'] }, 'WILD is never removed'],
    [{ players: ['A', 'B'], stuckDetection: 'PSYCHIC' }, 'stuckDetection'],
    [{ players: ['A', 'B'], tieWindowMs: -1 }, 'tieWindowMs'],
    [{ players: ['A', 'B'], colour: 'red' }, 'unknown option'],
  ])('rejects a bad configuration with BAD_CONFIG (%j)', (config, text) => {
    const r = zipZapEngine.setup(config as never, 1);
    expect(codeOf(r)).toBe('BAD_CONFIG');
    if (!r.ok) expect(r.message).toContain(text);
  });

  it('reports every configuration problem at once', () => {
    const r = zipZapEngine.setup({ players: ['A'], scoringMode: 'X', dealing: 'Y' } as never, 1);
    expect(!r.ok && r.message.split(';').length).toBe(3);
  });

  it('deals at the table: DEALING with every card in play unseen (Part C.3)', () => {
    const s = game(3, { dealing: 'TABLE' });
    expect(s.mode.kind).toBe('DEALING');
    expect(s.unseen).toHaveLength(40 + 3);
    expect(s.handCounts).toEqual({ A: 13, B: 13, C: 13 });
    expect(checkInvariants(s)).toEqual([]);
  });
});

// Move listing and legal actions: the consequences shown to people, and every carry combination for bots.
import { describe, expect, it } from 'vitest';
import { describeMoves, zappZerappEngine as engine } from '../../../controller/rules/zapp-zerapp/index.ts';
import { act, rejects, scenario } from './helpers.ts';

const P4 = ['red', 'green', 'blue', 'yellow'];

describe('describeMoves', () => {
  it('shows T-14 move 1 with banishments, carryable pieces, forfeit and city entry', () => {
    const s = scenario({ players: P4, variant: 'PRO', phase: 'MOVE', magic: 10, barrels: { green: 8 },
      pieces: { GREEN1: 23, GREEN2: 2, BLUE1: 0, BLUE2: 2, YELLOW1: 2, YELLOW2: 3, RED1: 2 } });
    const [g1] = describeMoves(s, 'green');
    expect(g1).toMatchObject({ piece: 'GREEN1', to: 'CITY', forfeited: 1, entersCity: true, banishes: ['BLUE2', 'YELLOW1'],
      spared: [{ piece: 'BLUE1', reason: 'PROTECTED' }, { piece: 'YELLOW2', reason: 'PROTECTED' }] });
    expect(g1?.carryable.map((c) => [c.piece, c.putDown, c.mayEnterCity])).toEqual([['RED1', 5, false], ['GREEN2', 5, true]]);
    // What-if for a dashboard: any number of steps.
    expect(describeMoves(s, 'green', 2)[0]?.to).toBe(1);
    expect(describeMoves(s, 'red')).toEqual([]);
  });

  it('lists no move for pieces already in the city (ZAPP-48)', () => {
    const s = scenario({ players: ['red', 'green'], phase: 'MOVE', magic: 9, barrels: { red: 3 }, pieces: { RED1: 'C' } });
    expect(describeMoves(s, 'red').map((m) => m.piece)).toEqual(['RED2', 'RED3']);
    rejects(s, { type: 'move', player: 'red', piece: 'RED1' }, 'PIECE_IN_CITY');
    rejects(s, { type: 'move', player: 'red', piece: 'BLUE1' }, 'UNKNOWN_PIECE');
  });
});

describe('legalActions', () => {
  it('in SELECT offers place/pick-up/put-back for players still choosing, reveal once all have placed', () => {
    const s = scenario({ players: ['red', 'green'], phase: 'SELECT', magic: 6, barrels: { red: 3 }, held: { green: [4, 5] } });
    const acts = engine.legalActions(s);
    expect(acts.filter((a) => a.type === 'place')).toHaveLength(12); // 2 held + 10 on the mountain
    expect(acts.filter((a) => a.type === 'pick-up')).toHaveLength(0); // hands full
    expect(acts.filter((a) => a.type === 'put-back')).toHaveLength(2);
    expect(acts.some((a) => 'player' in a && a.player === 'red')).toBe(false);
    const all = act(s, { type: 'place', player: 'green', barrel: 4 }).state;
    expect(engine.legalActions(all)).toEqual([{ type: 'reveal' }]);
  });

  it('in PRO lists every carry and into-city combination, each accepted', () => {
    const s = scenario({ players: P4, variant: 'PRO', phase: 'MOVE', magic: 10, barrels: { green: 8 },
      pieces: { GREEN1: 23, GREEN2: 2, GREEN3: 'C', RED1: 2 } });
    const moves = engine.legalActions(s).filter((a) => a.type === 'move' && a.piece === 'GREEN1');
    // RED1: carry or not (2) × GREEN2: not, carry to 5, carry into the city (3).
    expect(moves).toHaveLength(6);
    for (const m of moves) expect(engine.apply(s, m).ok).toBe(true);
  });

  it('caps the combinations and still lists only legal actions', () => {
    const s = scenario({ players: P4, variant: 'PRO', config: { maxCarryCombinations: 4 }, phase: 'MOVE', magic: 10, barrels: { red: 9 },
      pieces: { RED1: 1, GREEN1: 2, GREEN2: 2, GREEN3: 2, BLUE1: 8, BLUE2: 8 } });
    const moves = engine.legalActions(s).filter((a) => a.type === 'move' && a.piece === 'RED1');
    // 2^5 = 32 > 4: none, all, and each alone (no own piece can enter the city here).
    expect(moves).toHaveLength(2 + 5);
    expect(new Set(moves.map((m) => JSON.stringify(m))).size).toBe(moves.length);
    for (const m of moves) expect(engine.apply(s, m).ok).toBe(true);
  });

  it('offers pass only when moves are optional, and claims in CLAIM mode', () => {
    const base = { players: ['red', 'green'], phase: 'MOVE', magic: 9, barrels: { red: 3, green: 2 }, pieces: { RED1: 4, GREEN1: 5 } };
    expect(engine.legalActions(scenario(base)).some((a) => a.type === 'pass')).toBe(false);
    expect(engine.legalActions(scenario({ ...base, config: { moveMandatory: false } })).some((a) => a.type === 'pass')).toBe(true);
    const claim = act(scenario({ ...base, config: { banishMode: 'CLAIM' } }), { type: 'move', player: 'red', piece: 'RED1' }).state;
    expect(engine.legalActions(claim)).toContainEqual({ type: 'claim', player: 'red', pieces: ['GREEN1'] });
  });
});

// Engine-level behaviour: configuration, phases, barrels, reveal, results, parsing, scenario setup.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OMNISCIENT, PUBLIC } from '../../../controller/rules/common/viewer.ts';
import {
  ACTION_TYPES, checkInvariants, ZAPP_REJECTIONS, zappZerappEngine as engine, type ZappAction, type ZappState,
} from '../../../controller/rules/zapp-zerapp/index.ts';
import { act, rejects, scenario } from './helpers.ts';

function newGame(config: Record<string, unknown> = {}) {
  const out = engine.setup({ players: ['ann', 'bob', 'cy'], ...config }, 7);
  if (!out.ok) throw new Error(out.message);
  return out;
}

describe('setup and configuration (B.4, B.10)', () => {
  it('seats red, green, blue in order; unused colours have no pieces (ZAPP-4)', () => {
    const { state, events } = newGame();
    expect(state.players.map((p) => p.colour)).toEqual(['RED', 'GREEN', 'BLUE']);
    expect(Object.keys(state.pieces)).toEqual(['RED1', 'RED2', 'RED3', 'GREEN1', 'GREEN2', 'GREEN3', 'BLUE1', 'BLUE2', 'BLUE3']);
    expect(Object.values(state.pieces).every((l) => l === 'START')).toBe(true);
    expect(events[0]).toMatchObject({ type: 'GAME_STARTED', variant: 'BASIC', board: 'default' });
    expect(state.phase).toBe('ROLL');
    expect(state.roller).toBe('ann');
  });

  it('takes colours from config.colours and a board preset by name', () => {
    const { state } = newGame({ colours: { ann: 'YELLOW', bob: 'RED', cy: 'GREEN' }, board: 'alt-a' });
    expect(state.players.map((p) => p.colour)).toEqual(['YELLOW', 'RED', 'GREEN']);
    expect(state.config.board.id).toBe('alt-a');
  });

  it('reports every configuration error at once as BAD_CONFIG', () => {
    const out = engine.setup({ players: ['a', 'a'], variant: 'HARD', maxBarrelsInHand: 3, board: { trackLength: 5 } } as never, 1);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.code).toBe('BAD_CONFIG');
    for (const part of ['config.players', 'config.variant', 'config.maxBarrelsInHand', 'config.board.trackLength', 'config.board.fields']) {
      expect(out.message).toContain(part);
    }
    expect(engine.setup({ players: ['a', 'b', 'c', 'd', 'e'] }, 1)).toMatchObject({ ok: false, code: 'BAD_CONFIG' });
    expect(engine.setup({ players: ['a', 'b'], colours: { a: 'RED', b: 'RED' } }, 1)).toMatchObject({ ok: false, code: 'BAD_CONFIG' });
  });

  it('is deterministic: the same seed and actions give the same game (design principle 1)', () => {
    const a = act(newGame().state, { type: 'roll' });
    const b = act(newGame().state, { type: 'roll' });
    expect(a.state.dice).toEqual(b.state.dice);
    expect(a.state.magic).toBeGreaterThanOrEqual(2);
  });
});

describe('phases and rolling (ZAPP-10, ZAPP-11)', () => {
  it('rotates the roller by seat and accepts anybody under ANY', () => {
    const s = newGame().state;
    rejects(s, { type: 'roll', player: 'bob' }, 'NOT_YOUR_ROLL');
    rejects(s, { type: 'roll', player: 'zed' }, 'UNKNOWN_PLAYER');
    expect(act(newGame({ rollerPolicy: 'ANY' }).state, { type: 'roll', player: 'bob' }).state.phase).toBe('SELECT');
  });

  it('rejects actions of the wrong phase', () => {
    const s = newGame().state;
    rejects(s, { type: 'place', player: 'ann', barrel: 3 }, 'WRONG_PHASE');
    rejects(s, { type: 'reveal' }, 'WRONG_PHASE');
    rejects(s, { type: 'move', player: 'ann', piece: 'RED1' }, 'WRONG_PHASE');
    rejects(s, { type: 'claim', player: 'ann', pieces: ['RED1'] }, 'NO_CLAIM_WINDOW');
  });

  it('rejects malformed actions as BAD_ACTION, unknown fields as UNKNOWN_FIELD', () => {
    const s = newGame().state;
    rejects(s, { type: 'dance' } as unknown as ZappAction, 'BAD_ACTION');
    rejects(s, { type: 'place', player: 'ann' } as unknown as ZappAction, 'BAD_ACTION');
    expect(engine.parseAction({ type: 'move', player: 'a', piece: 'RED1', carry: { RED2: 'yes' } })).toHaveProperty('error');
    expect(engine.parseAction({ type: 'report-violation', player: 'a', kind: 'CHEATING' })).toHaveProperty('error');
    // Unknown fields are refused, not dropped: a misspelled `intoCity` must not become the default move.
    expect(engine.parseAction({ type: 'enter-dice', d1: 3, d2: 4, extra: 1 })).toEqual({ error: 'enter-dice: unknown field extra', code: 'UNKNOWN_FIELD' });
    expect(engine.parseAction({ type: 'move', player: 'a', piece: 'RED1', intoCty: {} })).toEqual({ error: 'move: unknown field intoCty', code: 'UNKNOWN_FIELD' });
    expect(engine.parseAction({ type: 'move', player: 'a', piece: 'RED1', to: 'MOON' })).toEqual({ error: 'move: to must be a field number or "CITY"', code: 'BAD_ACTION' });
  });
});

describe('choosing barrels (ZAPP-20..27)', () => {
  const select = () => scenario({ players: ['ann', 'bob'], phase: 'SELECT', magic: 7 });

  it('tracks pick-up, put-back and place; a placed barrel is final', () => {
    let s = act(select(), { type: 'pick-up', player: 'ann', barrel: 4 }).state;
    rejects(s, { type: 'pick-up', player: 'ann', barrel: 4 }, 'ALREADY_HOLDING');
    rejects(s, { type: 'put-back', player: 'ann', barrel: 5 }, 'NOT_HOLDING');
    rejects(s, { type: 'pick-up', player: 'ann', barrel: 14 }, 'UNKNOWN_BARREL');
    s = act(s, { type: 'pick-up', player: 'ann', barrel: 5 }).state;
    s = act(s, { type: 'put-back', player: 'ann', barrel: 4 }).state;
    // Straight from the mountain: the held barrel 5 goes back at once (ZAPP-24).
    const placed = act(s, { type: 'place', player: 'ann', barrel: 9 });
    expect(placed.state.barrels[5]).toEqual({ at: 'MOUNTAIN' });
    expect(placed.events).toEqual([{ type: 'BARREL_PLACED', player: 'ann', returned: 1 }]);
    rejects(placed.state, { type: 'place', player: 'ann', barrel: 9 }, 'ALREADY_PLACED');
    rejects(placed.state, { type: 'place', player: 'bob', barrel: 9 }, 'BARREL_PLACED_BY_OTHER');
    rejects(placed.state, { type: 'reveal' }, 'NOT_ALL_PLACED');
  });

  it('never puts a barrel number into an event before the reveal', () => {
    const events = [];
    let s = select();
    for (const action of [
      { type: 'pick-up', player: 'ann', barrel: 4 }, { type: 'put-back', player: 'ann', barrel: 4 },
      { type: 'place', player: 'ann', barrel: 6 }, { type: 'place', player: 'bob', barrel: 2 },
    ] as const) {
      const out = act(s, action);
      s = out.state;
      events.push(...out.events);
    }
    expect(events).toHaveLength(4);
    for (const e of events) expect(Object.keys(e)).not.toContain('barrel');
  });

  it('allows the reveal after selectTimeoutMs; the player without a barrel fails (ZAPP-Q-12)', () => {
    let s = newGame({ selectTimeoutMs: 30_000, players: ['ann', 'bob'] }).state;
    s = act(s, { type: 'enter-dice', d1: 3, d2: 4, at: 1_000 }).state;
    s = act(s, { type: 'place', player: 'ann', barrel: 5 }).state;
    rejects(s, { type: 'reveal', at: 20_000 }, 'NOT_ALL_PLACED');
    const r = act(s, { type: 'reveal', at: 31_000 }).state;
    expect(r.reveal?.results).toEqual([{ player: 'ann', barrel: 5, success: true }, { player: 'bob', barrel: null, success: false }]);
    expect(r.moveQueue).toEqual(['ann']);
  });
});

describe('views (design principle 2)', () => {
  it('shows who placed but no value before the reveal; the player sees their own', () => {
    let s = scenario({ players: ['ann', 'bob'], phase: 'SELECT', magic: 7 });
    s = act(s, { type: 'pick-up', player: 'bob', barrel: 11 }).state;
    s = act(s, { type: 'place', player: 'ann', barrel: 6 }).state;
    const pub = engine.view(s, PUBLIC);
    expect(pub.placed).toEqual({ ann: true, bob: false });
    expect(pub.holding).toEqual({ ann: 0, bob: 1 });
    expect(pub.mountainCount).toBe(11);
    expect(pub).not.toHaveProperty('secret');
    expect(pub).not.toHaveProperty('barrels');
    expect(engine.view(s, { role: 'player', player: 'ann' }).secret).toEqual({ held: { ann: [] }, placed: { ann: 6 } });
    expect(engine.view(s, OMNISCIENT).secret).toEqual({ held: { ann: [], bob: [11] }, placed: { ann: 6 } });
  });

  it('lists the current mover\'s moves with consequences after the reveal', () => {
    const s = scenario({ players: ['ann', 'bob'], phase: 'MOVE', magic: 9, barrels: { ann: 3 }, pieces: { RED1: 4, GREEN1: 5 } });
    const pub = engine.view(s, PUBLIC);
    expect(pub.currentMover).toBe('ann');
    expect(pub.currentBarrel).toBe(3);
    expect(pub.moves[0]).toEqual({ piece: 'RED1', from: 4, to: 7, path: [5, 6, 7], steps: 3, forfeited: 0, banishes: ['GREEN1'],
      spared: [], carryable: [], entersCity: false });
    expect(pub.moves).toHaveLength(3);
  });
});

describe('result', () => {
  it('scores pieces in the city and names the winner', () => {
    const s = scenario({ players: ['ann', 'bob'], phase: 'MOVE', magic: 9, barrels: { ann: 5 }, pieces: { RED1: 'C', RED2: 'C', RED3: 21, GREEN1: 'C' } });
    expect(engine.result(s)).toEqual({ over: false, winners: [], scores: { ann: 2, bob: 1 }, rounds: 0 });
    const done = act(s, { type: 'move', player: 'ann', piece: 'RED3' }).state;
    expect(engine.result(done)).toEqual({ over: true, winners: ['ann'], scores: { ann: 3, bob: 1 }, rounds: 0 });
    expect(engine.legalActions(done)).toEqual([]);
  });
});

describe('fromScenario (BAD_SETUP)', () => {
  it('reports every inconsistency at once', () => {
    const out = engine.fromScenario({ players: ['ann', 'bob'], phase: 'MOVE', barrels: { ann: 14, carl: 3 }, pieces: { BLUE1: 3, RED1: 30 }, mood: 1 });
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.code).toBe('BAD_SETUP');
    for (const part of ['barrels.ann', 'barrels.carl', 'pieces.BLUE1', 'pieces.RED1', 'need dice or magic', 'mood']) expect(out.message).toContain(part);
  });

  it('rejects a finished game, a bad queue and held barrels after the reveal', () => {
    expect(engine.fromScenario({ players: ['a', 'b'], pieces: { RED1: 'C', RED2: 'C', RED3: 'C' } })).toMatchObject({ code: 'BAD_SETUP' });
    expect(engine.fromScenario({ players: ['a', 'b'], phase: 'MOVE', magic: 5, barrels: { a: 2, b: 4 }, moveQueue: ['a', 'b'] }))
      .toMatchObject({ code: 'BAD_SETUP' });
    expect(engine.fromScenario({ players: ['a', 'b'], phase: 'MOVE', magic: 5, barrels: { a: 2 }, held: { b: [3] } })).toMatchObject({ code: 'BAD_SETUP' });
    expect(engine.fromScenario({ players: ['a', 'b'], phase: 'MOVE', magic: 5, barrels: { a: 9 } })).toMatchObject({ code: 'BAD_SETUP' });
  });

  it('starts mid-queue: players who moved already have their barrels back', () => {
    const s = scenario({ players: ['a', 'b'], phase: 'MOVE', magic: 9, barrels: { a: 6, b: 4 }, moveQueue: ['b'] });
    expect(s.barrels[6]).toEqual({ at: 'MOUNTAIN' });
    expect(s.moveQueue).toEqual(['b']);
  });
});

it('has a description for every rejection code, and documents each one', () => {
  const doc = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'rules-engine.md'), 'utf8');
  for (const [code, text] of Object.entries(ZAPP_REJECTIONS)) {
    expect(code).toMatch(/^[A-Z_]+$/);
    expect(text.length).toBeGreaterThan(10);
    expect(doc).toContain(`| \`${code}\` |`);
  }
  for (const type of ACTION_TYPES) expect(doc).toContain(`| \`${type}\` |`);
});

describe('checkInvariants', () => {
  it('is empty for a sound state and names each broken invariant', () => {
    const s = scenario({ players: ['ann', 'bob'], phase: 'SELECT', magic: 7, barrels: { ann: 4 } });
    expect(checkInvariants(s)).toEqual([]);
    const broken = {
      ...s,
      pieces: { ...s.pieces, RED1: 99, BLUE1: 'START' },
      barrels: { ...s.barrels, 5: { at: 'PLACED', player: 'ann' }, 6: { at: 'HELD', player: 'bob' }, 7: { at: 'HELD', player: 'bob' },
        8: { at: 'HELD', player: 'bob' } },
    } as ZappState;
    const problems = checkInvariants(broken).join('\n');
    expect(problems).toContain('RED1 is at 99');
    expect(problems).toContain('BLUE1 belongs to no player');
    expect(problems).toContain('ann has 2 placed barrels');
    expect(problems).toContain('bob holds 3 barrels');
  });
});

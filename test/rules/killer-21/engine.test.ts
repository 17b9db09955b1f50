/**
 * Unit tests of the Killer-21 engine: every rejection code of the catalogue is produced (and asserted) here,
 * configuration and scenario setups report every problem at once, `parseAction` refuses with codes, the engine
 * is pure (never mutates its input, shares what it does not change), deals as K21-4 says, and lists only
 * acceptable actions.
 */
import { describe, expect, it } from 'vitest';
import { PUBLIC } from '../../../controller/rules/common/viewer.ts';
import {
  allCards, checkInvariants, DEFAULT_DECK, K21_REJECTIONS, killer21Engine, parseAction, type Killer21Action,
  type Killer21PlayerView, type Killer21PublicView, type Killer21State,
} from '../../../controller/rules/killer-21/index.ts';
import { codeOf, deepFreeze, ok, omni, P4, run, scenario } from './helpers.ts';

const e = killer21Engine;

const turn = scenario({
  players: P4, lives: { D: 0 }, total: 18,
  hands: { A: ['R4', 'R5', 'R7'], B: ['R1', 'PASS'], C: ['R0', 'KILLER'] },
});
const killer = scenario({
  players: P4, hands: { A: ['KILLER', 'R1'], B: ['R0', 'R5'], C: ['R0', 'R6'], D: ['R7'] },
});
const opened = run(killer, { type: 'play', player: 'A', card: 'KILLER-1', at: 1000 }).state;
const tied = run(opened, { type: 'respond', player: 'B', card: 'R0-1', at: 3995, uncertaintyMs: 10 }, { type: 'close-window', at: 4000 }).state;
const roundOver = run(scenario({ players: P4, hands: { A: ['R1'], B: ['R2'], C: ['R3'], D: ['R4'] } }), { type: 'play', player: 'A', card: 'R1-1' }).state;
const gameOver = run(scenario({ players: ['A', 'B'], lives: { B: 1 }, hands: { A: ['LIFE', 'R1'], B: ['R2'] } }), {
  type: 'play', player: 'A', card: 'LIFE-1',
}).state;

// Cards dealt at the table (C-K.3): waiting for hands, and a Blitz tie-break on unseen hands.
const dealing = ok(e.setup({ players: P4, dealing: 'TABLE' }, 1)).state;
const tieBreak = run(scenario({
  players: ['A', 'B', 'C'], config: { dealing: 'TABLE', variant: 'BLITZ' }, lives: { C: 1 }, hands: { A: ['LIFE', 'R5'] },
  unseen: { A: 1, B: 2, C: 1 },
}), { type: 'play', player: 'A', card: 'LIFE-1' }).state;

type Case = readonly [code: string, outcome: () => { ok: boolean; code?: string }];

const CASES: readonly Case[] = [
  ['BAD_CONFIG', () => e.setup({ players: ['A'] }, 1)],
  ['BAD_SETUP', () => e.fromScenario({ players: P4, total: 22 })],
  ['BAD_ACTION', () => e.apply(turn, { type: 'dance' } as unknown as Killer21Action)],
  ['UNKNOWN_FIELD', () => {
    const parsed = parseAction({ type: 'play', player: 'A', card: 'R4-1', colour: 'red' });
    return 'code' in parsed ? { ok: false, code: parsed.code } : { ok: true };
  }],
  ['NOT_A_PLAYER', () => e.apply(turn, { type: 'play', player: 'Z', card: 'R4-1' })],
  ['PLAYER_OUT', () => e.apply(turn, { type: 'cannot-play', player: 'D' })],
  ['UNKNOWN_CARD', () => e.apply(turn, { type: 'play', player: 'A', card: 'KILLER-2' })],
  ['CARD_NOT_IN_HAND', () => e.apply(turn, { type: 'play', player: 'A', card: 'R1-1' })],
  ['NOT_YOUR_TURN', () => e.apply(turn, { type: 'play', player: 'B', card: 'R1-1' })],
  ['OVER_21', () => e.apply(turn, { type: 'play', player: 'A', card: 'R4-1' })],
  ['CAN_PLAY', () => e.apply(run(turn, { type: 'cannot-play', player: 'A' }).state, { type: 'cannot-play', player: 'B' })],
  ['KILLER_WINDOW_OPEN', () => e.apply(opened, { type: 'play', player: 'B', card: 'R5-1' })],
  ['NO_KILLER_WINDOW', () => e.apply(killer, { type: 'close-window' })],
  ['WINDOW_CLOSED', () => e.apply(tied, { type: 'respond', player: 'C', card: 'R0-2', at: 1500 })],
  ['WINDOW_STILL_OPEN', () => e.apply(opened, { type: 'close-window', at: 3999 })],
  ['NOT_REQUIRED', () => {
    const others = scenario({ players: P4, config: { killerHits: 'OTHERS' }, hands: { A: ['KILLER', 'R0'], B: ['R1'], C: ['R2'], D: ['R3'] } });
    return e.apply(run(others, { type: 'play', player: 'A', card: 'KILLER-1' }).state, { type: 'respond', player: 'A', card: 'R0-1' });
  }],
  ['ALREADY_ANSWERED', () => e.apply(run(opened, { type: 'cannot-play', player: 'C', at: 1100 }).state, { type: 'cannot-play', player: 'C', at: 1200 })],
  ['NOT_A_ZERO', () => e.apply(opened, { type: 'respond', player: 'B', card: 'R5-1', at: 1100 })],
  ['NEEDS_TIME', () => e.apply(opened, { type: 'respond', player: 'B', card: 'R0-1' })],
  ['ZERO_BEFORE_KILLER', () => e.apply(opened, { type: 'respond', player: 'B', card: 'R0-1', at: 990, uncertaintyMs: 4 })],
  ['NOT_TIED', () => e.apply(tied, { type: 'rule-response', player: 'C', inTime: true })],
  ['ROUND_OVER', () => e.apply(roundOver, { type: 'play', player: 'B', card: 'R2-1' })],
  ['ROUND_NOT_OVER', () => e.apply(turn, { type: 'next-round' })],
  ['GAME_OVER', () => e.apply(gameOver, { type: 'next-round' })],
  ['REGISTERING', () => e.apply(dealing, { type: 'play', player: 'A', card: 'R1-1' })],
  ['TIE_BREAK', () => e.apply(tieBreak, { type: 'cannot-play', player: 'B' })],
  ['NOT_REGISTERING', () => e.apply(turn, { type: 'skip-registration' })],
  ['WRONG_COUNT', () => e.apply(dealing, { type: 'register-hand', player: 'A', cards: ['R1-1'] })],
  ['BAD_HAND', () => e.apply(dealing, { type: 'register-hand', player: 'A', cards: Array.from({ length: 10 }, () => 'R1-1') })],
  ['HAND_ALREADY_KNOWN', () => e.apply(tieBreak, { type: 'register-hand', player: 'C', cards: ['R1-1'] })],
];

describe('rejection codes', () => {
  it.each(CASES)('%s', (code, outcome) => {
    const result = outcome();
    expect(result.ok).toBe(false);
    expect(result.code).toBe(code);
  });

  it('every code of the catalogue is asserted above', () => {
    expect(CASES.map(([code]) => code).sort()).toEqual(Object.keys(K21_REJECTIONS).sort());
  });

  it('a rejection changes nothing', () => {
    const frozen = deepFreeze(structuredClone(turn));
    expect(codeOf(e.apply(frozen, { type: 'play', player: 'A', card: 'R4-1' }))).toBe('OVER_21');
    expect(frozen).toEqual(turn);
  });
});

describe('configuration (K.12)', () => {
  it('reports every problem at once', () => {
    const outcome = e.setup({
      players: ['A', 'A', ''], lives: 0, killerWindowMs: -1, variant: 'FAST', colour: 'red', deck: { red: [1], JOKER: 2 },
    } as never, 1);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    for (const part of ['colour: unknown option', 'players: ids must be unique', 'players: every id', 'lives:', 'killerWindowMs:',
      'variant:', 'deck.JOKER: unknown card kind', 'deck.red:']) {
      expect(outcome.message).toContain(part);
    }
  });

  it('refuses 1 and 8 players and a deck too small to deal (K21-1, K21-4)', () => {
    expect(codeOf(e.setup({ players: ['A'] }, 1))).toBe('BAD_CONFIG');
    expect(codeOf(e.setup({ players: ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'] }, 1))).toBe('BAD_CONFIG');
    const small = e.setup({ players: P4, deck: { red: [1, 1, 1, 1, 1, 1, 1, 1] } as never }, 1);
    expect(small.ok).toBe(false);
    if (!small.ok) expect(small.message).toContain('cannot deal 10');
    expect(codeOf(e.setup({ players: P4, dealer: 'Q' }, 1))).toBe('BAD_CONFIG');
  });

  it('merges a partial deck over the default (K21-2)', () => {
    const s = ok(e.setup({ players: P4, deck: { LIFE: 0, KILLER: 0 } as never }, 1)).state;
    expect(s.config.deck).toEqual({ ...DEFAULT_DECK, LIFE: 0, KILLER: 0 });
    expect(allCards(s.config.deck)).toHaveLength(100);
  });
});

describe('setup and dealing (K21-3..6, K21-53)', () => {
  it('deals 10 each from the left of the dealer, one at a time; the rest is the deck', () => {
    const { state, events } = ok(e.setup({ players: P4 }, 'deal'));
    expect(events.map((ev) => ev.type)).toEqual(['GAME_STARTED', 'ROUND_DEALT', 'TURN_STARTED']);
    expect(events[1]).toMatchObject({ round: 1, dealer: 'D', first: 'A', handCounts: { A: 10, B: 10, C: 10, D: 10 }, deckCount: 63 });
    expect(state).toMatchObject({ turn: 'A', dealer: 'D', total: 0, direction: 1, phase: 'TURN', round: 1 });
    expect(checkInvariants(state)).toEqual([]);
    expect(Object.values(state.lives)).toEqual([5, 5, 5, 5]);
  });

  it('the first dealer is an option; the same seed deals the same cards, another seed others', () => {
    const a = ok(e.setup({ players: P4, dealer: 'B' }, 7)).state;
    expect(a.turn).toBe('C');
    expect(ok(e.setup({ players: P4, dealer: 'B' }, 7)).state).toEqual(a);
    expect(ok(e.setup({ players: P4, dealer: 'B' }, 8)).state.hands).not.toEqual(a.hands);
  });

  it('the next dealer is the next player still in, clockwise, even after counter-clockwise play', () => {
    const s = scenario({ players: P4, dealer: 'C', lives: { D: 0 }, direction: 'COUNTERCLOCKWISE', hands: { A: ['R1', 'R2'], B: ['R3'], C: ['R4'] }, turn: 'B' });
    const { state, events } = run(s, { type: 'play', player: 'B', card: 'R3-1' }, { type: 'next-round' });
    expect(events.find((ev) => ev.type === 'ROUND_DEALT')).toMatchObject({ dealer: 'A', first: 'B', handCounts: { A: 10, B: 10, C: 10, D: 0 } });
    expect(state.direction).toBe(1);
  });
});

describe('the red 0 against the Killer and its deadline (time kernel, K21-33)', () => {
  it('re-checks an action\'s shape in apply: a negative uncertainty cannot make a late zero in time', () => {
    // 4050 ms against the 4000 deadline: "−100 ms" would put its latest moment at 3950.
    const bad = { type: 'respond', player: 'B', card: 'R0-1', at: 4050, uncertaintyMs: -100 } as Killer21Action;
    const r = e.apply(opened, bad);
    expect(r).toMatchObject({ ok: false, code: 'BAD_ACTION' });
    expect(codeOf(e.apply(opened, { type: 'respond', player: 'B', card: 'R0-1', at: 4050, uncertaintyMs: 'x' } as unknown as Killer21Action))).toBe('BAD_ACTION');
    expect(codeOf(e.apply(opened, { type: 'respond', player: 'B', card: 'R0-1', at: Number.NaN }))).toBe('BAD_ACTION');
    expect(codeOf(e.apply(killer, { type: 'play', player: 'A', card: 'KILLER-1', at: 1000, uncertaintyMs: -4 }))).toBe('BAD_ACTION');
    expect(codeOf(e.apply(opened, { type: 'respond', player: 'B', card: 'R0-1', at: 4050, uncertaintyMs: 100, by: 'x' } as Killer21Action))).toBe('UNKNOWN_FIELD');
    // The same zero with an honest interval is late.
    expect(run(opened, { type: 'respond', player: 'B', card: 'R0-1', at: 4050, uncertaintyMs: 10 }).events)
      .toContainEqual(expect.objectContaining({ type: 'ZERO_LATE', player: 'B', lateByMs: 50 }));
  });

  it('a zero whose interval lies wholly before the Killer\'s landing is no answer: refused, nothing changes, the player may still answer', () => {
    const withTime = run(killer, { type: 'play', player: 'A', card: 'KILLER-1', at: 1000, uncertaintyMs: 4 }).state;
    expect(withTime.killer).toMatchObject({ at: 1000, uncertaintyMs: 4, deadline: 4000 });
    const early = e.apply(withTime, { type: 'respond', player: 'B', card: 'R0-1', at: 990, uncertaintyMs: 4 });
    expect(early).toMatchObject({ ok: false, code: 'ZERO_BEFORE_KILLER' });
    expect(!early.ok && early.message).toContain('990 ± 4 ms, before the Killer (1000 ± 4 ms)');
    // Laid down again in the window, it answers.
    expect(run(withTime, { type: 'respond', player: 'B', card: 'R0-1', at: 1500, uncertaintyMs: 4 }).events)
      .toContainEqual(expect.objectContaining({ type: 'ZERO_IN_TIME', player: 'B' }));
  });

  it('a zero that overlaps the Killer\'s landing may have come before it: a tie for the referee (boundary KILLER)', () => {
    const withTime = run(killer, { type: 'play', player: 'A', card: 'KILLER-1', at: 1000, uncertaintyMs: 4 }).state;
    const r = run(withTime, { type: 'respond', player: 'B', card: 'R0-1', at: 995, uncertaintyMs: 4 });
    expect(r.events).toContainEqual({ type: 'ZERO_TIED', player: 'B', at: 995, uncertaintyMs: 4, deadline: 4000, boundary: 'KILLER' });
    expect(r.state.killer?.answers.B?.status).toBe('TIE');
    // 992 ± 4 vs 1000 ± 4: 996 < 996 is false, the intervals touch: still a tie. 991 ± 4: wholly before.
    expect(codeOf(e.apply(withTime, { type: 'respond', player: 'B', card: 'R0-1', at: 992, uncertaintyMs: 4 }))).toBe('APPLIED');
    expect(codeOf(e.apply(withTime, { type: 'respond', player: 'B', card: 'R0-1', at: 991, uncertaintyMs: 4 }))).toBe('ZERO_BEFORE_KILLER');
  });

  it('judges the deadline with the Killer\'s own uncertainty: killerWindowMs after a landing known within ±4 ms', () => {
    const withTime = run(killer, { type: 'play', player: 'A', card: 'KILLER-1', at: 1000, uncertaintyMs: 4 }).state;
    const at = (ms: number, u: number) => run(withTime, { type: 'respond', player: 'B', card: 'R0-1', at: ms, uncertaintyMs: u }).events
      .find((x) => x.type.startsWith('ZERO_'));
    expect(at(3990, 6)).toMatchObject({ type: 'ZERO_IN_TIME' });
    expect(at(3991, 6)).toMatchObject({ type: 'ZERO_TIED', boundary: 'DEADLINE' });
    expect(at(4010, 6)).toMatchObject({ type: 'ZERO_TIED', boundary: 'DEADLINE' });
    expect(at(4011, 6)).toMatchObject({ type: 'ZERO_LATE', lateByMs: 11 });
    // Without the Killer's uncertainty (a play with no interval), the deadline is exact, inclusive (K21-33).
    expect(run(opened, { type: 'respond', player: 'B', card: 'R0-1', at: 3990, uncertaintyMs: 10 }).events)
      .toContainEqual(expect.objectContaining({ type: 'ZERO_IN_TIME' }));
  });
});

describe('parseAction', () => {
  it.each([
    [{ type: 'dance' }, 'BAD_ACTION'],
    ['play', 'BAD_ACTION'],
    [{ type: 'play', player: 'A' }, 'BAD_ACTION'],
    [{ type: 'play', player: 'A', card: 'R1-1', at: 'noon' }, 'BAD_ACTION'],
    [{ type: 'respond', player: 'A', card: 'R0-1', uncertaintyMs: -1 }, 'BAD_ACTION'],
    [{ type: 'play', player: 'A', card: 'R0-1', uncertaintyMs: -1 }, 'BAD_ACTION'],
    [{ type: 'rule-response', player: 'A', inTime: 'yes' }, 'BAD_ACTION'],
    [{ type: 'close-window', player: 'A' }, 'UNKNOWN_FIELD'],
    [{ type: 'next-round', seed: 3 }, 'UNKNOWN_FIELD'],
    [{ type: 'cannot-play', player: 'A', card: 'R1-1' }, 'UNKNOWN_FIELD'],
  ])('%j → %s', (value, code) => {
    const parsed = parseAction(value);
    expect('error' in parsed ? parsed.code : 'OK').toBe(code);
  });

  it('accepts every action that legalActions lists', () => {
    for (const s of [turn, opened, tied, roundOver]) {
      for (const a of e.legalActions(s)) expect(parseAction(a)).toEqual(a);
    }
    expect(parseAction({ type: 'respond', player: 'B', card: 'R0-1', at: 1, uncertaintyMs: 2.5 })).not.toHaveProperty('error');
  });
});

describe('purity', () => {
  it('never mutates the input state, along a whole Killer window', () => {
    const frozen = deepFreeze(structuredClone(killer));
    const steps: Killer21Action[] = [
      { type: 'play', player: 'A', card: 'KILLER-1', at: 1000 },
      { type: 'respond', player: 'B', card: 'R0-1', at: 3995, uncertaintyMs: 10 },
      { type: 'cannot-play', player: 'C', at: 1200 },
      { type: 'close-window', at: 4000 },
      { type: 'rule-response', player: 'B', inTime: true },
    ];
    let s: Killer21State = frozen;
    for (const a of steps) s = deepFreeze(ok(e.apply(s, a)).state);
    expect(frozen).toEqual(killer);
    expect(s.phase).toBe('TURN');
    expect(checkInvariants(s)).toEqual([]);
  });

  it('shares the parts of the state an action does not change', () => {
    const s = run(killer, { type: 'play', player: 'A', card: 'R1-1' }).state;
    expect(s.hands.B).toBe(killer.hands.B);
    expect(s.lives).toBe(killer.lives);
    expect(s.deck).toBe(killer.deck);
    expect(s.config).toBe(killer.config);
  });

  it('states are plain JSON', () => {
    expect(JSON.parse(JSON.stringify(tied))).toEqual(tied);
  });
});

describe('legalActions', () => {
  it('lists only what apply accepts (with a time where a time is needed), and nothing once the game is over', () => {
    for (const s of [turn, opened, tied, roundOver]) {
      const legal = e.legalActions(s);
      expect(legal.length).toBeGreaterThan(0);
      for (const a of legal) {
        const needsTime = a.type === 'respond' && s.killer?.deadline != null;
        expect(codeOf(e.apply(s, needsTime ? { ...a, at: 1500 } : a))).toBe('APPLIED');
      }
    }
    expect(e.legalActions(gameOver)).toEqual([]);
  });

  it('offers the bust only when nothing can be played, and close-window at the deadline', () => {
    expect(e.legalActions(turn)).toEqual([{ type: 'cannot-play', player: 'A' }]);
    const open = e.legalActions(opened);
    expect(open).toContainEqual({ type: 'close-window', at: 4000 });
    expect(open).toContainEqual({ type: 'respond', player: 'C', card: 'R0-2' });
    expect(open.filter((a) => a.type === 'respond' && a.player === 'D')).toEqual([]);
    expect(e.legalActions(tied)).toEqual([
      { type: 'rule-response', player: 'B', inTime: true }, { type: 'rule-response', player: 'B', inTime: false },
    ]);
  });
});

describe('views (design principle 2)', () => {
  it('the public view shows counts, the player view adds only the own hand', () => {
    const pub = e.view(opened, PUBLIC) as Killer21PublicView;
    expect(pub).toMatchObject({ total: 0, direction: 'CLOCKWISE', turn: 'A', phase: 'KILLER', handCounts: { A: 1, B: 2, C: 2, D: 1 } });
    expect(pub.killer).toMatchObject({ by: 'A', deadline: 4000, windowMs: 3000, required: P4 });
    const text = JSON.stringify(pub);
    for (const hand of Object.values(opened.hands)) for (const c of hand) expect(text).not.toContain(`"${c}"`);
    for (const c of opened.deck) expect(text).not.toContain(`"${c}"`);
    const mine = e.view(opened, { role: 'player', player: 'B' }) as Killer21PlayerView;
    expect(mine.hand).toEqual(['R0-1', 'R5-1']);
    expect(JSON.stringify(mine)).not.toContain('"R6-1"');
  });

  it('a tied or late zero stays hidden; a zero in time is on the pile for all to see', () => {
    expect(JSON.stringify(e.view(tied, PUBLIC))).not.toContain('R0-1');
    const inTime = run(opened, { type: 'respond', player: 'C', card: 'R0-2', at: 1200 }).state;
    expect((e.view(inTime, PUBLIC) as Killer21PublicView).top).toMatchObject({ card: 'R0-2', by: 'C', kind: 'ZERO' });
    expect(omni(tied).killer?.answers.B).toEqual({ status: 'TIE', card: 'R0-1', at: 3995, uncertaintyMs: 10 });
  });
});

describe('fromScenario', () => {
  it('reports every problem at once as BAD_SETUP', () => {
    const outcome = e.fromScenario({
      players: P4, colour: 1, total: 22, lives: { B: 0, Q: 1 }, turn: 'B',
      hands: { A: ['R1', 'R1-1'], B: ['R2'], C: [], D: ['R9'] },
    });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    for (const part of ['colour: unknown key', 'total:', 'lives.Q: not a player', 'hands.D.0: R9 is not a card', 'hands.B: B is out',
      'hands.C: C has lives but no hand is listed', '"deal": "FRESH"', 'turn:']) {
      expect(outcome.message).toContain(part);
    }
  });

  it('gives a kind the lowest copy no entry names, and places every other card', () => {
    const s = scenario({ players: ['A', 'B'], hands: { A: ['R0', 'R0-1'], B: ['KILLER'] }, pile: ['R0'], deck: ['R0'] });
    expect(s.hands.A).toEqual(['R0-2', 'R0-1']);
    expect(s.pile.map((r) => r.card)).toEqual(['R0-3']);
    expect(s.deck.slice(0, 2)).toEqual(['R0-4', 'R0-5']);
    expect(checkInvariants(s)).toEqual([]);
    expect(codeOf(e.fromScenario({ players: ['A', 'B'], hands: { A: ['KILLER'], B: ['KILLER'] } }))).toBe('BAD_SETUP');
  });

  it('starts from a fresh deal with deal: "FRESH": exactly the state setup gives for the same players, config and seed', () => {
    for (const seed of [1, 7, 'cafe']) {
      const fresh = ok(e.fromScenario({ players: P4, deal: 'FRESH', seed, config: { lives: 3, handSize: 4 } })).state;
      expect(fresh).toEqual(ok(e.setup({ players: P4, lives: 3, handSize: 4 }, seed)).state);
      for (const p of P4) expect(fresh.hands[p]).toHaveLength(4);
    }
    const table = ok(e.fromScenario({ players: P4, deal: 'FRESH', config: { dealing: 'TABLE' } })).state;
    expect(table.phase).toBe('DEALING');
  });

  it('refuses keys the deal decides, and any other deal, as BAD_SETUP naming them', () => {
    const outcome = e.fromScenario({ players: P4, deal: 'FRESH', total: 5, hands: { A: ['R1'] } });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) for (const part of ['total: not with "deal": "FRESH"', 'hands: not with']) expect(outcome.message).toContain(part);
    expect(codeOf(e.fromScenario({ players: P4, deal: 'NEW' }))).toBe('BAD_SETUP');
  });
});

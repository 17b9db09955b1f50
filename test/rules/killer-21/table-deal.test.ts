/**
 * Killer-21 with the cards dealt at the table (`dealing: TABLE`, docs/rules/killer-21.md C-K.3, K21-90..98): the
 * engine knows counts and the cards it has seen. Unit tests for each rule, then two properties over random
 * games: (1) a table-dealt game shadowing an engine-dealt one (same seats, same plays, hands registered or not
 * at random) accepts every action the engine-dealt game accepted and agrees on everything public — lives,
 * total, turn, hand and deck counts, the winners; (2) random bot games on a table-dealt engine keep the
 * invariants (every card in one place, the unseen cards exactly as many as the counts say).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { playGame } from '../../../controller/bots/play-game.ts';
import { PUBLIC } from '../../../controller/rules/common/viewer.ts';
import {
  checkInvariants, handCount, hiddenIn, killer21Engine, type Killer21Action, type Killer21PlayerView,
  type Killer21PublicView, type Killer21State,
} from '../../../controller/rules/killer-21/index.ts';
import { codeOf, ok, omni, run, scenario } from './helpers.ts';

const e = killer21Engine;
const P3 = ['A', 'B', 'C'];

function table(extra: Record<string, unknown> = {}, seed = 1): Killer21State {
  return ok(e.setup({ players: P3, dealing: 'TABLE', ...extra }, seed)).state;
}

function unseenOf(s: Killer21State): readonly string[] {
  return s.hidden?.cards ?? [];
}

const pub = (s: Killer21State): Killer21PublicView => e.view(s, PUBLIC) as Killer21PublicView;

describe('a table deal (K21-90)', () => {
  it('starts in DEALING with every card unseen and only the counts known', () => {
    const s = table();
    expect(s.phase).toBe('DEALING');
    expect(s.turn).toBe('A'); // after the dealer, the last seat
    expect(P3.map((p) => handCount(s, p))).toEqual([10, 10, 10]);
    expect(unseenOf(s)).toHaveLength(103);
    expect(s.deck).toEqual([]);
    const v = pub(s);
    expect(v.deckCount).toBe(73);
    expect(v.registering).toEqual(P3);
    expect(v.players.map((p) => p.unseenCount)).toEqual([10, 10, 10]);
    expect(JSON.stringify(v)).not.toMatch(/"R\d-\d+"/);
    expect(checkInvariants(s)).toEqual([]);
    // The engine cannot list a hand it has not seen: only skipping needs no cards.
    expect(e.legalActions(s)).toEqual([{ type: 'skip-registration' }]);
    expect(codeOf(e.apply(s, { type: 'play', player: 'A', card: 'R1-1' }))).toBe('REGISTERING');
  });

  it('is refused as an option value it does not know', () => {
    expect(codeOf(e.setup({ players: P3, dealing: 'SHUFFLED' } as unknown as Parameters<typeof e.setup>[0], 1))).toBe('BAD_CONFIG');
  });
});

describe('registering hands (K21-91, K21-92)', () => {
  const hand = (from: number): string[] => Array.from({ length: 10 }, (_, i) => `R${(from + i) % 8}-${1 + Math.floor((from + i) / 8)}`);

  it('a registered hand is known and checked; play starts when every hand is in', () => {
    let s = table();
    const r = ok(e.apply(s, { type: 'register-hand', player: 'B', cards: hand(0) }));
    expect(r.events).toEqual([{ type: 'HAND_REGISTERED', player: 'B', count: 10 }]);
    s = r.state;
    expect((e.view(s, { role: 'player', player: 'B' }) as Killer21PlayerView).hand).toEqual(hand(0));
    expect(pub(s).registering).toEqual(['A', 'C']);
    expect(codeOf(e.apply(s, { type: 'register-hand', player: 'B', cards: hand(10) }))).toBe('HAND_ALREADY_KNOWN');
    expect(codeOf(e.apply(s, { type: 'register-hand', player: 'A', cards: hand(5) }))).toBe('BAD_HAND'); // B's cards
    expect(codeOf(e.apply(s, { type: 'register-hand', player: 'A', cards: hand(10).slice(0, 9) }))).toBe('WRONG_COUNT');
    expect(codeOf(e.apply(s, { type: 'register-hand', player: 'A', cards: [...hand(10).slice(0, 9), 'R2-2'] }))).toBe('BAD_HAND');
    s = run(s, { type: 'register-hand', player: 'A', cards: hand(10) }).state;
    const last = ok(e.apply(s, { type: 'register-hand', player: 'C', cards: hand(20) }));
    expect(last.events.at(-1)).toEqual({ type: 'TURN_STARTED', player: 'A', total: 0 });
    s = last.state;
    expect(s.phase).toBe('TURN');
    expect(hiddenIn(s, 'A')).toBe(0);
    // Every hand known: as strict as an engine deal.
    expect(codeOf(e.apply(s, { type: 'play', player: 'A', card: 'R0-1' }))).toBe('CARD_NOT_IN_HAND');
    expect(codeOf(e.apply(s, { type: 'play', player: 'A', card: 'R2-2' }))).toBe('APPLIED');
    expect(codeOf(e.apply(s, { type: 'register-hand', player: 'A', cards: [] }))).toBe('NOT_REGISTERING');
    expect(checkInvariants(s)).toEqual([]);
  });

  it('skipping starts play with the unregistered hands unseen', () => {
    const s = run(table(), { type: 'register-hand', player: 'B', cards: hand(0) }).state;
    const r = ok(e.apply(s, { type: 'skip-registration' }));
    expect(r.events).toEqual([
      { type: 'REGISTRATION_SKIPPED', players: ['A', 'C'] }, { type: 'TURN_STARTED', player: 'A', total: 0 },
    ]);
    expect(hiddenIn(r.state, 'A')).toBe(10);
    expect(codeOf(e.apply(r.state, { type: 'skip-registration' }))).toBe('NOT_REGISTERING');
  });
});

describe('plays from unseen cards (K21-93)', () => {
  const s = scenario({
    players: P3, config: { dealing: 'TABLE' }, total: 15, unseen: { A: 3, B: 2, C: 2 }, hands: { B: ['R6'] },
    pile: ['R5', 'R4'],
  });

  it('accepts a card nobody has seen from a player holding unseen cards, and sees it', () => {
    const r = ok(e.apply(s, { type: 'play', player: 'A', card: 'R3-2' }));
    expect(hiddenIn(r.state, 'A')).toBe(2);
    expect(unseenOf(r.state)).not.toContain('R3-2');
    expect(checkInvariants(r.state)).toEqual([]);
  });

  it('refuses a card seen elsewhere, and a card over 21 by its value', () => {
    expect(codeOf(e.apply(s, { type: 'play', player: 'A', card: 'R5-1' }))).toBe('CARD_NOT_IN_HAND'); // on the pile
    expect(codeOf(e.apply(s, { type: 'play', player: 'A', card: 'R6-1' }))).toBe('CARD_NOT_IN_HAND'); // B's, registered
    expect(codeOf(e.apply(s, { type: 'play', player: 'A', card: 'R7-3' }))).toBe('OVER_21');
  });

  it('knows a player went out when their count reaches 0 (K21-98)', () => {
    const last = scenario({ players: P3, config: { dealing: 'TABLE' }, unseen: { A: 1, B: 2, C: 2 } });
    const r = ok(e.apply(last, { type: 'play', player: 'A', card: 'PASS-1' }));
    expect(r.events.map((x) => x.type)).toContain('ROUND_WON');
    expect(r.state.lives).toEqual({ A: 5, B: 4, C: 4 });
  });
});

describe('draws and the reshuffle as counts (K21-94)', () => {
  it('a drawn card is unseen; an empty deck is rebuilt from the pile under its top card', () => {
    // Four cards not placed: B and C hold one each, so two are in the deck; Draw 2 needs four.
    const s = scenario({
      players: P3, config: { dealing: 'TABLE', deck: { red: [1, 1, 1, 1, 1, 1, 1, 1], DRAW1: 0, DRAW2: 1, PASS: 0, SKIP: 0, REVERSE: 0, LIFE: 0, KILLER: 0 }, handSize: 1 },
      hands: { A: ['DRAW2', 'R0'] }, unseen: { B: 1, C: 1 }, pile: ['R1', 'R2', 'R3'],
    });
    expect(pub(s).deckCount).toBe(2);
    const r = ok(e.apply(s, { type: 'play', player: 'A', card: 'DRAW2-1' }));
    expect(r.events.filter((x) => x.type === 'CARDS_DRAWN' || x.type === 'DECK_RESHUFFLED')).toEqual([
      { type: 'CARDS_DRAWN', player: 'B', count: 2 },
      { type: 'DECK_RESHUFFLED', cards: 3 },
      { type: 'CARDS_DRAWN', player: 'C', count: 2 },
    ]);
    expect([hiddenIn(r.state, 'B'), hiddenIn(r.state, 'C'), pub(r.state).deckCount]).toEqual([3, 3, 1]);
    expect(r.state.pile.map((x) => x.card)).toEqual(['DRAW2-1']);
    expect(unseenOf(r.state)).toEqual(expect.arrayContaining(['R1-1', 'R2-1', 'R3-1']));
    expect(checkInvariants(r.state)).toEqual([]);
  });
});

describe('"I can\'t" with unseen cards (K21-95)', () => {
  const small = (red: number[]): Record<string, unknown> => ({
    dealing: 'TABLE', handSize: 1, deck: { red, DRAW1: 0, DRAW2: 0, PASS: 0, SKIP: 0, REVERSE: 0, LIFE: 0, KILLER: 0 },
  });

  it('is refused when the counts prove a playable card: fewer unplayable unseen cards than the hand holds', () => {
    // At 15, only red 7s cannot be played; two of the three unseen cards are 7s, and A holds three unseen cards.
    const s = scenario({ players: ['A', 'B'], config: small([2, 0, 0, 0, 0, 0, 0, 2]), total: 15, unseen: { A: 3 }, hands: { B: ['R0'] } });
    expect(codeOf(e.apply(s, { type: 'cannot-play', player: 'A' }))).toBe('CAN_PLAY');
  });

  it('is taken on trust when an unseen hand might hold only cards over 21', () => {
    const s = scenario({ players: ['A', 'B'], config: small([2, 0, 0, 0, 0, 0, 0, 2]), total: 15, unseen: { A: 2 }, hands: { B: ['R0'] } });
    const r = ok(e.apply(s, { type: 'cannot-play', player: 'A' }));
    expect(r.events[0]).toEqual({ type: 'BUSTED', player: 'A', total: 15, voluntary: false, auto: false, trusted: true });
  });

  it('is checked when every unseen card is over 21, and autoBust busts at once', () => {
    const s = scenario({ players: ['A', 'B'], config: small([1, 0, 0, 0, 0, 0, 0, 2]), total: 15, unseen: { A: 1 }, hands: { A: ['R7-1'], B: ['R0'] } });
    const r = ok(e.apply(s, { type: 'cannot-play', player: 'A' }));
    expect(r.events[0]).toEqual({ type: 'BUSTED', player: 'A', total: 15, voluntary: false, auto: false });
    const auto = scenario({
      players: ['A', 'B'], config: { ...small([1, 0, 0, 0, 0, 0, 0, 3]), autoBust: true }, total: 15, turn: 'B',
      unseen: { A: 1 }, hands: { A: ['R7-1'], B: ['R0', 'R7-2'] },
    });
    // B plays the 0; A, on turn with no possible play, busts without pressing.
    const after = ok(e.apply(auto, { type: 'play', player: 'B', card: 'R0-1' }));
    expect(after.events).toContainEqual({ type: 'BUSTED', player: 'A', total: 15, voluntary: false, auto: true });
  });
});

describe('the Killer with unseen cards (K21-96)', () => {
  const s = scenario({ players: P3, config: { dealing: 'TABLE' }, hands: { A: ['KILLER', 'R1'] }, unseen: { B: 2, C: 2 } });
  const opened = run(s, { type: 'play', player: 'A', card: 'KILLER-1', at: 1000 }).state;

  it('any unseen red 0 answers for a player with unseen cards; a seen one does not', () => {
    const r = ok(e.apply(opened, { type: 'respond', player: 'B', card: 'R0-4', at: 1500 }));
    expect(r.events[0]).toMatchObject({ type: 'ZERO_IN_TIME', player: 'B', card: 'R0-4' });
    expect(hiddenIn(r.state, 'B')).toBe(1);
    expect(codeOf(e.apply(r.state, { type: 'respond', player: 'C', card: 'R0-4', at: 1600 }))).toBe('CARD_NOT_IN_HAND');
    expect(codeOf(e.apply(opened, { type: 'respond', player: 'A', card: 'R0-1', at: 1600 }))).toBe('CARD_NOT_IN_HAND');
  });

  it('a late zero goes back to the hand, which the engine then knows holds it', () => {
    const r = ok(e.apply(opened, { type: 'respond', player: 'C', card: 'R0-2', at: 4500 }));
    expect(r.events[0]).toMatchObject({ type: 'ZERO_LATE', player: 'C' });
    expect(r.state.hands.C).toEqual(['R0-2']);
    expect(hiddenIn(r.state, 'C')).toBe(1);
    expect(handCount(r.state, 'C')).toBe(2);
    expect(checkInvariants(r.state)).toEqual([]);
  });

  it('a tied zero waits in the hand for the ruling, and goes down when ruled in time', () => {
    const tied = run(opened, { type: 'respond', player: 'B', card: 'R0-3', at: 3995, uncertaintyMs: 10 }).state;
    expect(tied.hands.B).toEqual(['R0-3']);
    const closed = run(tied, { type: 'cannot-play', player: 'A' }, { type: 'cannot-play', player: 'C' }).state;
    const r = ok(e.apply(closed, { type: 'rule-response', player: 'B', inTime: true }));
    expect(r.events).toContainEqual({ type: 'KILLER_SETTLED', withoutZero: ['A', 'C'], withZero: ['B'] });
    expect([handCount(r.state, 'B'), r.state.lives.B]).toEqual([1, 5]);
  });
});

describe('the tie-break on unseen hands (K21-97)', () => {
  const blitz = scenario({
    players: P3, config: { dealing: 'TABLE', variant: 'BLITZ' }, lives: { C: 1 }, hands: { A: ['LIFE', 'R5'] },
    unseen: { A: 1, B: 2, C: 1 },
  });
  const scoring = run(blitz, { type: 'play', player: 'A', card: 'LIFE-1' });

  it('waits in SCORING for the tied players\' unseen cards', () => {
    expect(scoring.state.phase).toBe('SCORING');
    expect(scoring.events.at(-1)).toEqual({ type: 'TIE_BREAK_PENDING', reason: 'BLITZ', candidates: ['A', 'B'], pending: { A: 1, B: 2 } });
    expect(pub(scoring.state).scoring).toEqual({ reason: 'BLITZ', candidates: ['A', 'B'], pending: { A: 1, B: 2 } });
    expect(checkInvariants(scoring.state)).toEqual([]);
    expect(codeOf(e.apply(scoring.state, { type: 'next-round' }))).toBe('ROUND_NOT_OVER');
    expect(codeOf(e.apply(scoring.state, { type: 'play', player: 'B', card: 'R1-1' }))).toBe('TIE_BREAK');
    expect(codeOf(e.apply(scoring.state, { type: 'register-hand', player: 'C', cards: ['R1-1'] }))).toBe('HAND_ALREADY_KNOWN');
    expect(codeOf(e.apply(scoring.state, { type: 'register-hand', player: 'A', cards: ['R5-1'] }))).toBe('BAD_HAND'); // A's known card
  });

  it('decides by the red points once every hand is in (A: 5 + 2, B: 3 + 3)', () => {
    const a = ok(e.apply(scoring.state, { type: 'register-hand', player: 'A', cards: ['R2-1'] }));
    expect(a.state.phase).toBe('SCORING');
    expect(codeOf(e.apply(a.state, { type: 'register-hand', player: 'B', cards: ['R2-1', 'R4-1'] }))).toBe('BAD_HAND');
    expect(codeOf(e.apply(a.state, { type: 'register-hand', player: 'B', cards: ['R4-1'] }))).toBe('WRONG_COUNT');
    const b = ok(e.apply(a.state, { type: 'register-hand', player: 'B', cards: ['R3-1', 'R3-2'] }));
    expect(b.events.at(-1)).toEqual({
      type: 'GAME_OVER', winners: ['B'], lives: { A: 4, B: 4, C: 0 }, reason: 'BLITZ', points: { A: 7, B: 6 },
    });
    expect(b.state.phase).toBe('GAME_OVER');
    expect(checkInvariants(b.state)).toEqual([]);
  });

  it('a referee may end it without the hands: the tied players share the win', () => {
    const r = ok(e.apply(scoring.state, { type: 'skip-registration' }));
    expect(r.events).toEqual([
      { type: 'TIE_BREAK_SKIPPED', candidates: ['A', 'B'] },
      { type: 'GAME_OVER', winners: ['A', 'B'], lives: { A: 4, B: 4, C: 0 }, reason: 'BLITZ' },
    ]);
  });
});

describe('a player who is out returns their cards unseen (K21-98)', () => {
  it('known and unseen cards go back to the deck as unseen cards', () => {
    const s = scenario({
      players: P3, config: { dealing: 'TABLE' }, lives: { B: 1 }, hands: { A: ['LIFE', 'R1'], B: ['R7'] }, unseen: { B: 2, C: 3 },
    });
    const r = ok(e.apply(s, { type: 'play', player: 'A', card: 'LIFE-1' }));
    expect(r.events).toContainEqual({ type: 'PLAYER_OUT', player: 'B', returned: 3 });
    expect(unseenOf(r.state)).toContain('R7-1');
    expect(handCount(r.state, 'B')).toBe(0);
    expect(checkInvariants(r.state)).toEqual([]);
  });
});

// ------------------------------------------------------------------------------------------------ properties

const options = fc.record({
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  players: fc.integer({ min: 2, max: 7 }),
  autoBust: fc.boolean(),
  allOutPolicy: fc.constantFrom('SHARED', 'HAND_POINTS'),
  variant: fc.constantFrom('STANDARD', 'BLITZ'),
  killerHits: fc.constantFrom('EVERYONE', 'OTHERS'),
  register: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
});
const IDS = ['A', 'B', 'C', 'D', 'E', 'F', 'G'];
/** Games per property; `K21_PROPERTY_RUNS=500` for a longer search. */
const RUNS = Number(process.env.K21_PROPERTY_RUNS ?? 20);

function publicFacts(s: Killer21State): unknown {
  const v = pub(s);
  const { lives, total, turn, direction, handCounts, deckCount, recent } = v;
  return { lives, total, turn, direction, handCounts, deckCount, recent };
}

/** Registers a random subset of the dealt hands (bit k of `mask` for seat k), then skips the rest. */
function registerSome(t: Killer21State, truth: Killer21State, mask: number): Killer21State {
  let s = t;
  s.players.forEach((p, k) => {
    if (s.phase === 'DEALING' && hiddenIn(s, p) > 0 && ((mask >> k) & 1) === 1) {
      s = ok(e.apply(s, { type: 'register-hand', player: p, cards: truth.hands[p] ?? [] })).state;
    }
  });
  return s.phase === 'DEALING' ? ok(e.apply(s, { type: 'skip-registration' })).state : s;
}

/** A tied player's true hand at the tie-break: the engine-dealt game has already returned a leaver's cards. */
function trueHand(before: Killer21State, after: Killer21State, action: Killer21Action, p: string): readonly string[] {
  if ((after.lives[p] ?? 0) > 0) return after.hands[p] ?? [];
  const card = action.type === 'play' && action.player === p ? action.card : null;
  return (before.hands[p] ?? []).filter((c) => c !== card);
}

describe('Killer-21 dealt at the table, random games', () => {
  it('shadow an engine-dealt game: every action accepted, every public fact the same, the same winners', () => {
    fc.assert(fc.property(options, (o) => {
      const { seed, players, register, ...rules } = o;
      const config = { players: IDS.slice(0, players), ...rules };
      const states: Killer21State[] = [ok(e.setup(config, seed)).state];
      const played = playGame(e, config, seed, { onState: (s) => states.push(s as Killer21State), maxActions: 20_000 });
      let t = registerSome(ok(e.setup({ ...config, dealing: 'TABLE' }, seed)).state, states[0] as Killer21State, register);
      played.actions.forEach((raw, i) => {
        const action = raw as Killer21Action;
        const before = states[i] as Killer21State;
        const after = states[i + 1] as Killer21State;
        const r = e.apply(t, action);
        if (!r.ok) expect.fail(`action ${i} ${JSON.stringify(action)} refused at the table: ${r.code}: ${r.message}`);
        t = r.state;
        // autoBust: the engine that dealt knows a hand cannot play; the table may not, so its player presses
        // "I can't" (taken on trust). The table must never bust on its own where the engine did not.
        const busts = (events: readonly { type: string; player?: string }[]): string[] =>
          events.filter((x) => x.type === 'BUSTED').map((x) => x.player as string);
        const want = busts(ok(e.apply(before, action)).events);
        let got = busts(r.events);
        expect(want.slice(0, got.length)).toEqual(got);
        while (got.length < want.length) {
          const press = ok(e.apply(t, { type: 'cannot-play', player: want[got.length] as string }));
          t = press.state;
          got = [...got, ...busts(press.events)];
        }
        expect(got).toEqual(want);
        if (t.phase === 'DEALING') t = registerSome(t, after, register >> i % 7);
        if (t.phase === 'SCORING') {
          // The cards the table knew in the tied hands are claimed (a leaver's known cards are back in the deck).
          const known = new Set(t.scoring?.registered ?? []);
          for (const p of Object.keys(t.scoring?.pending ?? {})) {
            const unseen = trueHand(before, after, action, p).filter((c) => !known.has(c));
            t = ok(e.apply(t, { type: 'register-hand', player: p, cards: unseen })).state;
          }
        }
        expect(checkInvariants(t)).toEqual([]);
        expect(t.phase).toBe(after.phase);
        expect(publicFacts(t)).toEqual(publicFacts(after));
        // What the table knows of a hand is really in it.
        for (const p of t.players) expect(after.hands[p] ?? []).toEqual(expect.arrayContaining([...(t.hands[p] ?? [])]));
      });
      expect(t.winners).toEqual(played.result.winners);
    }), { numRuns: RUNS });
  });

  it('bots playing unseen cards keep every invariant', () => {
    fc.assert(fc.property(options, (o) => {
      const { seed, players, register: _r, ...rules } = o;
      const config = { players: IDS.slice(0, players), ...rules, dealing: 'TABLE' };
      const game = playGame(e, config, seed, {
        recordActions: false, maxActions: 20_000,
        onState: (s, action) => {
          const broken = checkInvariants(s as Killer21State);
          if (broken.length > 0) expect.fail(`${JSON.stringify(action)}: ${broken.join('; ')}`);
        },
      });
      expect(game.result.over).toBe(true);
      expect(omni(game.finalState as Killer21State).phase).toBe('GAME_OVER');
    }), { numRuns: RUNS });
  });
});

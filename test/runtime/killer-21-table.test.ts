/**
 * Killer-21 on the table runtime with fake ports (runtime/killer-21/): cards from the pile station and the seat
 * pads, the Killer race judged by the zeros' landing intervals (a straddling one goes to the referee with the
 * figures), the deadline timer, the ZAP button, chips counted against the engine's lives, and the lamps.
 */
import { describe, expect, it } from 'vitest';
import type { SensorEvent } from '../../controller/hardware/interface.ts';
import { CARD_KINDS, killer21Engine, type Killer21State } from '../../controller/rules/killer-21/index.ts';
import type { BotContext } from '../../controller/runtime/games/bot-context.ts';
import { cardsToRegister } from '../../controller/runtime/killer-21/registration.ts';
import { killer21Table, KILLER_GRACE_MS } from '../../controller/runtime/killer-21/table.ts';
import { k21BotStep } from '../../controller/runtime/killer-21/table-bot.ts';
import { KILLER21_ITEMS, itemKey, type Item } from '../../controller/runtime/registry/items.ts';
import { enrollTag, EMPTY_REGISTRY, type TagRegistry } from '../../controller/runtime/registry/tag-registry.ts';
import { TableRuntime } from '../../controller/runtime/table-runtime.ts';
import { at, fakeClock, manualScheduler, memoryLamps, memoryLog, memoryPublisher } from './fakes.ts';

/** A 7-byte UID per Killer-21 item (its position in KILLER21_ITEMS). */
const uidOf = (item: Item): string => {
  const index = KILLER21_ITEMS.findIndex((i) => itemKey(i) === itemKey(item));
  return `04B2${(index + 1).toString(16).padStart(4, '0')}00C0DE`.toUpperCase();
};
const card = (id: string): string => uidOf({ kind: 'k21', card: id });
const chip = (n: number): string => uidOf({ kind: 'chip', chip: n });

function registry(): TagRegistry {
  let r = EMPTY_REGISTRY;
  for (const item of KILLER21_ITEMS) {
    const e = enrollTag(r, uidOf(item), item);
    if (!e.ok) throw new Error(e.message);
    r = e.registry;
  }
  return r;
}

type Untimed<E = SensorEvent> = E extends SensorEvent ? Omit<E, 'time'> : never;

const SEATS = { 'seat-1': 'A', 'seat-2': 'B', 'seat-3': 'C' };

/** A table in the middle of a game: the scenario set-up (hands named by kind, as in test/scenarios/killer-21). */
function rig(setup: Record<string, unknown>, options: Record<string, unknown> = {}) {
  const built = killer21Engine.fromScenario({ players: ['A', 'B', 'C'], ...setup });
  if (!built.ok) throw new Error(built.message);
  return rigOn(built.state, options);
}

/** A table running `initial` (a scenario's state, or a game just set up). */
function rigOn(initial: Killer21State, options: Record<string, unknown> = {}) {
  const clock = fakeClock();
  const scheduler = manualScheduler(clock);
  const log = memoryLog();
  const publisher = memoryPublisher();
  const lamps = memoryLamps();
  const built = { state: initial };
  const tableGame = killer21Table({ seatOfStation: SEATS, pileStation: 'pile', registry: registry(), options });
  const runtime = new TableRuntime(
    { tableId: 't1', game: 'killer-21', players: ['A', 'B', 'C'], seatOfStation: SEATS, rules: {}, nextSeed: () => 1, arbitrationWindowMs: 30, tableGame },
    { log, publisher, lamps, scheduler, clock },
  );
  runtime.start({ gameId: 'g1', config: { players: ['A', 'B', 'C'] }, seed: 1, state: built.state });
  /** Sends an event stamped `afterMs` after the previous one, the sensor's interval `beforeUs` wide. */
  const send = (e: Untimed, afterMs = 1000, beforeUs = 0): void => {
    clock.now += afterMs * 1000;
    runtime.handleSensor({ ...e, time: at(clock.now, beforeUs) });
  };
  const state = (): Killer21State => runtime.engineState() as Killer21State;
  const events = (type: string): Record<string, unknown>[] =>
    publisher.published.filter((e): e is Record<string, unknown> => (e as { type?: unknown }).type === type);
  return { clock, scheduler, log, publisher, lamps, runtime, send, state, events };
}

const held = (s: Killer21State, player: string, kind: string): string => {
  const found = s.hands[player]?.find((c) => c.startsWith(`${kind}-`));
  if (found === undefined) throw new Error(`${player} holds no ${kind}`);
  return found;
};

describe('Killer-21 table runtime', () => {
  it('takes a card on the pile as the turn player\'s play, and a card on a pad out of turn as that seat\'s (refused)', () => {
    const t = rig({ total: 3, hands: { A: ['R2', 'R5'], B: ['R1'], C: ['R4'] } });
    expect(t.lamps.shown).toMatchObject({ 'seat-1': 'on', 'seat-2': 'off', 'seat-3': 'off' });
    t.send({ kind: 'tag-arrived', station: 'pile', uid: card(held(t.state(), 'A', 'R2')) });
    expect(t.events('CARD_PLAYED')).toEqual([expect.objectContaining({ player: 'A', total: 5 })]);
    expect(t.state().turn).toBe('B');
    expect(t.lamps.shown).toMatchObject({ 'seat-1': 'off', 'seat-2': 'on' });
    t.send({ kind: 'tag-arrived', station: 'seat-3', uid: card(held(t.state(), 'C', 'R4')) });
    expect(t.events('ACTION_REFUSED')).toEqual([expect.objectContaining({ action: 'play', code: 'NOT_YOUR_TURN' })]);
    expect(t.state().turn).toBe('B');
  });

  it('refuses "I can\'t" from a player who can play, without telling why (the hand is secret)', () => {
    const t = rig({ total: 3, hands: { A: ['R2'], B: ['R1'], C: ['R4'] } });
    t.send({ kind: 'button-pressed', station: 'seat-1', button: 'zap' });
    expect(t.events('ACTION_REFUSED')).toEqual([expect.objectContaining({ action: 'cannot-play', code: 'HIDDEN_REASON' })]);
    expect(JSON.stringify(t.publisher.published)).not.toContain('CAN_PLAY');
  });

  it('runs the Killer race by landing intervals: in time, a straddling zero to the referee with the figures, the deadline by timer', () => {
    const t = rig({ total: 12, hands: { A: ['KILLER', 'R1'], B: ['R0', 'R5'], C: ['R0', 'R6'] } });
    const b0 = held(t.state(), 'B', 'R0');
    const c0 = held(t.state(), 'C', 'R0');
    t.send({ kind: 'tag-arrived', station: 'pile', uid: card('KILLER-1') });
    const opened = t.events('KILLER_WINDOW_OPENED')[0] as { at: number; deadline: number };
    expect(opened.deadline - opened.at).toBe(3000);
    expect(t.lamps.shown).toMatchObject({ 'seat-1': 'blink-fast', 'seat-2': 'blink-fast', 'seat-3': 'blink-fast' });
    // B's zero lands a second later: in time.
    t.send({ kind: 'tag-arrived', station: 'seat-2', uid: card(b0) });
    expect(t.events('ZERO_IN_TIME')).toEqual([expect.objectContaining({ player: 'B', card: b0 })]);
    // C's zero is read 10 ms after the deadline, but its tag's poll window reaches 40 ms back: it may have
    // landed before the deadline or after it, so the referee decides (K21-34), with the interval's figures.
    t.send({ kind: 'tag-arrived', station: 'seat-3', uid: card(c0) }, 2010, 40_000);
    const tied = t.events('ZERO_TIED')[0] as { player: string; at: number; uncertaintyMs: number; deadline: number };
    expect(tied).toMatchObject({ player: 'C', deadline: opened.deadline });
    expect(tied.at - tied.uncertaintyMs).toBeLessThan(opened.deadline);
    expect(tied.at + tied.uncertaintyMs).toBeGreaterThan(opened.deadline);
    expect(JSON.stringify(t.publisher.published.at(-1))).not.toContain(c0);
    // A answers with the button ("no red 0"); the deadline timer closes the window after the grace.
    t.send({ kind: 'button-pressed', station: 'seat-1', button: 'zap' }, 1);
    expect(t.events('ANSWER_CONCEDED')).toEqual([expect.objectContaining({ player: 'A' })]);
    t.scheduler.advance(KILLER_GRACE_MS + 10);
    expect(t.state().killer?.answers.C?.status).toBe('TIE');
    expect(t.lamps.shown['seat-3']).toBe('blink-slow');
    // The referee rules through an ordinary action request.
    expect(t.runtime.requestAction({ type: 'rule-response', player: 'C', inTime: true }, 'referee', false)).toMatchObject({ ok: true });
    expect(t.events('KILLER_SETTLED')).toEqual([expect.objectContaining({ withoutZero: ['A'] })]);
  });

  it('answers with a red 0 whose line came before the Killer\'s, judged by its landing (one wholly before the Killer is none)', () => {
    const t = rig({ total: 12, hands: { A: ['KILLER', 'R1'], B: ['R0', 'R5'], C: ['R0', 'R6'] } });
    const b0 = held(t.state(), 'B', 'R0');
    const c0 = held(t.state(), 'C', 'R0');
    const killerUs = t.clock.now + 1_000_000;
    t.clock.now = killerUs + 20_000; // every line comes 20 ms after the Killer landed (an FT232 holding them)
    // B's zero landed 2 ms after the Killer, C's 3 ms before it; both lines reach the table before the Killer's.
    t.runtime.handleSensor({ kind: 'tag-arrived', station: 'seat-2', uid: card(b0), time: at(killerUs + 2000, 500) });
    t.runtime.handleSensor({ kind: 'tag-arrived', station: 'seat-3', uid: card(c0), time: at(killerUs - 3000, 500) });
    expect(t.events('ACTION_REFUSED')).toEqual([
      expect.objectContaining({ action: 'play', code: 'NOT_YOUR_TURN' }), expect.objectContaining({ action: 'play', code: 'NOT_YOUR_TURN' }),
    ]);
    t.runtime.handleSensor({ kind: 'tag-arrived', station: 'pile', uid: card('KILLER-1'), time: at(killerUs, 500) });
    expect(t.events('KILLER_WINDOW_OPENED')).toHaveLength(1);
    expect(t.events('ZERO_IN_TIME')).toEqual([expect.objectContaining({ player: 'B', card: b0 })]);
    expect(t.state().killer?.answers.C).toEqual({ status: 'PENDING' }); // ZERO_BEFORE_KILLER: C lays it again
    expect(t.events('ACTION_REFUSED').at(-1)).toMatchObject({ action: 'respond' });
    // Sent once: a later change of state does not send C's zero again.
    t.send({ kind: 'button-pressed', station: 'seat-1', button: 'zap' }, 1);
    expect(t.events('ACTION_REFUSED')).toHaveLength(3);
  });

  it('does not take a red 0 laid long before the Killer, nor one taken off its pad, as an answer', () => {
    const t = rig({ total: 12, hands: { A: ['KILLER', 'R1'], B: ['R0', 'R5'], C: ['R0', 'R6'] } });
    t.send({ kind: 'tag-arrived', station: 'seat-2', uid: card(held(t.state(), 'B', 'R0')) });
    t.send({ kind: 'tag-arrived', station: 'seat-3', uid: card(held(t.state(), 'C', 'R0')) }, 1000);
    t.send({ kind: 'tag-left', station: 'seat-3', uid: card(held(t.state(), 'C', 'R0')) }, 100);
    t.send({ kind: 'tag-arrived', station: 'pile', uid: card('KILLER-1') }, 100);
    expect(t.events('KILLER_WINDOW_OPENED')).toHaveLength(1);
    expect(t.events('ZERO_IN_TIME')).toEqual([]);
    expect(t.state().killer?.answers).toMatchObject({ B: { status: 'PENDING' }, C: { status: 'PENDING' } });
  });

  it('closes the Killer window by its own timer when nobody answers', () => {
    const t = rig({ total: 0, hands: { A: ['KILLER', 'R1'], B: ['R5'], C: ['R6'] } });
    t.send({ kind: 'tag-arrived', station: 'pile', uid: card('KILLER-1') });
    t.scheduler.advance(3000 + KILLER_GRACE_MS - 1);
    expect(t.state().phase).toBe('KILLER');
    t.scheduler.advance(2);
    expect(t.events('KILLER_WINDOW_CLOSED')).toEqual([expect.objectContaining({ reason: 'DEADLINE' })]);
    expect(t.state().phase).not.toBe('KILLER');
    // Everyone without a zero lost a life: their lamps flash to ask for a chip off the pad, then show the game.
    const losers = t.events('LIFE_LOST').map((e) => e.player);
    expect(losers.length).toBeGreaterThan(0);
    for (const [station, player] of Object.entries(SEATS)) {
      if (losers.includes(player)) expect(t.lamps.shown[station]).toBe('error');
    }
    t.scheduler.advance(2500);
    expect(Object.values(t.lamps.shown)).not.toContain('error');
  });

  it('re-arms the deadline of a Killer window that was open when the controller stopped', () => {
    const first = rig({ total: 0, hands: { A: ['KILLER', 'R1'], B: ['R5'], C: ['R6'] } });
    first.send({ kind: 'tag-arrived', station: 'pile', uid: card('KILLER-1') });
    const open = first.state();
    expect(open.phase).toBe('KILLER');
    // A new runtime (a restart) continues the game from the log's state: no sensor event comes.
    const restarted = rig({ total: 0, hands: { A: ['R1'], B: ['R5'], C: ['R6'] } });
    restarted.runtime.start({ gameId: 'g1', config: { players: ['A', 'B', 'C'] }, seed: 1, state: open });
    restarted.scheduler.advance(5000 + KILLER_GRACE_MS);
    expect(restarted.events('KILLER_WINDOW_CLOSED')).toEqual([expect.objectContaining({ reason: 'DEADLINE' })]);
  });

  it('takes a zero on the pile only from the one player still to answer', () => {
    const t = rig({ total: 0, hands: { A: ['KILLER', 'R1'], B: ['R0', 'R5'], C: ['R0', 'R6'] } });
    const b0 = held(t.state(), 'B', 'R0');
    const c0 = held(t.state(), 'C', 'R0');
    t.send({ kind: 'tag-arrived', station: 'pile', uid: card('KILLER-1') });
    t.send({ kind: 'tag-arrived', station: 'pile', uid: card(b0) }, 100);
    expect(t.events('NOTICE')).toEqual([expect.objectContaining({ code: 'OWNER_UNKNOWN' })]);
    t.send({ kind: 'button-pressed', station: 'seat-1', button: 'zap' }, 100);
    t.send({ kind: 'tag-arrived', station: 'seat-2', uid: card(b0) }, 100);
    t.send({ kind: 'tag-arrived', station: 'pile', uid: card(c0) }, 100);
    expect(t.events('ZERO_IN_TIME').map((e) => e.player)).toEqual(['B', 'C']);
  });

  it('counts tagged chips against the lives: quiet while they are put down, a notice when one too many comes off', () => {
    const t = rig({ total: 0, hands: { A: ['R1'], B: ['R1'], C: ['R1'] }, lives: { A: 2, B: 2, C: 2 } });
    t.send({ kind: 'tag-arrived', station: 'seat-2', uid: chip(1) });
    t.send({ kind: 'tag-arrived', station: 'seat-2', uid: chip(2) });
    expect(t.events('NOTICE')).toEqual([]);
    t.send({ kind: 'tag-left', station: 'seat-2', uid: chip(2) });
    expect(t.events('NOTICE')).toEqual([expect.objectContaining({ code: 'CHIPS_MISMATCH', player: 'B', station: 'seat-2' })]);
    expect(t.state().lives.B).toBe(2);
  });

  it('counts plain chips by weight (cards on the pad taken off), and not at all when off', () => {
    const weighed = rig({ total: 0, hands: { A: ['R1'], B: ['R1'], C: ['R1'] }, lives: { A: 3, B: 3, C: 3 } },
      { chips: { countBy: 'weight', chipGrams: 10, cardGrams: 2 } });
    weighed.send({ kind: 'weight-settled', station: 'seat-1', grams: 30.4 });
    expect(weighed.events('NOTICE')).toEqual([]);
    weighed.send({ kind: 'weight-settled', station: 'seat-1', grams: 19.8 });
    expect(weighed.events('NOTICE')).toEqual([expect.objectContaining({ code: 'CHIPS_MISMATCH', player: 'A' })]);
    const off = rig({ total: 0, hands: { A: ['R1'], B: ['R1'], C: ['R1'] } }, { chips: { countBy: 'off' } });
    off.send({ kind: 'weight-settled', station: 'seat-1', grams: 5 });
    expect(off.events('NOTICE')).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------- dealt at the table (C-K.3)

/** A game just dealt at the table: three hands of three cards the engine has not seen. */
function tableDeal(): Killer21State {
  const r = killer21Engine.setup({ players: ['A', 'B', 'C'], dealing: 'TABLE', handSize: 3 }, 1);
  if (!r.ok) throw new Error(r.message);
  return r.state;
}

/** Blitz at the table: A's LIFE card on the pile ends the game in a tie-break on unseen hands (A and B at 4 lives). */
function blitzTie() {
  const built = killer21Engine.fromScenario({
    players: ['A', 'B', 'C'], config: { dealing: 'TABLE', variant: 'BLITZ' }, lives: { C: 1 }, hands: { A: ['LIFE', 'R5'] },
    unseen: { A: 1, B: 2, C: 1 },
  });
  if (!built.ok) throw new Error(built.message);
  const t = rigOn(built.state);
  t.send({ kind: 'tag-arrived', station: 'pile', uid: card('LIFE-1') });
  t.scheduler.advance(2500); // past the lamps' flash for the lives lost
  return t;
}

/** Every card id that appears in `text` (a published state or event), quoted or inside a sentence. */
const CARD_ID = new RegExp(`\\b(${CARD_KINDS.join('|')})-\\d+\\b`, 'g');
const cardIds = (text: string): string[] => text.match(CARD_ID) ?? [];

describe('Killer-21 dealt at the table: registering the hands', () => {
  it('registers a hand laid card by card on its pad exactly when the count is complete; chips are not cards', () => {
    const t = rigOn(tableDeal());
    expect(t.state().phase).toBe('DEALING');
    // Every seat still has to lay its hand down: the lamps blink slowly.
    expect(t.lamps.shown).toMatchObject({ 'seat-1': 'blink-slow', 'seat-2': 'blink-slow', 'seat-3': 'blink-slow' });
    t.send({ kind: 'tag-arrived', station: 'seat-2', uid: chip(1) });
    t.send({ kind: 'tag-arrived', station: 'seat-2', uid: card('R1-1') });
    t.send({ kind: 'tag-arrived', station: 'seat-2', uid: chip(2) });
    t.send({ kind: 'tag-arrived', station: 'seat-2', uid: card('R2-1') });
    // Two cards and two chips lie there: four tags, but not yet the three cards B was dealt.
    expect(t.events('HAND_REGISTERED')).toEqual([]);
    expect(t.log.rows.filter((r) => r.kind === 'action' || r.kind === 'rejected')).toEqual([]);
    t.send({ kind: 'tag-arrived', station: 'seat-2', uid: card('KILLER-1') });
    expect(t.events('HAND_REGISTERED')).toEqual([expect.objectContaining({ player: 'B', count: 3 })]);
    expect(t.state().hands.B).toEqual(['R1-1', 'R2-1', 'KILLER-1']);
    expect(t.state().phase).toBe('DEALING');
    expect(t.lamps.shown).toMatchObject({ 'seat-1': 'blink-slow', 'seat-2': 'off', 'seat-3': 'blink-slow' });
    // Nothing more to register for B: a fourth card and the button change nothing.
    t.send({ kind: 'tag-arrived', station: 'seat-2', uid: card('R3-1') });
    t.send({ kind: 'button-pressed', station: 'seat-2', button: 'zap' });
    expect(t.events('HAND_REGISTERED')).toHaveLength(1);
    expect(t.events('ACTION_REFUSED')).toEqual([]);
    // Published: counts, never the cards.
    const published = JSON.stringify([t.publisher.published, t.publisher.states]);
    expect(cardIds(published)).toEqual([]);
    expect(t.publisher.last()).toMatchObject({ dealing: 'TABLE', registering: ['A', 'C'] });
  });

  it('sends what lies on the pad when the ZAP button is pressed: a wrong count is refused with WRONG_COUNT and changes nothing', () => {
    const t = rigOn(tableDeal());
    t.send({ kind: 'tag-arrived', station: 'seat-1', uid: card('R4-1') });
    t.send({ kind: 'tag-arrived', station: 'seat-1', uid: card('R5-1') });
    const before = t.state();
    t.send({ kind: 'button-pressed', station: 'seat-1', button: 'zap' });
    // The refusal is published as the engine gave it: the count is public (unseenCount), the player learns why.
    expect(t.events('ACTION_REFUSED')).toEqual([
      expect.objectContaining({ action: 'register-hand', code: 'WRONG_COUNT', message: expect.stringContaining('3 unseen cards, 2 given') as unknown }),
    ]);
    expect(t.state()).toBe(before);
    expect(t.lamps.shown['seat-1']).toBe('blink-slow');
    // The third card completes it.
    t.send({ kind: 'tag-arrived', station: 'seat-1', uid: card('R6-1') });
    expect(t.events('HAND_REGISTERED')).toEqual([expect.objectContaining({ player: 'A', count: 3 })]);
  });

  // BAD_HAND's message names the clashing cards: it leaves as HIDDEN_REASON (public-refusal.ts), or a card of B's
  // registered hand found on A's pad would leave the process by its id (design principle 2).
  it('refuses a hand holding a card of another registered hand without publishing its id', () => {
    const t = rigOn(tableDeal());
    for (const c of ['R1-1', 'R2-1', 'R3-1']) t.send({ kind: 'tag-arrived', station: 'seat-2', uid: card(c) });
    for (const c of ['R1-1', 'R4-1', 'R5-1']) t.send({ kind: 'tag-arrived', station: 'seat-1', uid: card(c) });
    expect(t.events('ACTION_REFUSED')).toEqual([expect.objectContaining({ action: 'register-hand', code: 'HIDDEN_REASON' })]);
    expect(cardIds(JSON.stringify(t.publisher.published))).toEqual([]);
  });

  it('answers a card on the pile with a REGISTERING notice and no action', () => {
    const t = rigOn(tableDeal());
    const before = t.state();
    t.send({ kind: 'tag-arrived', station: 'pile', uid: card('R3-1') });
    expect(t.events('NOTICE')).toEqual([expect.objectContaining({ code: 'REGISTERING', station: 'pile' })]);
    expect(t.events('ACTION_REFUSED')).toEqual([]);
    expect(t.state()).toBe(before);
    expect(t.log.rows.filter((r) => r.kind === 'action' || r.kind === 'rejected')).toEqual([]);
  });

  it('starts play when the referee skips, and then takes unseen cards from the pile by the counts', () => {
    const t = rigOn(tableDeal());
    for (const c of ['R1-1', 'R2-1', 'R3-1']) t.send({ kind: 'tag-arrived', station: 'seat-2', uid: card(c) });
    expect(t.runtime.requestAction({ type: 'skip-registration' }, 'referee', false)).toMatchObject({ ok: true });
    expect(t.events('REGISTRATION_SKIPPED')).toEqual([expect.objectContaining({ players: ['A', 'C'] })]);
    expect(t.state().phase).toBe('TURN');
    const first = t.state().turn ?? '';
    const station = Object.entries(SEATS).find(([, p]) => p === first)?.[0] ?? '';
    expect(t.lamps.shown[station]).toBe('on');
    // A card nobody has seen, from the player on turn, whose hand is unseen: accepted.
    t.send({ kind: 'tag-arrived', station: 'pile', uid: card('R4-1') });
    expect(t.events('CARD_PLAYED')).toEqual([expect.objectContaining({ player: first, card: 'R4-1' })]);
  });
});

describe('Killer-21 dealt at the table: the tie-break on unseen hands', () => {
  it('waits for the tied players\' unseen cards, with their lamps blinking slowly', () => {
    const t = blitzTie();
    expect(t.state().phase).toBe('SCORING');
    expect([cardsToRegister(t.state(), 'A'), cardsToRegister(t.state(), 'B'), cardsToRegister(t.state(), 'C')]).toEqual([1, 2, 0]);
    expect(t.lamps.shown).toMatchObject({ 'seat-1': 'blink-slow', 'seat-2': 'blink-slow', 'seat-3': 'off' });
    expect(t.publisher.last()).toMatchObject({ phase: 'SCORING', scoring: { candidates: ['A', 'B'], pending: { A: 1, B: 2 } } });
  });

  it('registers the unseen part of a whole hand laid on the pad (the known cards are left out), then decides', () => {
    const t = blitzTie();
    const known = held(t.state(), 'A', 'R5');
    // A lays the whole hand down: the red 5 the engine knows, and the one card it has not seen.
    t.send({ kind: 'tag-arrived', station: 'seat-1', uid: card(known) });
    expect(t.events('HAND_REGISTERED')).toEqual([]);
    t.send({ kind: 'tag-arrived', station: 'seat-1', uid: card('R2-1') });
    expect(t.events('HAND_REGISTERED')).toEqual([expect.objectContaining({ player: 'A', count: 1 })]);
    expect(t.lamps.shown).toMatchObject({ 'seat-1': 'off', 'seat-2': 'blink-slow' });
    // A card on the pile now is no registration either.
    t.send({ kind: 'tag-arrived', station: 'pile', uid: card('R3-1') });
    expect(t.events('NOTICE')).toEqual([expect.objectContaining({ code: 'REGISTERING', station: 'pile' })]);
    // B's two cards: 3 + 3 red points against A's 5 + 2.
    t.send({ kind: 'tag-arrived', station: 'seat-2', uid: card('R3-1') });
    t.send({ kind: 'tag-arrived', station: 'seat-2', uid: card('R3-2') });
    expect(t.events('GAME_OVER')).toEqual([expect.objectContaining({ winners: ['B'], reason: 'BLITZ', points: { A: 7, B: 6 } })]);
    expect(t.lamps.shown).toMatchObject({ 'seat-1': 'off', 'seat-2': 'pulse', 'seat-3': 'off' });
  });

  it('leaves a referee to end it without the hands: the tied players share the win', () => {
    const t = blitzTie();
    expect(t.runtime.requestAction({ type: 'skip-registration' }, 'referee', false)).toMatchObject({ ok: true });
    expect(t.events('GAME_OVER')).toEqual([expect.objectContaining({ winners: ['A', 'B'] })]);
    expect(t.lamps.shown).toMatchObject({ 'seat-1': 'pulse', 'seat-2': 'pulse', 'seat-3': 'off' });
  });
});

describe('Killer-21 bots at a table-dealt game', () => {
  /** A bot's hands, recording what it does; its chips already lie on its pad. */
  function botContext(log: string[], state: Killer21State, bots: readonly string[]): BotContext {
    return {
      place: (station, item) => log.push(`place ${station} ${itemKey(item)}`),
      lift: (station, item) => log.push(`lift ${station} ${itemKey(item)}`),
      tap: (station, item) => log.push(`tap ${station} ${itemKey(item)}`),
      press: (station) => log.push(`press ${station}`),
      act: (a) => log.push(`act ${JSON.stringify(a)}`),
      padItem: () => undefined,
      itemsOn: (station) => {
        const player = SEATS[station as keyof typeof SEATS];
        return Array.from({ length: state.lives[player] ?? 0 }, (_, i): Item => ({ kind: 'chip', chip: i + 1 }));
      },
      seatIndex: (player) => state.players.indexOf(player),
      pileStation: 'pile',
      tieWaitedMs: 0,
      isOnAnyPad: () => false,
      allPadsClear: () => true,
      isBot: (player) => bots.includes(player),
      chance: () => true,
      pick: (items) => items[0],
    };
  }
  const seat = (player: string) => ({ player, station: Object.entries(SEATS).find(([, p]) => p === player)?.[0] ?? '' });
  const legal = (s: Killer21State) => killer21Engine.legalActions(s) as unknown as Readonly<Record<string, unknown>>[];

  it('the first bot skips the registration (it has no cards to lay down) once no person is left to register', () => {
    const s = tableDeal();
    const log: string[] = [];
    // A is a person still to lay their hand down: no bot skips it for them.
    for (const p of ['C', 'B']) k21BotStep(s, seat(p), botContext(log, s, ['B', 'C']), legal(s));
    expect(log).toEqual([]);
    // A has registered: B, the first bot, plays on with the bots' hands unseen; C waits.
    const applied = killer21Engine.apply(s, { type: 'register-hand', player: 'A', cards: ['R1-1', 'R2-1', 'R3-1'] });
    if (!applied.ok) throw new Error(applied.message);
    const registered = applied.state;
    for (const p of ['C', 'B']) k21BotStep(registered, seat(p), botContext(log, registered, ['B', 'C']), legal(registered));
    expect(log).toEqual(['act {"type":"skip-registration"}']);
  });

  it('the first bot ends a tie-break without the hands', () => {
    const s = blitzTie().state();
    const log: string[] = [];
    k21BotStep(s, seat('B'), botContext(log, s, ['A', 'B', 'C']), legal(s));
    expect(log).toEqual([]);
    k21BotStep(s, seat('A'), botContext(log, s, ['A', 'B', 'C']), legal(s));
    expect(log).toEqual(['act {"type":"skip-registration"}']);
  });
});

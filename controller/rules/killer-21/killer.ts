/**
 * The Killer (K21-30..37). Its play opens a window: everyone who must answer (K21-31) has `killerWindowMs`
 * from the Killer's landing to put down a red 0 (K21-32). The engine has no clock: answers arrive as actions
 * with their landing time and its honest uncertainty, and each is judged by its own interval, never by arrival
 * order, with the time kernel's comparisons (controller/kernel/interval.ts), the buzzer's too (K21-33): a zero
 * whose interval lies wholly before the Killer's landing is no answer to it (refused, `ZERO_BEFORE_KILLER`: a
 * zero laid down before the Killer, whose line came after it); one that overlaps the Killer's landing is a tie
 * for the referee (`ZERO_TIED`, boundary `KILLER`); against the deadline — the Killer's landing interval plus
 * `killerWindowMs` — inside → in time; wholly after → late (back to the hand, K21-37); straddling → a tie that
 * a referee rules on (K21-34). The window ends at its deadline (`close-window` from
 * the runtime's timer) or as soon as everyone has answered; then those without a zero in time lose a life,
 * the total resets and play continues after the Killer's player (K21-36). With cards dealt at the table, any
 * unseen red 0 answers for a player who holds unseen cards; a late or tied one goes back to a hand the engine
 * then knows it is in (K21-96).
 */
import { againstDeadline, around, compareIntervals } from '../../kernel/interval.ts';
import { inDeck, isRedZero } from './cards.ts';
import type { Killer21Event, WindowEnd } from './events.ts';
import { windowRejection } from './guards.ts';
import { settle, type Loss } from './moment.ts';
import { refuse } from './rejections.ts';
import {
  activePlayers, draft, handCount, handOf, withEntry, type Answer, type Draft, type HiddenCards, type K21Outcome,
  type Killer21State, type KillerWindow,
} from './state.ts';
import { mayHoldUnseen, seeFromHand } from './unseen.ts';
import { applied } from '../common/outcome.ts';
import type { CloseWindowAction, RespondAction, RuleResponseAction } from './actions.ts';

function withAnswer(w: KillerWindow, player: string, answer: Answer): KillerWindow {
  return { ...w, answers: { ...w.answers, [player]: answer } };
}

function removeCard(hand: readonly string[], card: string): string[] {
  const i = hand.indexOf(card);
  return i < 0 ? hand.slice() : [...hand.slice(0, i), ...hand.slice(i + 1)];
}

/** A zero the engine had not seen becomes a known card of `player`'s hand (it stays there: late or tied). */
function reveal(d: Draft, player: string, card: string): void {
  if (handOf(d, player).includes(card)) return;
  d.hidden = seeFromHand(d.hidden as HiddenCards, player, card);
  d.hands = withEntry(d.hands, player, [...handOf(d, player), card]);
}

/** A zero moves from the hand to the pile, and the answer is recorded as in time. */
function zeroDown(d: Draft, w: KillerWindow, player: string, card: string, at?: number, u?: number): Draft {
  const timing = { ...(at === undefined ? {} : { at }), ...(u === undefined ? {} : { uncertaintyMs: u }) };
  if (handOf(d, player).includes(card)) d.hands = withEntry(d.hands, player, removeCard(handOf(d, player), card));
  else d.hidden = seeFromHand(d.hidden as HiddenCards, player, card);
  d.pile = [...d.pile, { card, by: player, kind: 'ZERO', ...(at === undefined ? {} : { at }) }];
  d.killer = withAnswer(w, player, { status: 'ZERO', card, ...timing });
  return d;
}

/** K21-36: the window is over; take the lives, reset the total, go on after the Killer's player. */
function settleWindow(d: Draft, w: KillerWindow, events: Killer21Event[]): Draft {
  const withZero = w.required.filter((p) => w.answers[p]?.status === 'ZERO');
  const withoutZero = w.required.filter((p) => w.answers[p]?.status !== 'ZERO');
  events.push({ type: 'KILLER_SETTLED', withoutZero, withZero });
  events.push({ type: 'TOTAL_RESET', reason: 'KILLER' });
  const losses: Loss[] = withoutZero.map((p) => ({ player: p, reason: 'KILLER' }));
  // K21-52: the Killer's player with an empty hand, and anyone whose zero was their last card, went out.
  const shedders = d.players.filter((p) => (p === w.by || withZero.includes(p)) && (d.lives[p] ?? 0) > 0
    && handCount(d, p) === 0);
  d.killer = null;
  d.total = 0;
  return settle(d, losses, shedders, { kind: 'NEXT', from: w.by, steps: 1 }, events);
}

/** Closes the window once nobody is left to answer, and settles it once no tie waits for a ruling. */
function progress(d: Draft, events: Killer21Event[]): Draft {
  const w = d.killer;
  if (w === null) return d;
  const statuses = w.required.map((p) => w.answers[p]?.status);
  if (statuses.includes('PENDING')) return d;
  if (!w.closed) {
    events.push({ type: 'KILLER_WINDOW_CLOSED', reason: 'ALL_ANSWERED', missing: [] });
    d.killer = { ...w, closed: true };
  }
  if (statuses.includes('TIE')) return d;
  return settleWindow(d, w, events);
}

/**
 * K21-30, K21-31: `player` has just played the Killer (already on the pile). `at` is when it landed; without
 * it the window is untimed and closes only when everyone has answered or by `close-window`. `uncertaintyMs`: the
 * half width of the Killer's landing interval, which the zeros are judged against (K21-33).
 */
export function openWindow(
  d: Draft, player: string, at: number | undefined, events: Killer21Event[], uncertaintyMs?: number,
): Draft {
  const hits = d.config.killerHits;
  // Everyone still in with cards in hand (K21-Q-8, K21-Q-11: a player who went out with the Killer is spared).
  const required = activePlayers(d).filter((p) => (hits === 'EVERYONE' || p !== player) && handCount(d, p) > 0);
  const deadline = at === undefined ? null : at + d.config.killerWindowMs;
  const answers: Record<string, Answer> = {};
  for (const p of required) answers[p] = { status: 'PENDING' };
  const killer: KillerWindow = {
    by: player, at: at ?? null, ...(at === undefined || uncertaintyMs === undefined ? {} : { uncertaintyMs }),
    deadline, required, answers, closed: false,
  };
  events.push({
    type: 'KILLER_WINDOW_OPENED', by: player, at: at ?? null, deadline, windowMs: d.config.killerWindowMs, hits, required,
  });
  d.phase = 'KILLER';
  d.turn = player;
  d.killer = killer;
  return progress(d, events);
}

/** `respond`: a red 0 put down in answer to the Killer (K21-32..34, K21-37). */
export function respondAction(state: Killer21State, action: RespondAction): K21Outcome {
  const bad = windowRejection(state, action.player);
  if (bad !== null) return bad;
  const w = state.killer as KillerWindow;
  if (w.closed) return refuse('WINDOW_CLOSED', 'the Killer window has closed');
  const answer = w.answers[action.player];
  if (answer === undefined) return refuse('NOT_REQUIRED', `${action.player} does not have to answer this Killer`);
  if (answer.status !== 'PENDING') return refuse('ALREADY_ANSWERED', `${action.player} has already answered`);
  if (!inDeck(state.config.deck, action.card)) return refuse('UNKNOWN_CARD', `${action.card} is not a card of this deck`);
  // Not a red 0, no landing time, landed before the Killer: decided by the card, the answer's own times and the
  // public window alone, so checked before the hand (their codes are published as they are).
  if (!isRedZero(action.card)) return refuse('NOT_A_ZERO', `${action.card} is not a red 0`);
  if (w.deadline !== null && action.at === undefined) return refuse('NEEDS_TIME', 'the window is timed: say when the zero landed');
  const events: Killer21Event[] = [];
  const at = action.at;
  const u = action.uncertaintyMs ?? 0;
  // Against the Killer's landing: wholly before it, no answer; overlapping it, the times cannot say (a tie).
  const vsKiller = w.at === null || at === undefined ? 'after' : compareIntervals(around(at, u), around(w.at, w.uncertaintyMs ?? 0)).order;
  if (vsKiller === 'before') {
    return refuse('ZERO_BEFORE_KILLER', `${action.player}'s ${action.card} landed at ${at} ± ${u} ms, before the Killer `
      + `(${w.at} ± ${w.uncertaintyMs ?? 0} ms): it is no answer to it; put it down again`);
  }
  const held = handOf(state, action.player).includes(action.card) || mayHoldUnseen(state, action.player, action.card);
  if (!held) return refuse('CARD_NOT_IN_HAND', `${action.player} does not hold ${action.card}`);
  const s = draft(state);
  // The deadline is known as well as the Killer's landing: `killerWindowMs` after it, within its interval.
  const deadline = w.deadline;
  const judged = deadline === null || at === undefined ? 'within'
    : vsKiller === 'tie' ? 'straddles' : againstDeadline(around(at, u), around(deadline, w.uncertaintyMs ?? 0));
  if (judged === 'within' || deadline === null || at === undefined) {
    zeroDown(s, w, action.player, action.card, at, action.uncertaintyMs);
    events.push({
      type: 'ZERO_IN_TIME', player: action.player, card: action.card,
      ...(at === undefined ? {} : { at }), ...(action.uncertaintyMs === undefined ? {} : { uncertaintyMs: action.uncertaintyMs }),
    });
  } else if (judged === 'after') {
    reveal(s, action.player, action.card);
    s.killer = withAnswer(w, action.player, { status: 'LATE', card: action.card, at, uncertaintyMs: u });
    events.push({ type: 'ZERO_LATE', player: action.player, at, uncertaintyMs: u, lateByMs: at - deadline });
  } else {
    reveal(s, action.player, action.card);
    s.killer = withAnswer(w, action.player, { status: 'TIE', card: action.card, at, uncertaintyMs: u });
    events.push({ type: 'ZERO_TIED', player: action.player, at, uncertaintyMs: u, deadline, boundary: vsKiller === 'tie' ? 'KILLER' : 'DEADLINE' });
  }
  return applied(progress(s, events), events);
}

/** `cannot-play` in a Killer window: the ZAP button says "I have no red 0" (K21-35). */
export function concedeAction(state: Killer21State, player: string): K21Outcome {
  const bad = windowRejection(state, player);
  if (bad !== null) return bad;
  const w = state.killer as KillerWindow;
  if (w.closed) return refuse('WINDOW_CLOSED', 'the Killer window has closed');
  const answer = w.answers[player];
  if (answer === undefined) return refuse('NOT_REQUIRED', `${player} does not have to answer this Killer`);
  if (answer.status !== 'PENDING') return refuse('ALREADY_ANSWERED', `${player} has already answered`);
  const events: Killer21Event[] = [{ type: 'ANSWER_CONCEDED', player }];
  const d = draft(state);
  d.killer = withAnswer(w, player, { status: 'CONCEDED' });
  return applied(progress(d, events), events);
}

/** `close-window`: the deadline has passed (with `at` ≥ the deadline) or a person closes it (no `at`). */
export function closeWindowAction(state: Killer21State, action: CloseWindowAction): K21Outcome {
  const bad = windowRejection(state, null);
  if (bad !== null) return bad;
  const w = state.killer as KillerWindow;
  if (w.closed) return refuse('WINDOW_CLOSED', 'the Killer window has already closed');
  if (w.deadline !== null && action.at !== undefined && action.at < w.deadline) {
    return refuse('WINDOW_STILL_OPEN', `the deadline is ${w.deadline}, not yet reached at ${action.at}`);
  }
  const reason: WindowEnd = action.at === undefined || w.deadline === null ? 'REFEREE' : 'DEADLINE';
  const missing = w.required.filter((p) => w.answers[p]?.status === 'PENDING');
  const answers: Record<string, Answer> = { ...w.answers };
  for (const p of missing) answers[p] = { status: 'MISSED' };
  const events: Killer21Event[] = [{ type: 'KILLER_WINDOW_CLOSED', reason, missing }];
  const d = draft(state);
  d.killer = { ...w, answers, closed: true };
  return applied(progress(d, events), events);
}

/** `rule-response`: a referee says whether a tied zero counts (K21-34). */
export function ruleResponseAction(state: Killer21State, action: RuleResponseAction): K21Outcome {
  const bad = windowRejection(state, action.player);
  if (bad !== null) return bad;
  const w = state.killer as KillerWindow;
  const answer = w.answers[action.player];
  if (answer?.status !== 'TIE' || answer.card === undefined) return refuse('NOT_TIED', `${action.player} has no tied zero`);
  const events: Killer21Event[] = [{ type: 'RESPONSE_RULED', player: action.player, inTime: action.inTime }];
  const d = draft(state);
  if (action.inTime) zeroDown(d, w, action.player, answer.card, answer.at, answer.uncertaintyMs);
  else d.killer = withAnswer(w, action.player, { ...answer, status: 'LATE' });
  return applied(progress(d, events), events);
}

/**
 * Every action that would be accepted now (bots, the dashboard's move list, tests). Actions whose time is a
 * free choice come without `at`; `close-window` of a timed window comes with `at` = the deadline, the
 * earliest time it is accepted. Kept cheap: the simulator calls this before every action. With cards dealt at
 * the table every unseen card a player may hold is listed, and `register-hand` is not (registrationActions).
 */
import type { Killer21Action, PlayAction } from './actions.ts';
import { isRedZero } from './cards.ts';
import { isPlayable } from './playable.ts';
import { handOf, hiddenCards, hiddenIn, type Killer21State, type KillerWindow } from './state.ts';
import { surelyCanPlay } from './unseen.ts';

/** The cards `player` may hold: the known ones, and with cards dealt at the table every unseen one (K21-93). */
function mayHold(state: Killer21State, player: string): readonly string[] {
  const known = handOf(state, player);
  const h = hiddenCards(state);
  if (h === null || hiddenIn(state, player) === 0) return known;
  return [...known, ...h.cards];
}

// Listed actions are plain values that nobody mutates: build each `play` once per player and card (a memo of
// a pure function), so that listing the moves of a turn allocates only the list.
const PLAYS = new Map<string, Map<string, PlayAction>>();

function playOf(player: string, card: string): PlayAction {
  let mine = PLAYS.get(player);
  if (mine === undefined) {
    if (PLAYS.size >= 64) PLAYS.clear(); // bounded: a long-running controller sees many tables and names
    mine = new Map();
    PLAYS.set(player, mine);
  }
  let action = mine.get(card);
  if (action === undefined) {
    action = Object.freeze({ type: 'play', player, card });
    mine.set(card, action);
  }
  return action;
}

function turnActions(state: Killer21State, player: string, out: Killer21Action[]): void {
  for (const card of mayHold(state, player)) if (isPlayable(card, state.total)) out.push(playOf(player, card));
  if (!surelyCanPlay(state, player) || state.config.allowVoluntaryBust) out.push({ type: 'cannot-play', player });
}

function windowActions(state: Killer21State, w: KillerWindow, out: Killer21Action[]): void {
  for (const p of w.required) {
    const answer = w.answers[p];
    if (answer?.status === 'TIE') {
      out.push({ type: 'rule-response', player: p, inTime: true }, { type: 'rule-response', player: p, inTime: false });
    }
    if (w.closed || answer?.status !== 'PENDING') continue;
    for (const card of mayHold(state, p)) if (isRedZero(card)) out.push({ type: 'respond', player: p, card });
    out.push({ type: 'cannot-play', player: p });
  }
  if (!w.closed) out.push(w.deadline === null ? { type: 'close-window' } : { type: 'close-window', at: w.deadline });
}

/**
 * DEALING and SCORING: `register-hand` is accepted for any cards that could be the hand, which only the physical
 * cards say; the list offers the one action that needs none (the table bot registers from its pad).
 */
function registrationActions(out: Killer21Action[]): void {
  out.push({ type: 'skip-registration' });
}

/** The actions `apply` would accept now. Empty only when the game is over. */
export function legalActions(state: Killer21State): Killer21Action[] {
  const out: Killer21Action[] = [];
  switch (state.phase) {
    case 'GAME_OVER':
      return out;
    case 'ROUND_OVER':
      out.push({ type: 'next-round' });
      return out;
    case 'KILLER':
      if (state.killer !== null) windowActions(state, state.killer, out);
      return out;
    case 'TURN':
      if (state.turn !== null) turnActions(state, state.turn, out);
      return out;
    case 'DEALING':
    case 'SCORING':
      registrationActions(out);
      return out;
  }
}

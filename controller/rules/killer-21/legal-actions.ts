/**
 * Every action that would be accepted now (bots, the dashboard's move list, tests). Actions whose time is a
 * free choice come without `at`; `close-window` of a timed window comes with `at` = the deadline, the
 * earliest time it is accepted. Kept cheap: the simulator calls this before every action.
 */
import type { Killer21Action, PlayAction } from './actions.ts';
import { isRedZero } from './cards.ts';
import { isPlayable } from './playable.ts';
import { handOf, type Killer21State, type KillerWindow } from './state.ts';

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
  let any = false;
  for (const card of handOf(state, player)) {
    if (isPlayable(card, state.total)) {
      out.push(playOf(player, card));
      any = true;
    }
  }
  if (!any || state.config.allowVoluntaryBust) out.push({ type: 'cannot-play', player });
}

function windowActions(state: Killer21State, w: KillerWindow, out: Killer21Action[]): void {
  for (const p of w.required) {
    const answer = w.answers[p];
    if (answer?.status === 'TIE') {
      out.push({ type: 'rule-response', player: p, inTime: true }, { type: 'rule-response', player: p, inTime: false });
    }
    if (w.closed || answer?.status !== 'PENDING') continue;
    for (const card of handOf(state, p)) if (isRedZero(card)) out.push({ type: 'respond', player: p, card });
    out.push({ type: 'cannot-play', player: p });
  }
  if (!w.closed) out.push(w.deadline === null ? { type: 'close-window' } : { type: 'close-window', at: w.deadline });
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
  }
}

/**
 * Every action that would be accepted now, for every player (bots, the dashboard's move list, tests).
 * Plays are listed without `at`. `plays` batches are not listed (any combination of listed plays is one).
 * Kept cheap: the simulator calls this before every action.
 */
import type { ZipZapAction } from './actions.ts';
import { cardInfo, followersOf } from './cards.ts';
import { isStuck } from './follows.ts';
import { oracleActive } from './pauses.ts';
import { allHandsKnown, holdsZap, topOf, type ZipZapState } from './state.ts';
import { zapRejection } from './zap.ts';

function isNumber(card: string): boolean {
  return cardInfo(card)?.kind === 'NUMBER';
}

/** The number cards `player` may put down with no constraint (a pause they control, an open start). */
function anyNumberCard(state: ZipZapState, player: string, out: ZipZapAction[]): void {
  if (state.handKnown[player] === true) {
    for (const card of state.hands[player] ?? []) if (isNumber(card)) out.push({ type: 'play', player, card });
    return;
  }
  if ((state.handCounts[player] ?? 0) - (holdsZap(state, player) ? 1 : 0) <= 0) return;
  for (const card of state.unseen) if (isNumber(card)) out.push({ type: 'play', player, card });
}

function followPlays(state: ZipZapState, topCard: string, out: ZipZapAction[]): void {
  const followers = followersOf(topCard);
  if (followers.length === 0) return;
  for (const player of state.players) {
    if (state.handKnown[player] === true) {
      for (const card of state.hands[player] ?? []) if (followers.includes(card)) out.push({ type: 'play', player, card });
    } else if ((state.handCounts[player] ?? 0) - (holdsZap(state, player) ? 1 : 0) > 0) {
      for (const card of followers) if (state.unseen.includes(card)) out.push({ type: 'play', player, card });
    }
  }
}

function zapIfLegal(state: ZipZapState, player: string | null | undefined, out: ZipZapAction[]): void {
  if (player !== null && player !== undefined && zapRejection(state, player) === null) out.push({ type: 'zap', player });
}

function raceActions(state: ZipZapState, out: ZipZapAction[]): void {
  const top = topOf(state);
  if (top === undefined) return;
  followPlays(state, top.card, out);
  zapIfLegal(state, top.by, out);
  if (top.by === null) {
    // TABLE dealing with unknown hands: the humans may judge the flipped card blocked (ZIP-11, ZIP-Q-2).
    if (state.config.dealing === 'TABLE' && !allHandsKnown(state)) {
      if (state.reserveCount > 0) flips(state, out);
      else out.push({ type: 'declare-stuck' });
    }
    return;
  }
  if (oracleActive(state)) {
    if (isStuck(state)) out.push({ type: 'announce-stuck' });
  } else {
    out.push({ type: 'declare-stuck' });
  }
}

function flips(state: ZipZapState, out: ZipZapAction[]): void {
  if (state.config.dealing === 'ENGINE') {
    out.push({ type: 'flip' });
    return;
  }
  const candidates = state.reserve.length > 0 ? state.reserve : state.unseen.filter(isNumber);
  for (const card of candidates) out.push({ type: 'flip', card });
}

/** One acceptable `score-hand` per pending player: some unseen cards of the right count (and the ZAP if held). */
function scoreExamples(state: ZipZapState, pending: readonly string[], out: ZipZapAction[]): void {
  for (const player of pending) {
    const count = state.handCounts[player] ?? 0;
    const zap = holdsZap(state, player) ? [state.zapOf[player] as string] : [];
    const numbers = state.unseen.filter(isNumber).slice(0, count - zap.length);
    out.push({ type: 'score-hand', player, cards: [...numbers, ...zap] });
  }
}

/** The actions `apply` would accept now. Empty only when the game is over. */
export function legalActions(state: ZipZapState): ZipZapAction[] {
  const out: ZipZapAction[] = [];
  const tie = state.tie;
  if (tie !== null) {
    for (const c of tie.contenders) out.push({ type: 'resolve-tie', first: c.player });
    return out;
  }
  const mode = state.mode;
  switch (mode.kind) {
    case 'GAME_OVER':
      return out;
    case 'DEALING':
      out.push({ type: 'skip-registration' });
      return out;
    case 'START':
      flips(state, out);
      return out;
    case 'ROUND_OVER':
      if (mode.pending.length > 0) scoreExamples(state, mode.pending, out);
      else out.push({ type: 'next-round' });
      return out;
    case 'PAUSED':
      anyNumberCard(state, mode.controller, out);
      zapIfLegal(state, mode.controller, out);
      return out;
    case 'OPEN_START':
      for (const p of state.players) anyNumberCard(state, p, out);
      return out;
    case 'RACE':
      raceActions(state, out);
      return out;
  }
}

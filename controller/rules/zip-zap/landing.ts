/**
 * One card landing on the pile: whether it may (ZIP-23 in the race, ZIP-33/35 in a pause, ZIP-41 for a
 * ZAP, ZIP-Q-2 after an open start) and what it changes. Ordering, batches and ties are in `plays.ts`.
 */
import { cardInfo } from './cards.ts';
import type { ZipZapEvent } from './events.ts';
import { followRejection } from './follows.ts';
import { afterLanding } from './pauses.ts';
import { refuse, type ZipRejection } from './rejections.ts';
import { holdsZap, topOf, withEntry, type PlayKind, type PlayRecord, type PlaySpec, type ZipZapState } from './state.ts';
import { zapRejection } from './zap.ts';

/** A play that passed every check: the card that lands and how. */
export interface Landing {
  readonly card: string;
  readonly kind: PlayKind;
}

/** Whether cards may land at all in the current mode. */
export function phaseRejection(state: ZipZapState): ZipRejection | null {
  switch (state.mode.kind) {
    case 'GAME_OVER':
      return refuse('GAME_OVER', 'the game has ended');
    case 'ROUND_OVER':
      return refuse('ROUND_OVER', `round ${state.round} has ended; send next-round (ZIP-50)`);
    case 'DEALING':
      return refuse('WRONG_PHASE', 'the hands are being dealt; register them or skip registration first');
    case 'START':
      return refuse('WRONG_PHASE', 'the start card has not been flipped yet (ZIP-10)');
    case 'RACE':
    case 'PAUSED':
    case 'OPEN_START':
      return null;
  }
}

/** Whether the player and card ids exist in this game. */
export function identityRejection(state: ZipZapState, spec: PlaySpec): ZipRejection | null {
  if (!state.players.includes(spec.player)) return refuse('NOT_A_PLAYER', `${spec.player} is not at this table`);
  if (spec.card === undefined) return null;
  const info = cardInfo(spec.card);
  if (info === undefined || state.outOfPlay.includes(spec.card)) return refuse('UNKNOWN_CARD', `${spec.card} is not a card in play`);
  return null;
}

function holdsCard(state: ZipZapState, player: string, card: string): boolean {
  if (state.handKnown[player] === true) return (state.hands[player] ?? []).includes(card);
  // Unknown hand (TABLE without registration): any card nobody has seen, if the player has a number card left.
  const numberCards = (state.handCounts[player] ?? 0) - (holdsZap(state, player) ? 1 : 0);
  return numberCards > 0 && state.unseen.includes(card);
}

/** Checks a play against the current state: the landing it makes, or why it is refused. */
export function validatePlay(state: ZipZapState, spec: PlaySpec): Landing | ZipRejection {
  const early = phaseRejection(state) ?? identityRejection(state, spec);
  if (early !== null) return early;
  const { player, card } = spec;
  const zap = state.zapOf[player] as string;
  if (spec.zap === true || (card !== undefined && cardInfo(card)?.kind === 'ZAP')) {
    if (card !== undefined && card !== zap) return refuse('CARD_NOT_IN_HAND', `${card} is not ${player}'s ZAP (${zap})`);
    return zapRejection(state, player) ?? { card: zap, kind: 'ZAP' };
  }
  if (card === undefined) return refuse('BAD_ACTION', 'a play needs a card or zap: true');
  const mode = state.mode;
  // In a pause the controller check comes first: that is the rule the table is enforcing (ZIP-35).
  if (mode.kind === 'PAUSED' && mode.controller !== player) {
    return refuse('NOT_CONTROLLER', `play is paused (${mode.cause}); only ${mode.controller} may play (ZIP-33)`);
  }
  // In the race, whether the card follows the top card is decided by the card and the public pile alone, so it is
  // checked before the hand: a card that cannot follow is refused `DOES_NOT_FOLLOW` (public) whether or not the
  // hand holds it, and the refusal tells nothing about the hand (rules/common/spectator.ts).
  const follow = mode.kind === 'RACE' ? followRejection(topOf(state), card) : null;
  if (follow !== null) return follow;
  if (!holdsCard(state, player, card)) return refuse('CARD_NOT_IN_HAND', `${player} does not hold ${card}`);
  if (mode.kind === 'PAUSED') return { card, kind: 'RESTART' };
  if (mode.kind === 'OPEN_START') return { card, kind: 'OPEN' };
  return { card, kind: 'FOLLOW' };
}

/** True when `validatePlay` refused. */
export function isRejection(v: Landing | ZipRejection): v is ZipRejection {
  return 'code' in v;
}

/** Puts a validated card on the pile, takes it out of the hand, and sets the mode (A.6, ZIP-50). */
export function land(state: ZipZapState, spec: PlaySpec, landing: Landing, events: ZipZapEvent[]): ZipZapState {
  const { player, at } = spec;
  const { card, kind } = landing;
  const known = state.handKnown[player] === true;
  const record: PlayRecord = at === undefined ? { card, by: player, kind } : { card, by: player, kind, at };
  // An `at` older than an applied play is accepted against the current top and flagged (see docs: out of order).
  const outOfOrder = at !== undefined && state.lastAt !== null && at < state.lastAt;
  const base = { player, card, ...(at === undefined ? {} : { at }), ...(outOfOrder ? { outOfOrder } : {}) };
  events.push(kind === 'ZAP' ? { type: 'ZAP_PLAYED', ...base } : { type: 'CARD_PLAYED', ...base, kind });
  const s: ZipZapState = {
    ...state,
    hands: known ? withEntry(state.hands, player, (state.hands[player] ?? []).filter((c) => c !== card)) : state.hands,
    unseen: known ? state.unseen : state.unseen.filter((c) => c !== card),
    handCounts: withEntry(state.handCounts, player, (state.handCounts[player] ?? 0) - 1),
    pile: [...state.pile, record],
    lastAt: at === undefined ? state.lastAt : Math.max(at, state.lastAt ?? at),
  };
  return afterLanding(s, player, card, events);
}

/**
 * The player on turn plays a card (K21-10..14): a red card adds its value to the running total, which must not
 * pass 21 (K21-11, K21-12); a blue card can always be played (K21-13) and does what it says (blue-cards.ts,
 * killer.ts). An empty hand afterwards means the player went out (K21-50). With cards dealt at the table, a card
 * the engine has not seen is accepted from a player who holds unseen cards (K21-93).
 */
import { applied } from '../common/outcome.ts';
import type { PlayAction } from './actions.ts';
import { blueEffect } from './blue-cards.ts';
import { blueKind, inDeck, redValue } from './cards.ts';
import type { Killer21Event } from './events.ts';
import { turnRejection } from './guards.ts';
import { openWindow } from './killer.ts';
import { settle } from './moment.ts';
import { LIMIT } from './playable.ts';
import { refuse } from './rejections.ts';
import { draft, handCount, handOf, hiddenCards, withEntry, type HiddenCards, type K21Outcome, type Killer21State } from './state.ts';
import { mayHoldUnseen, seeFromHand } from './unseen.ts';

function notHeld(state: Killer21State, player: string, card: string): string {
  const h = hiddenCards(state);
  if (h === null) return `${player} does not hold ${card}`;
  return h.cards.includes(card)
    ? `${player} holds no card the table has not seen, and ${card} is not in their registered hand`
    : `${card} has been seen elsewhere (on the pile or in another registered hand), not in ${player}'s hand`;
}

/** `play`. */
export function playAction(state: Killer21State, action: PlayAction): K21Outcome {
  const { player, card } = action;
  const bad = turnRejection(state, player);
  if (bad !== null) return bad;
  if (!inDeck(state.config.deck, card)) return refuse('UNKNOWN_CARD', `${card} is not a card of this deck`);
  // Over 21 follows from the card and the public total alone, so it is checked before the hand: the refusal is
  // then published as it is, and tells nothing about the hand (rules/common/spectator.ts).
  const value = redValue(card);
  if (value !== null && state.total + value > LIMIT) {
    return refuse('OVER_21', `${card} would take the total from ${state.total} to ${state.total + value}`);
  }
  const hand = handOf(state, player);
  const i = hand.indexOf(card);
  const unseen = i < 0 && mayHoldUnseen(state, player, card);
  if (i < 0 && !unseen) return refuse('CARD_NOT_IN_HAND', notHeld(state, player, card));
  const total = value === null ? state.total : state.total + value;
  const events: Killer21Event[] = [
    action.at === undefined ? { type: 'CARD_PLAYED', player, card, total } : { type: 'CARD_PLAYED', player, card, total, at: action.at },
  ];
  const s = draft(state);
  s.total = total;
  if (unseen) s.hidden = seeFromHand(state.hidden as HiddenCards, player, card);
  else s.hands = withEntry(state.hands, player, [...hand.slice(0, i), ...hand.slice(i + 1)]);
  s.pile = [...state.pile, action.at === undefined ? { card, by: player, kind: 'PLAY' } : { card, by: player, kind: 'PLAY', at: action.at }];
  const shedders = handCount(s, player) === 0 ? [player] : [];
  const kind = blueKind(card);
  if (kind === null) return applied(settle(s, [], shedders, { kind: 'NEXT', from: player, steps: 1 }, events), events);
  if (kind === 'KILLER') return applied(openWindow(s, player, action.at, events, action.uncertaintyMs), events);
  return applied(blueEffect(s, player, kind, shedders, events), events);
}

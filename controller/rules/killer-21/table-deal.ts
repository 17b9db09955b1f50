/**
 * Dealing at the table (`dealing: TABLE`, C-K.3, K21-90..92). People shuffle and deal a real deck, so the round
 * starts in DEALING with every card unseen and only the counts known: `handSize` per player still in, the rest
 * in the deck. Each player may register their dealt hand (lay it on their pad: `register-hand`), after which
 * the engine knows it and checks it as if it had dealt it; `skip-registration` starts play with the remaining
 * hands unseen. Play starts as soon as no hand is left to register.
 */
import { applied } from '../common/outcome.ts';
import { allCards } from './cards.ts';
import type { Killer21Event } from './events.ts';
import { beginTurn } from './moment.ts';
import { refuse, type K21Rejection } from './rejections.ts';
import { nextActive } from './seats.ts';
import { registerForTieBreak, skipTieBreak } from './tie-break.ts';
import { activePlayers, draft, hiddenIn, withEntry, type Draft, type HiddenCards, type K21Outcome, type Killer21State } from './state.ts';

/** K21-90: a round dealt at the table. Hands and deck are counts; `turn` is who will play first. */
export function dealTable(state: Killer21State, dealer: string, events: Killer21Event[]): Draft {
  const first = nextActive(state, dealer, 1, 1);
  const active = new Set(activePlayers(state));
  const cards = allCards(state.config.deck);
  const inHand: Record<string, number> = {};
  const hands: Record<string, string[]> = {};
  for (const p of state.players) {
    inHand[p] = active.has(p) ? state.config.handSize : 0;
    hands[p] = [];
  }
  const deck = cards.length - state.config.handSize * active.size;
  const round = state.round + 1;
  events.push({ type: 'ROUND_DEALT', round, dealer, first, handCounts: inHand, deckCount: deck });
  const hidden: HiddenCards = { cards, inHand, deck };
  return {
    ...state, round, dealer, hands, deck: [], pile: [], total: 0, direction: 1, killer: null, hidden,
    phase: 'DEALING', turn: first,
  };
}

/** Players still in whose dealt hand is not registered, in seat order. */
export function unregistered(state: Killer21State): string[] {
  return activePlayers(state).filter((p) => hiddenIn(state, p) > 0);
}

/**
 * Checks that `cards` can be exactly `count` unseen cards of one hand: the right number, no card twice, every
 * one unseen and not in `claimed` (K21-91, K21-97).
 */
export function handRejection(
  state: Killer21State, player: string, cards: readonly string[], count: number, claimed: readonly string[] = [],
): K21Rejection | null {
  // The count is public (`unseenCount`, `scoring.pending`), so this refusal may say it; which cards clash may not.
  if (cards.length !== count) return refuse('WRONG_COUNT', `${player} holds ${count} unseen cards, ${cards.length} given`);
  if (new Set(cards).size !== cards.length) return refuse('BAD_HAND', 'a card is listed twice');
  const unseen = new Set(state.hidden?.cards ?? []);
  const taken = new Set(claimed);
  const elsewhere = cards.filter((c) => !unseen.has(c) || taken.has(c));
  if (elsewhere.length > 0) return refuse('BAD_HAND', `seen elsewhere (on the pile or in another hand) or not a card of this deck: ${elsewhere.join(', ')}`);
  return null;
}

/** Starts the round's play once nobody is left to register. */
function startIfRegistered(d: Draft, events: Killer21Event[]): Draft {
  if (unregistered(d).length > 0) return d;
  return beginTurn(d, d.turn as string, events);
}

/** `register-hand` in DEALING (K21-91), or for the tie-break in SCORING (K21-97). */
export function registerHandAction(state: Killer21State, player: string, cards: readonly string[]): K21Outcome {
  if (state.phase === 'GAME_OVER') return refuse('GAME_OVER', 'the game has ended');
  if (!state.players.includes(player)) return refuse('NOT_A_PLAYER', `no player ${player} at this table`);
  if (state.phase === 'SCORING') return registerForTieBreak(state, player, cards);
  if (state.phase !== 'DEALING') return refuse('NOT_REGISTERING', 'hands are registered right after a table deal');
  if ((state.lives[player] ?? 0) <= 0) return refuse('PLAYER_OUT', `${player} has no lives left`);
  const count = hiddenIn(state, player);
  if (count === 0) return refuse('HAND_ALREADY_KNOWN', `${player}'s hand is already registered`);
  const bad = handRejection(state, player, cards, count);
  if (bad !== null) return bad;
  const h = state.hidden as HiddenCards;
  const taken = new Set(cards);
  const d = draft(state);
  d.hands = withEntry(state.hands, player, [...cards]);
  d.hidden = { ...h, cards: h.cards.filter((c) => !taken.has(c)), inHand: withEntry(h.inHand, player, 0) };
  const events: Killer21Event[] = [{ type: 'HAND_REGISTERED', player, count: cards.length }];
  return applied(startIfRegistered(d, events), events);
}

/** `skip-registration`: play on with the unregistered hands unseen (K21-92), or end a tie-break (K21-97). */
export function skipRegistrationAction(state: Killer21State): K21Outcome {
  if (state.phase === 'GAME_OVER') return refuse('GAME_OVER', 'the game has ended');
  if (state.phase === 'SCORING') return skipTieBreak(state);
  if (state.phase !== 'DEALING') return refuse('NOT_REGISTERING', 'registration can be skipped only right after a table deal');
  const events: Killer21Event[] = [{ type: 'REGISTRATION_SKIPPED', players: unregistered(state) }];
  return applied(beginTurn(draft(state), state.turn as string, events), events);
}

/**
 * The end of a play (K21-44, "one moment"): every life lost because of one card — its own effect, a bust, the
 * Killer's settlement, and the shed-out of a player whose hand is now empty — is taken at the same time.
 * Then, in this order: players at 0 lives leave (K21-70); the game may be over (K21-71, K21-72, K21-80); a
 * player who went out ends the round (K21-50..52); otherwise the turn moves on.
 */
import { returnToDeck } from './deck.ts';
import type { Killer21Event, LossReason } from './events.ts';
import { awaitHands, breakTie, endGame, type Decision } from './game-end.ts';
import { nextActive } from './seats.ts';
import { activePlayers, hiddenCards, hiddenIn, LOSS_HISTORY, withEntry, type Draft, type Killer21State, type LifeLoss } from './state.ts';
import { hideInDeck } from './unseen.ts';

/** One life to take. */
export interface Loss {
  readonly player: string;
  readonly reason: LossReason;
}

/** How play goes on if the round does: `steps` players on from `from`, or the same player again. */
export type Continuation =
  | { readonly kind: 'NEXT'; readonly from: string; readonly steps: 1 | 2 }
  | { readonly kind: 'SAME'; readonly player: string };

/** Who has won, if the game is over after this moment (hands not yet returned). */
function gameEnd(state: Killer21State, newlyOut: readonly string[]): Decision | null {
  if (state.config.variant === 'BLITZ') {
    if (newlyOut.length === 0) return null;
    // K21-80: most lives; then the smallest sum of red cards in hand; then shared.
    const most = Math.max(...state.players.map((p) => state.lives[p] ?? 0));
    return breakTie(state, state.players.filter((p) => (state.lives[p] ?? 0) === most), 'BLITZ');
  }
  const left = activePlayers(state);
  if (left.length === 1) return { kind: 'DECIDED', winners: left, reason: 'LAST_PLAYER' };
  if (left.length > 1) return null;
  // K21-72: everyone left lost their last life in this moment.
  if (state.config.allOutPolicy === 'HAND_POINTS') return breakTie(state, newlyOut, 'ALL_OUT');
  return { kind: 'DECIDED', winners: [...newlyOut], reason: 'ALL_OUT' };
}

function takeLives(d: Draft, losses: readonly Loss[], events: Killer21Event[]): void {
  if (losses.length === 0) return;
  const lives: Record<string, number> = { ...d.lives };
  const history: LifeLoss[] = [...d.losses];
  for (const { player, reason } of losses) {
    const left = lives[player] ?? 0;
    if (left <= 0) continue; // K21-44: never below 0
    lives[player] = left - 1;
    events.push({ type: 'LIFE_LOST', player, reason, lives: left - 1 });
    history.push({ player, reason, round: d.round });
  }
  d.lives = lives;
  d.losses = history.length > LOSS_HISTORY ? history.slice(-LOSS_HISTORY) : history;
}

/**
 * K21-70: the players who are out return their cards to the deck. When the engine dealt, the deck is shuffled
 * with them; with cards dealt at the table they are unseen again, known and unseen alike (K21-98).
 */
function leave(d: Draft, newlyOut: readonly string[], events: Killer21Event[]): void {
  if (newlyOut.length === 0) return;
  let deck = d.deck;
  let rng = d.rng;
  let hidden = hiddenCards(d);
  const hands: Record<string, readonly string[]> = { ...d.hands };
  for (const p of newlyOut) {
    const known = hands[p] ?? [];
    const unseen = hiddenIn(d, p);
    if (hidden === null) ({ deck, rng } = returnToDeck(deck, rng, known));
    else hidden = hideInDeck(d, { ...hidden, inHand: withEntry(hidden.inHand, p, 0), deck: hidden.deck + unseen }, known);
    hands[p] = [];
    events.push({ type: 'PLAYER_OUT', player: p, returned: known.length + unseen });
  }
  d.deck = deck;
  d.rng = rng;
  if (hidden !== null) d.hidden = hidden;
  d.hands = hands;
  d.out = [...d.out, ...newlyOut];
}

/** Puts `player` on turn. */
export function beginTurn(d: Draft, player: string, events: Killer21Event[]): Draft {
  events.push({ type: 'TURN_STARTED', player, total: d.total });
  d.phase = 'TURN';
  d.turn = player;
  d.killer = null;
  return d;
}

function continueTurn(d: Draft, how: Continuation, events: Killer21Event[]): Draft {
  if (how.kind === 'SAME') {
    const p = (d.lives[how.player] ?? 0) > 0 ? how.player : nextActive(d, how.player, 1, d.direction);
    return beginTurn(d, p, events);
  }
  if (how.steps === 2) events.push({ type: 'TURN_SKIPPED', player: nextActive(d, how.from, 1, d.direction) });
  return beginTurn(d, nextActive(d, how.from, how.steps, d.direction), events);
}

/**
 * Settles one moment on the action's draft. `losses` are the card's own (or the bust's, or the Killer's); when
 * `shedders` is not empty every other player with lives loses one more (K21-50), and the shedders lose nothing
 * in this moment (K21-51). Returns the draft after eliminations, the end of the game or round, or the next turn.
 */
export function settle(
  d: Draft, losses: readonly Loss[], shedders: readonly string[], how: Continuation, events: Killer21Event[],
): Draft {
  // The common case (a card that takes no life and leaves cards in the hand) goes straight to the next turn.
  if (losses.length === 0 && shedders.length === 0) return continueTurn(d, how, events);
  const before = activePlayers(d);
  const immune = new Set(shedders);
  const all: Loss[] = losses.filter((l) => !immune.has(l.player));
  if (shedders.length > 0) for (const p of before) if (!immune.has(p)) all.push({ player: p, reason: 'SHED_OUT' });
  takeLives(d, all, events);
  const newlyOut = before.filter((p) => (d.lives[p] ?? 0) === 0);
  const end = gameEnd(d, newlyOut);
  leave(d, newlyOut, events);
  if (end !== null) return end.kind === 'DECIDED' ? endGame(d, end.winners, end.reason, events) : awaitHands(d, end.scoring, events);
  if (shedders.length > 0) {
    const winners = d.players.filter((p) => immune.has(p));
    events.push({ type: 'ROUND_WON', round: d.round, winners });
    d.phase = 'ROUND_OVER';
    d.turn = null;
    d.killer = null;
    d.roundWinners = [...d.roundWinners, winners];
    return d;
  }
  return continueTurn(d, how, events);
}

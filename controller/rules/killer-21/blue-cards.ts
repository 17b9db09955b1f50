/**
 * What the blue action cards do once they are on the pile (K21-20..26); the Killer is in killer.ts.
 * Each effect ends in `settle`, which also handles a player who went out with the card (K21-51).
 */
import type { BlueKind } from './cards.ts';
import { drawCards, drawUnseen, type Stock, type UnseenStock } from './deck.ts';
import type { Killer21Event } from './events.ts';
import { settle, type Loss } from './moment.ts';
import { othersInOrder } from './seats.ts';
import { activePlayers, hiddenCards, type Draft, type HiddenCards } from './state.ts';

/** `drawForOthers` for cards dealt at the table: the drawn cards are unseen, a count in each hand (K21-94). */
function drawUnseenForOthers(d: Draft, hidden: HiddenCards, player: string, n: number, events: Killer21Event[]): Draft {
  let stock: UnseenStock = { config: d.config, pile: d.pile, reshuffles: d.reshuffles, hidden };
  for (const p of othersInOrder(d, player, d.direction)) {
    const { stock: next, drawn } = drawUnseen(stock, p, n, events);
    stock = next;
    if (drawn > 0) events.push({ type: 'CARDS_DRAWN', player: p, count: drawn });
    if (drawn < n) events.push({ type: 'DRAW_SHORT', player: p, missing: n - drawn });
  }
  d.hidden = stock.hidden;
  d.pile = stock.pile;
  d.reshuffles = stock.reshuffles;
  return d;
}

/** K21-20, K21-21: every other player with lives, from the next one round in the direction of play, takes `n`. */
function drawForOthers(d: Draft, player: string, n: number, events: Killer21Event[]): Draft {
  const hidden = hiddenCards(d);
  if (hidden !== null) return drawUnseenForOthers(d, hidden, player, n, events);
  let stock: Stock = d;
  const hands: Record<string, readonly string[]> = { ...d.hands };
  for (const p of othersInOrder(d, player, d.direction)) {
    const drawn = drawCards(stock, n, events);
    stock = drawn.stock;
    if (drawn.cards.length > 0) {
      hands[p] = [...(hands[p] ?? []), ...drawn.cards];
      events.push({ type: 'CARDS_DRAWN', player: p, count: drawn.cards.length });
    }
    if (drawn.cards.length < n) events.push({ type: 'DRAW_SHORT', player: p, missing: n - drawn.cards.length });
  }
  d.deck = stock.deck;
  d.pile = stock.pile;
  d.rng = stock.rng;
  d.reshuffles = stock.reshuffles;
  d.hands = hands;
  return d;
}

/** K21-24, K21-25: Reverse turns the direction round, except with two players left, where it cannot change. */
function reverse(d: Draft, events: Killer21Event[]): Draft {
  if (activePlayers(d).length <= 2) {
    events.push({ type: 'DIRECTION_KEPT', reason: 'TWO_PLAYERS' });
    return d;
  }
  d.direction = d.direction === 1 ? -1 : 1;
  events.push({ type: 'DIRECTION_CHANGED', direction: d.direction });
  return d;
}

/**
 * Applies a blue card other than the Killer, already moved from `player`'s hand to the pile. `shedders` is
 * `[player]` when that was their last card.
 */
export function blueEffect(
  state: Draft, player: string, kind: Exclude<BlueKind, 'KILLER'>, shedders: readonly string[], events: Killer21Event[],
): Draft {
  switch (kind) {
    case 'DRAW1':
      return settle(drawForOthers(state, player, 1, events), [], shedders, { kind: 'NEXT', from: player, steps: 1 }, events);
    case 'DRAW2':
      return settle(drawForOthers(state, player, 2, events), [], shedders, { kind: 'NEXT', from: player, steps: 1 }, events);
    case 'PASS':
      return settle(state, [], shedders, { kind: 'NEXT', from: player, steps: 1 }, events);
    case 'SKIP':
      return settle(state, [], shedders, { kind: 'NEXT', from: player, steps: 2 }, events);
    case 'REVERSE':
      return settle(reverse(state, events), [], shedders, { kind: 'NEXT', from: player, steps: 1 }, events);
    case 'LIFE': {
      // K21-26: everyone still in (the player too by default, K21-Q-7) loses one life.
      const hit = activePlayers(state).filter((p) => state.config.lifeHits === 'EVERYONE' || p !== player);
      const losses: Loss[] = hit.map((p) => ({ player: p, reason: 'LIFE_CARD' }));
      return settle(state, losses, shedders, { kind: 'NEXT', from: player, steps: 1 }, events);
    }
  }
}

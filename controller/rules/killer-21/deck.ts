/**
 * The face-down deck: drawing (K21-20, K21-21), rebuilding it from the pile when it runs out (K21-60, K21-61),
 * and taking back the cards of a player who is out (K21-70). Every shuffle uses the seeded generator in the
 * state, so a replay deals and draws the same cards.
 */
import { shuffle, type Rng } from '../../kernel/random.ts';
import type { Killer21Event } from './events.ts';
import { withEntry, type HiddenCards, type Killer21State, type PileRecord } from './state.ts';
import { hideInDeck } from './unseen.ts';

/** The part of the state that drawing touches. */
export type Stock = Pick<Killer21State, 'deck' | 'pile' | 'rng' | 'reshuffles'>;

/**
 * K21-60: the deck has run out. The pile's top card stays face up; every card under it is shuffled into a new
 * deck. The running total is kept as it was (K21-62). With one card or none on the pile nothing changes.
 */
export function rebuildDeck(stock: Stock, events: Killer21Event[]): Stock {
  const pile = stock.pile;
  if (pile.length <= 1) return stock;
  const top = pile[pile.length - 1] as PileRecord;
  const [deck, rng] = shuffle(stock.rng, pile.slice(0, -1).map((r) => r.card));
  events.push({ type: 'DECK_RESHUFFLED', cards: deck.length });
  return { deck: [...stock.deck, ...deck], pile: [top], rng, reshuffles: stock.reshuffles + 1 };
}

/**
 * Takes up to `count` cards from the top of the deck, rebuilding it from the pile when it is empty and a
 * card is still needed (lazily, K21-Q-13). Returns the cards drawn, fewer than `count` when even the pile
 * could not supply them (K21-61).
 */
export function drawCards(stock: Stock, count: number, events: Killer21Event[]): { stock: Stock; cards: string[] } {
  let s = stock;
  const cards: string[] = [];
  while (cards.length < count) {
    if (s.deck.length === 0) {
      s = rebuildDeck(s, events);
      if (s.deck.length === 0) break;
    }
    const take = Math.min(count - cards.length, s.deck.length);
    cards.push(...s.deck.slice(0, take));
    s = { ...s, deck: s.deck.slice(take) };
  }
  return { stock: s, cards };
}

/** K21-70: a player who is out returns their cards to the deck, which is shuffled (K21-Q-14). */
export function returnToDeck(deck: readonly string[], rng: Rng, cards: readonly string[]): { deck: string[]; rng: Rng } {
  if (cards.length === 0) return { deck: deck.slice(), rng };
  const [shuffled, next] = shuffle(rng, [...deck, ...cards]);
  return { deck: shuffled, rng: next };
}

/** The part of a table-dealt game's state that drawing touches (K21-94). */
export type UnseenStock = Pick<Killer21State, 'config' | 'pile' | 'reshuffles'> & { readonly hidden: HiddenCards };

/**
 * Table dealing (K21-94): `player` takes up to `count` cards from the face-down deck, which the engine knows
 * only as a count; when it runs out, the pile under its top card is turned over (K21-60) and those cards are
 * unseen again. Returns the stock and how many cards were drawn (fewer than `count`: K21-61).
 */
export function drawUnseen(
  stock: UnseenStock, player: string, count: number, events: Killer21Event[],
): { stock: UnseenStock; drawn: number } {
  let s = stock;
  if (s.hidden.deck < count && s.pile.length > 1) {
    const under = s.pile.slice(0, -1).map((r) => r.card);
    events.push({ type: 'DECK_RESHUFFLED', cards: under.length });
    s = { ...s, hidden: hideInDeck(s, s.hidden, under), pile: s.pile.slice(-1), reshuffles: s.reshuffles + 1 };
  }
  const drawn = Math.min(count, s.hidden.deck);
  const inHand = withEntry(s.hidden.inHand, player, (s.hidden.inHand[player] ?? 0) + drawn);
  return { stock: { ...s, hidden: { ...s.hidden, inHand, deck: s.hidden.deck - drawn } }, drawn };
}

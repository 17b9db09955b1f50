/**
 * The cards a table-dealt game has not seen (`dealing: TABLE`, C-K.3, K21-90..98). People shuffle and deal a
 * real deck, so every card is *unseen* until a reader sees it: on the pile, in a registered hand, as a zero
 * answering the Killer. The engine still knows every count (each hand's, the deck's), and the composition of
 * what is unseen, which is what it checks plays and "I can't" against.
 */
import { allCards } from './cards.ts';
import { isPlayable } from './playable.ts';
import { handOf, hiddenCards, hiddenIn, withEntry, type HiddenCards, type Killer21State } from './state.ts';

/** The cards of `cards` in canonical order (the order of `allCards`), so that a replay lists them alike. */
export function canonical(state: Pick<Killer21State, 'config'>, cards: ReadonlySet<string>): string[] {
  return allCards(state.config.deck).filter((c) => cards.has(c));
}

/** Whether `player` may be holding `card` without the engine having seen it (K21-93). */
export function mayHoldUnseen(state: Pick<Killer21State, 'hidden'>, player: string, card: string): boolean {
  const h = hiddenCards(state);
  return h !== null && (h.inHand[player] ?? 0) > 0 && h.cards.includes(card);
}

/** `card`, one of `player`'s unseen cards, has been seen: it leaves the unseen cards and the hand's count. */
export function seeFromHand(h: HiddenCards, player: string, card: string): HiddenCards {
  return {
    ...h,
    cards: h.cards.filter((c) => c !== card),
    inHand: withEntry(h.inHand, player, (h.inHand[player] ?? 0) - 1),
  };
}

/** Adds `cards` (just seen somewhere, now out of sight again) to the unseen cards of the deck. */
export function hideInDeck(state: Pick<Killer21State, 'config'>, h: HiddenCards, cards: readonly string[]): HiddenCards {
  if (cards.length === 0) return h;
  return { ...h, cards: canonical(state, new Set([...h.cards, ...cards])), deck: h.deck + cards.length };
}

/** How many unseen cards could not be played on `total` (red cards that would pass 21). */
function unplayableUnseen(h: HiddenCards, total: number): number {
  let n = 0;
  for (const c of h.cards) if (!isPlayable(c, total)) n++;
  return n;
}

/**
 * Whether `player` certainly holds a playable card (K21-41, K21-95): a known one, or more unseen cards than
 * there are unplayable unseen cards, so that at least one of theirs must be playable.
 */
export function surelyCanPlay(state: Killer21State, player: string): boolean {
  for (const c of handOf(state, player)) if (isPlayable(c, state.total)) return true;
  const n = hiddenIn(state, player);
  const h = hiddenCards(state);
  return n > 0 && h !== null && unplayableUnseen(h, state.total) < n;
}

/**
 * Whether `player` certainly holds no playable card (for `autoBust`, K21-95): none known, and none of the
 * unseen cards could be played (or the player holds none).
 */
export function surelyCannotPlay(state: Killer21State, player: string): boolean {
  for (const c of handOf(state, player)) if (isPlayable(c, state.total)) return false;
  const h = hiddenCards(state);
  if (h === null || hiddenIn(state, player) === 0) return true;
  return unplayableUnseen(h, state.total) === h.cards.length;
}

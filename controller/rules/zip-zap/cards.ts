/**
 * The Zip-Zap deck (A.1): 4 solid suits and 1 wild suit of number cards 1–10, plus 6 ZAP cards, 56 in all.
 * Every card has a stable string id (`R1`..`R10`, `B`, `Y`, `G`, `W`, and `Z1`..`Z6`) that doubles as its RFID
 * registry key on the sensor table (Part C). Lookups go through tables built once, so the hot paths
 * (`follows`, legal actions, stuck detection) do no string parsing.
 */

/** A suit that ZIP-3 may remove. */
export type SolidSuit = 'RED' | 'BLUE' | 'YELLOW' | 'GREEN';
/** Every suit; WILD is never removed (ZIP-3). */
export type Suit = SolidSuit | 'WILD';

/** Solid suits in their canonical order. */
export const SOLID_SUITS: readonly SolidSuit[] = ['RED', 'BLUE', 'YELLOW', 'GREEN'];
/** All suits in their canonical order. */
export const ALL_SUITS: readonly Suit[] = [...SOLID_SUITS, 'WILD'];
/** The letter that starts a number card's id. */
export const SUIT_LETTER: Readonly<Record<Suit, string>> = { RED: 'R', BLUE: 'B', YELLOW: 'Y', GREEN: 'G', WILD: 'W' };

/** What a card id stands for. */
export type CardInfo =
  | { readonly kind: 'NUMBER'; readonly suit: Suit; readonly value: number }
  | { readonly kind: 'ZAP'; readonly index: number };

/** The ZAP ids, one per seat at most (ZIP-2). */
export const ZAP_IDS: readonly string[] = ['Z1', 'Z2', 'Z3', 'Z4', 'Z5', 'Z6'];

function buildTable(): Record<string, CardInfo> {
  // A null-prototype object: `CARD_INFO['toString']` must be undefined, not a function.
  const table = Object.create(null) as Record<string, CardInfo>;
  for (const suit of ALL_SUITS) {
    for (let value = 1; value <= 10; value++) table[`${SUIT_LETTER[suit]}${value}`] = { kind: 'NUMBER', suit, value };
  }
  ZAP_IDS.forEach((id, index) => {
    table[id] = { kind: 'ZAP', index };
  });
  return table;
}

const CARD_INFO: Readonly<Record<string, CardInfo>> = buildTable();

/** Every card id of the box, number cards first (suit by suit, 1..10), then the ZAPs. */
export const ALL_CARD_IDS: readonly string[] = Object.keys(CARD_INFO);

/** Looks up a card id; undefined when it is not a Zip-Zap card. */
export function cardInfo(id: string): CardInfo | undefined {
  return CARD_INFO[id];
}

/** True for a known card id. */
export function isCardId(id: string): boolean {
  return CARD_INFO[id] !== undefined;
}

/** True for a ZAP card id. */
export function isZapId(id: string): boolean {
  return CARD_INFO[id]?.kind === 'ZAP';
}

/** The number value of a card, 0 for a ZAP or an unknown id. */
export function valueOf(id: string): number {
  const info = CARD_INFO[id];
  return info?.kind === 'NUMBER' ? info.value : 0;
}

/** The suit of a number card, undefined for a ZAP or an unknown id. */
export function suitOf(id: string): Suit | undefined {
  const info = CARD_INFO[id];
  return info?.kind === 'NUMBER' ? info.suit : undefined;
}

/** The number card ids of the given suits, in canonical order. */
export function numberCards(suits: readonly Suit[]): string[] {
  const out: string[] = [];
  for (const suit of suits) for (let v = 1; v <= 10; v++) out.push(`${SUIT_LETTER[suit]}${v}`);
  return out;
}

/** The ZAP id that the seat at `seatIndex` (0-based) gets when the engine deals (ZIP-2). */
export function zapForSeat(seatIndex: number): string {
  return `Z${seatIndex + 1}`;
}

/**
 * ZIP-20: `card` may follow `top` iff the top is a number ≤ 9, the card is the next number, and the suits
 * match (either one wild, or the same suit). A wild on a wild is legal. Both ids must be known.
 */
export function follows(top: string, card: string): boolean {
  const t = CARD_INFO[top];
  const c = CARD_INFO[card];
  if (t?.kind !== 'NUMBER' || c?.kind !== 'NUMBER') return false;
  if (c.value !== t.value + 1) return false;
  return t.suit === 'WILD' || c.suit === 'WILD' || c.suit === t.suit;
}

function buildFollowers(): Record<string, readonly string[]> {
  const table = Object.create(null) as Record<string, readonly string[]>;
  for (const top of ALL_CARD_IDS) table[top] = ALL_CARD_IDS.filter((c) => follows(top, c));
  return table;
}

const FOLLOWERS: Readonly<Record<string, readonly string[]>> = buildFollowers();

/** The card ids that may follow `top` (ZIP-20); empty for a 10 (ZIP-21), a ZAP (ZIP-22) or an unknown id. */
export function followersOf(top: string): readonly string[] {
  return FOLLOWERS[top] ?? [];
}

/** Penalty points of a card left in hand at round end (ZIP-51): solid 1, wild 3, ZAP 5. */
export function penaltyOf(id: string): number {
  const info = CARD_INFO[id];
  if (info === undefined) return 0;
  if (info.kind === 'ZAP') return 5;
  return info.suit === 'WILD' ? 3 : 1;
}

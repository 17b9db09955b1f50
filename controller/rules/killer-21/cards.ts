/**
 * The cards of "21" with lives (docs/rules/killer-21.md, K21-2): red number cards 0–7 and blue action cards
 * of seven kinds. The seed states the kinds and that there is exactly one Killer; how many copies of each
 * the box holds is not stated, so the composition is configuration (`DeckComposition`, K21-Q-1).
 *
 * Card ids are stable, double as RFID registry keys, and name the card: `<kind>-<copy>` with copies
 * numbered from 1, e.g. `R0-3` (the third red 0), `DRAW2-1`, `KILLER-1`.
 */

/** The values printed on the red number cards (K21-2). */
export const RED_VALUES = [0, 1, 2, 3, 4, 5, 6, 7] as const;

/** The blue action card kinds (K21-2), in the order the seed lists them. */
export const BLUE_KINDS = ['DRAW1', 'DRAW2', 'PASS', 'SKIP', 'REVERSE', 'LIFE', 'KILLER'] as const;

export type BlueKind = (typeof BLUE_KINDS)[number];

/** A red number card's kind: `R0`..`R7`. */
export type RedKind = `R${(typeof RED_VALUES)[number]}`;

/** What kind of card an id names. */
export type CardKind = RedKind | BlueKind;

/** Every card kind, red first. */
export const CARD_KINDS: readonly CardKind[] = [...RED_VALUES.map((v): RedKind => `R${v}`), ...BLUE_KINDS];

/** What a card is. */
export type CardInfo =
  | { readonly colour: 'RED'; readonly kind: RedKind; readonly value: number; readonly copy: number }
  | { readonly colour: 'BLUE'; readonly kind: BlueKind; readonly copy: number };

/** How many copies of each kind the deck holds (K21-2, K21-Q-1). */
export interface DeckComposition {
  /** Copies of the red number cards, indexed by value 0..7 (eight counts). */
  readonly red: readonly number[];
  readonly DRAW1: number;
  readonly DRAW2: number;
  readonly PASS: number;
  readonly SKIP: number;
  readonly REVERSE: number;
  readonly LIFE: number;
  /** The seed: "there is only one Killer card in the deck". 0 plays without it. */
  readonly KILLER: number;
}

/**
 * The default composition **[engine]**: 10 of each red value (80), 4 of each blue action kind but Life (20), 2 Life
 * cards (each one costs every player a life, so their number sets the length of the game) and the one Killer:
 * 103 cards, so 7 players × 10 cards leave a 33-card deck (K21-Q-1).
 */
export const DEFAULT_DECK: DeckComposition = {
  red: [10, 10, 10, 10, 10, 10, 10, 10],
  DRAW1: 4, DRAW2: 4, PASS: 4, SKIP: 4, REVERSE: 4, LIFE: 2,
  KILLER: 1,
};

const PATTERN = /^(R[0-7]|DRAW1|DRAW2|PASS|SKIP|REVERSE|LIFE|KILLER)-([1-9]\d{0,3})$/;

// A memo of a pure function (id → info), so that the hot path parses each id once.
const INFO = new Map<string, CardInfo | null>();

function parseId(id: string): CardInfo | null {
  const m = PATTERN.exec(id);
  if (m === null) return null;
  const kind = m[1] as CardKind;
  const copy = Number(m[2]);
  if (kind.startsWith('R') && kind.length === 2) return { colour: 'RED', kind: kind as RedKind, value: Number(kind[1]), copy };
  return { colour: 'BLUE', kind: kind as BlueKind, copy };
}

/** What the id names, whatever the composition; undefined when it is not a card id of this game. */
export function cardInfo(id: string): CardInfo | undefined {
  let info = INFO.get(id);
  if (info === undefined) {
    info = parseId(id);
    INFO.set(id, info);
  }
  return info ?? undefined;
}

/** Copies of `kind` in the composition. */
export function copiesOf(deck: DeckComposition, kind: CardKind): number {
  if (kind.startsWith('R') && kind.length === 2) return deck.red[Number(kind[1])] ?? 0;
  return deck[kind as BlueKind];
}

/** Whether `id` is a card of a deck with this composition. */
export function inDeck(deck: DeckComposition, id: string): boolean {
  const info = cardInfo(id);
  return info !== undefined && info.copy <= copiesOf(deck, info.kind);
}

const ALL = new Map<string, readonly string[]>();

/** Every card id of the composition, in canonical order (kinds as `CARD_KINDS`, copies ascending). */
export function allCards(deck: DeckComposition): readonly string[] {
  const key = JSON.stringify(deck);
  let cards = ALL.get(key);
  if (cards === undefined) {
    const out: string[] = [];
    for (const kind of CARD_KINDS) for (let k = 1; k <= copiesOf(deck, kind); k++) out.push(`${kind}-${k}`);
    cards = out;
    ALL.set(key, cards);
  }
  return cards;
}

/** The value a card adds to the running total: its number for red cards, null for blue ones (K21-11). */
export function redValue(id: string): number | null {
  const info = cardInfo(id);
  return info?.colour === 'RED' ? info.value : null;
}

/** A red 0: the only answer to the Killer (K21-32). */
export function isRedZero(id: string): boolean {
  return cardInfo(id)?.kind === 'R0';
}

/** The sum of the red cards in a hand (the Blitz tie-break, K21-80, and the HAND_POINTS option, K21-72). */
export function redPoints(hand: readonly string[]): number {
  let sum = 0;
  for (const c of hand) sum += redValue(c) ?? 0;
  return sum;
}

/** The blue kind of a card, or null for a red card. */
export function blueKind(id: string): BlueKind | null {
  const info = cardInfo(id);
  return info?.colour === 'BLUE' ? info.kind : null;
}

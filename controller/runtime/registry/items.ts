/**
 * The physical items that carry RFID tags: the 13 Zapp Zerapp barrels (barrel k holds k stones) and every
 * card of the Zip-Zap deck (50 number cards and the 6 ZAP cards). Their keys are the rules engines' ids, so a
 * tag read turns straight into an engine action.
 */
import { allCards, cardInfo as k21CardInfo, DEFAULT_DECK as K21_DECK } from '../../rules/killer-21/index.ts';
import { ALL_CARD_IDS, cardInfo } from '../../rules/zip-zap/index.ts';

export type Item =
  | { readonly kind: 'barrel'; readonly value: number }
  | { readonly kind: 'card'; readonly card: string }
  | { readonly kind: 'zap'; readonly card: string }
  /** A Killer-21 card (`R0-3`, `KILLER-1`: the engine's card ids). */
  | { readonly kind: 'k21'; readonly card: string }
  /** A tagged Killer-21 life chip, numbered 1..CHIP_COUNT (chips are interchangeable: only their count matters). */
  | { readonly kind: 'chip'; readonly chip: number };

/** How many tagged chips a box holds: 5 lives for 7 players, and a spare. */
export const CHIP_COUNT = 36;

/** A stable string key per item: `barrel:7`, `card:R4`, `zap:Z2`. */
export type ItemKey = string;

export const BARREL_VALUES: readonly number[] = Array.from({ length: 13 }, (_, i) => i + 1);

export function itemKey(item: Item): ItemKey {
  switch (item.kind) {
    case 'barrel': return `barrel:${item.value}`;
    case 'card': return `card:${item.card}`;
    case 'zap': return `zap:${item.card}`;
    case 'k21': return `k21:${item.card}`;
    case 'chip': return `chip:${item.chip}`;
  }
}

/** Parses a key back into an item; undefined for anything that is not one of the game's items. */
export function parseItemKey(key: string): Item | undefined {
  const [kind, id] = key.split(':');
  if (id === undefined) return undefined;
  if (kind === 'barrel') {
    const value = Number(id);
    return Number.isInteger(value) && value >= 1 && value <= 13 && String(value) === id ? { kind: 'barrel', value } : undefined;
  }
  if (kind === 'chip') {
    const chip = Number(id);
    return Number.isInteger(chip) && chip >= 1 && chip <= CHIP_COUNT && String(chip) === id ? { kind: 'chip', chip } : undefined;
  }
  if (kind === 'k21') return k21CardInfo(id) === undefined ? undefined : { kind: 'k21', card: id };
  const info = cardInfo(id);
  if (kind === 'card' && info?.kind === 'NUMBER') return { kind: 'card', card: id };
  if (kind === 'zap' && info?.kind === 'ZAP') return { kind: 'zap', card: id };
  return undefined;
}

/** How a person recognises the item when asked to place it. */
export function describeItem(item: Item): string {
  switch (item.kind) {
    case 'barrel': return `barrel ${item.value} (${item.value} stone${item.value === 1 ? '' : 's'})`;
    case 'zap': return `ZAP card ${item.card}`;
    case 'k21': return `Killer-21 card ${item.card}`;
    case 'chip': return `life chip ${item.chip}`;
    case 'card': {
      const info = cardInfo(item.card);
      const suit = info?.kind === 'NUMBER' ? info.suit.toLowerCase() : '?';
      return `${suit} ${info?.kind === 'NUMBER' ? info.value : '?'} card (${item.card})`;
    }
  }
}

/** Every item, in the order enrollment asks for them: barrels 1–13, the number cards, the ZAP cards. */
export const ALL_ITEMS: readonly Item[] = [
  ...BARREL_VALUES.map((value): Item => ({ kind: 'barrel', value })),
  ...ALL_CARD_IDS.filter((id) => cardInfo(id)?.kind === 'NUMBER').map((card): Item => ({ kind: 'card', card })),
  ...ALL_CARD_IDS.filter((id) => cardInfo(id)?.kind === 'ZAP').map((card): Item => ({ kind: 'zap', card })),
];

/**
 * The Killer-21 items, kept out of ALL_ITEMS (what `zaptable enroll` asks for by default, and whose positions
 * give the simulated tags their UIDs): every card of the default deck, then the tagged chips.
 */
export const KILLER21_ITEMS: readonly Item[] = [
  ...allCards(K21_DECK).map((card): Item => ({ kind: 'k21', card })),
  ...Array.from({ length: CHIP_COUNT }, (_, i): Item => ({ kind: 'chip', chip: i + 1 })),
];

/** Every item of every game, ALL_ITEMS first (so their simulated UIDs stay what they were). */
export const EVERY_ITEM: readonly Item[] = [...ALL_ITEMS, ...KILLER21_ITEMS];

/** The item's game-facing id: a card id, `#7` for barrel 7, `chip 3`. */
export function itemLabel(item: Item): string {
  switch (item.kind) {
    case 'barrel': return `#${item.value}`;
    case 'chip': return `chip ${item.chip}`;
    case 'card':
    case 'zap':
    case 'k21': return item.card;
  }
}

/**
 * The physical items that carry RFID tags: the 13 Zapp Zerapp barrels (barrel k holds k stones) and every
 * card of the Zip-Zap deck (50 number cards and the 6 ZAP cards). Their keys are the rules engines' ids, so a
 * tag read turns straight into an engine action.
 */
import { ALL_CARD_IDS, cardInfo } from '../../rules/zip-zap/index.ts';

export type Item =
  | { readonly kind: 'barrel'; readonly value: number }
  | { readonly kind: 'card'; readonly card: string }
  | { readonly kind: 'zap'; readonly card: string };

/** A stable string key per item: `barrel:7`, `card:R4`, `zap:Z2`. */
export type ItemKey = string;

export const BARREL_VALUES: readonly number[] = Array.from({ length: 13 }, (_, i) => i + 1);

export function itemKey(item: Item): ItemKey {
  switch (item.kind) {
    case 'barrel': return `barrel:${item.value}`;
    case 'card': return `card:${item.card}`;
    case 'zap': return `zap:${item.card}`;
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

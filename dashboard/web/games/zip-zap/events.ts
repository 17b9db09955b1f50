/**
 * Zip-Zap's events in sentences: cards by name ("green 2"), a tie with both cards (they lie face up on the pile
 * while the referee rules), a play taken back for a tie said as contested, refusals in this game's words; the
 * rest as every game says it (common.ts).
 */
import { describeEvent } from '../../event-text.ts';
import type { PlayNote } from '../../event-order.ts';
import type { PublicEventJson } from '../../types.ts';
import { cardName } from './card-names.ts';
import { ZIP_REFUSALS } from './refusals.ts';

const str = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? String(v) : '?');

function list(items: readonly string[]): string {
  return items.length <= 2 ? items.join(' and ') : `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}

/** "Ana's green 2" for each contender (or "Ana's card" where the card is not known). */
export function contendersText(contenders: unknown, nameOf: (id: string) => string): string {
  if (!Array.isArray(contenders)) return '';
  return list(contenders.map((c: { player?: unknown; card?: unknown }) =>
    `${nameOf(str(c.player))}'s ${typeof c.card === 'string' ? cardName(c.card) : 'card'}`));
}

export function describeZipEvent(e: PublicEventJson, nameOf: (id: string) => string, note?: PlayNote): string {
  const who = nameOf(str(e.player));
  switch (e.type) {
    case 'CARD_PLAYED':
    case 'ZAP_PLAYED': {
      const card = e.type === 'ZAP_PLAYED' ? 'ZAP' : cardName(str(e.card));
      if (note === 'tied') return `${who}'s ${card} landed together with another card: contested until the referee rules`;
      if (note === 'late') return `${who}'s ${card} was taken back: a card that landed before it was read late (judged again)`;
      const line = e.type === 'ZAP_PLAYED' ? `${who} ZAP!` : `${who} played ${card}`;
      return note === 'ruled-first' ? `${line} (the referee ruled it first)` : line;
    }
    case 'CARD_FLIPPED': return `Start card ${cardName(str(e.card))} flipped`;
    case 'TIE_PENDING': return `Tie: ${contendersText(e.contenders, nameOf)} landed too close together to order — the referee decides which was first`;
    case 'TIE_RESOLVED': return `The referee ruled: ${nameOf(str(e.first))}'s card landed first`;
    default: return describeEvent(e, nameOf, ZIP_REFUSALS);
  }
}

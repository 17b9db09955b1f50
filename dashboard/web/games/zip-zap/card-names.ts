/** Zip-Zap's cards as people read them: `R7` is "red 7", `Z2` a ZAP (pure: no DOM). */

/** A card id's first letter as the suit's word. */
export const SUIT: Readonly<Record<string, string>> = { R: 'red', B: 'blue', Y: 'yellow', G: 'green', W: 'wild' };

/** A card as people read it: suit word and number, or ZAP. */
export function cardName(card: string): string {
  if (card.startsWith('Z')) return 'ZAP';
  return `${SUIT[card.charAt(0)] ?? card.charAt(0)} ${card.slice(1)}`;
}

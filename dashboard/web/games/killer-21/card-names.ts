/**
 * Killer-21 cards as people read them: "red 5", "Draw 2", "Killer". Card ids are `<kind>-<copy>` (K21-2); the
 * copy number only tells two physical cards apart, so it is shown small, never as part of the name. Pure (no
 * DOM), so the unit tests read the same words the pages show.
 */
import { BLUE_KINDS, cardInfo, RED_VALUES, type CardKind } from '../../../../controller/rules/killer-21/cards.ts';

const BLUE_NAME: Readonly<Record<string, string>> = {
  DRAW1: 'Draw 1', DRAW2: 'Draw 2', PASS: 'Pass', SKIP: 'Skip', REVERSE: 'Reverse', LIFE: 'Life', KILLER: 'Killer',
};

/** Every card kind, red first, as the simulator's card picker lists them. */
export const KINDS: readonly CardKind[] = [...RED_VALUES.map((v): CardKind => `R${v}`), ...BLUE_KINDS];

/** A kind's name: "red 5", "Draw 2". */
export function kindName(kind: string): string {
  if (/^R[0-7]$/.test(kind)) return `red ${kind.slice(1)}`;
  return BLUE_NAME[kind] ?? kind;
}

/** A card id's name ("red 5"); an id that is no Killer-21 card is shown as it is. */
export function cardName(id: string): string {
  const info = cardInfo(id);
  return info === undefined ? id : kindName(info.kind);
}

/** "red 5 (R5-2)": the name with the id, for lists where two copies must be told apart. */
export function cardLabel(id: string): string {
  const name = cardName(id);
  return name === id ? id : `${name} (${id})`;
}

/** The card's colour class: red number or blue action. */
export function cardColour(id: string): 'red' | 'blue' | 'unknown' {
  const info = cardInfo(id);
  return info === undefined ? 'unknown' : info.colour === 'RED' ? 'red' : 'blue';
}

/** Zapp Zerapp's pieces and places as people read them (pure: no DOM, so the event sentences can use them). */
import type { Loc } from './types.ts';

/** A piece's short label: colour initial and number (R1, G3). */
export function pieceLabel(piece: string): string {
  return `${piece.charAt(0)}${piece.replace(/^\D+/, '')}`;
}

/** Where a location is for people: "field 7", "START", "city". */
export function locLabel(loc: Loc): string {
  return typeof loc === 'number' ? `field ${loc}` : loc === 'START' ? 'start' : 'city';
}

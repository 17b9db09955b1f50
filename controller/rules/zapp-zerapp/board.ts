/**
 * Derived board functions of rules-spec B.2.5. Everything about geometry goes through these, so a measured
 * board (different entry fields, shorter laps, anticlockwise numbering) needs no code change.
 */
import type { BoardSpec, Colour } from './board-spec.ts';

/** Where a piece is: on its START, on a track field (index), or in its city. Plain JSON. */
export type Loc = 'START' | 'CITY' | number;

/** The rules variant: BASIC, or PRO with carrying fields (B.8). */
export type Variant = 'BASIC' | 'PRO';

function mod(a: number, n: number): number {
  return ((a % n) + n) % n;
}

/** The field `k` steps clockwise from field `f` (F6). */
export function advance(board: BoardSpec, f: number, k: number): number {
  return mod(board.clockwiseIsIncreasing ? f + k : f - k, board.trackLength);
}

/** Clockwise steps from field `from` to field `to`, in 0..N−1. */
export function distance(board: BoardSpec, from: number, to: number): number {
  return mod(board.clockwiseIsIncreasing ? to - from : from - to, board.trackLength);
}

/** Fields from entry to last inclusive: 24 on the default board (ZAPP-Q-2). */
export function lapLength(board: BoardSpec, c: Colour): number {
  const home = board.homes[c];
  return distance(board, home.entryField, home.lastField) + 1;
}

/**
 * Steps a piece of colour `c` at `loc` needs to enter its city (entering costs one step, E1 / ZAPP-44).
 * From a field past the city (a foreign piece carried round, ZAPP-68) this gives another lap automatically.
 * Not defined for pieces in the city (ZAPP-48); returns 0 there.
 */
export function stepsToCity(board: BoardSpec, c: Colour, loc: Loc): number {
  if (loc === 'CITY') return 0;
  if (loc === 'START') return lapLength(board, c) + 1;
  return distance(board, loc, board.homes[c].lastField) + 1;
}

/**
 * The track fields a piece of colour `c` enters, in order, when it moves `s` steps from `loc` (ZAPP-40,
 * ZAPP-47). Cut off at `lastField(c)` when `s ≥ stepsToCity`, because the piece then enters its city
 * (ZAPP-43). Never contains the origin (ZAPP-53) nor any field twice (`s ≤ 12 < N`).
 */
export function pathFrom(board: BoardSpec, c: Colour, loc: Loc, s: number): number[] {
  if (loc === 'CITY') return [];
  const toCity = stepsToCity(board, c, loc);
  const count = s >= toCity ? toCity - 1 : s;
  const first = loc === 'START' ? board.homes[c].entryField : advance(board, loc, 1);
  const path = new Array<number>(count);
  for (let i = 0; i < count; i++) path[i] = advance(board, first, i);
  return path;
}

/**
 * Whether a piece of `colour` standing on field `f` cannot be banished: its own colour's field (ZAPP-51), or
 * in PRO a carrying field showing its castle (ZAPP-61). White fields protect nobody in BASIC (ZAPP-55).
 */
export function isProtected(board: BoardSpec, colour: Colour, f: number, variant: Variant): boolean {
  const field = board.fields[f];
  if (!field) return false;
  if (field.type === 'COLOUR') return field.colour === colour;
  return variant === 'PRO' && field.castles.includes(colour);
}

/** Whether field `f` is a PRO carrying field whose castles include `colour` (ZAPP-63). */
export function hasCastle(board: BoardSpec, f: number, colour: Colour): boolean {
  const field = board.fields[f];
  return field?.type === 'NEUTRAL' && field.castles.includes(colour);
}

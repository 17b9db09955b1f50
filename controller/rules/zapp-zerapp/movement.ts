/**
 * Movement (B.6): the path of a move, its destination, the steps forfeited entering the city, and the
 * verdict on every piece it passes or lands on. Pure computation; `move-action.ts` applies it.
 */
import { distance, pathFrom, stepsToCity, type Loc } from './board.ts';
import { judge, type JudgeContext, type Verdict } from './banishment.ts';
import { pieceColour, type ZappState } from './state.ts';

/** A piece standing on the path when the move began, with its verdict. */
export interface Encounter {
  readonly piece: string;
  readonly field: number;
  /** True on the destination field (caught), false when passed (overtaken). */
  readonly landed: boolean;
  readonly verdict: Verdict;
}

/** A move worked out but not yet applied. */
export interface MovePlan {
  readonly piece: string;
  readonly from: Loc;
  /** A field index, or CITY. Never START, never another colour's city (ZAPP-45). */
  readonly to: Loc;
  /** Fields entered, in order (the origin excluded, ZAPP-53). */
  readonly path: readonly number[];
  /** The barrel number. */
  readonly steps: number;
  /** Steps dropped by entering the city (ZAPP-44); 0 otherwise. */
  readonly forfeited: number;
  /** Pieces on the path, in path order. */
  readonly encounters: readonly Encounter[];
}

/**
 * Works out moving `piece` (of the mover's colour, not in the city) by `steps` (B.6 steps 2–4):
 * exactly `steps` fields forward (ZAPP-40..42), or into the city when `steps ≥ stepsToCity`, forfeiting the
 * surplus; entering costs one step (ZAPP-43, ZAPP-44). Entering the city counts every path field as passed,
 * `lastField` included (ZAPP-Q-7).
 */
export function planMove(state: ZappState, piece: string, steps: number): MovePlan {
  const { board, variant, startImmunityReading: reading } = state.config;
  const colour = pieceColour(piece);
  const from = state.pieces[piece] ?? 'START';
  const toCity = stepsToCity(board, colour, from);
  const entersCity = steps >= toCity;
  const path = pathFrom(board, colour, from, steps);
  const last = path[path.length - 1];
  const to: Loc = entersCity || last === undefined ? 'CITY' : last;
  const ctx: JudgeContext = { board, variant, reading, mover: colour, fromStart: from === 'START' };
  const encounters: (Encounter & { index: number })[] = [];
  const n = path.length;
  for (const q in state.pieces) {
    const loc = state.pieces[q];
    // START and CITY pieces are off the track: never banished or carried (ZAPP-54, ZAPP-48).
    if (q === piece || typeof loc !== 'number') continue;
    // Position along the path; the origin gives −1 and is skipped (ZAPP-53, ZAPP-64).
    const index = typeof from === 'number' ? distance(board, from, loc) - 1 : distance(board, board.homes[colour].entryField, loc);
    if (index < 0 || index >= n) continue;
    const landed = !entersCity && index === n - 1;
    encounters.push({ index, piece: q, field: loc, landed, verdict: judge(ctx, pieceColour(q), loc, landed) });
  }
  encounters.sort((a, b) => a.index - b.index);
  return {
    piece,
    from,
    to,
    path,
    steps,
    forfeited: entersCity ? steps - toCity : 0,
    encounters: encounters.map(({ index: _index, ...e }) => e),
  };
}

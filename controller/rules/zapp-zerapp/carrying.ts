/**
 * PRO carrying (B.8): checks the mover's carry and city choices against the carryable pieces of a plan and
 * says where each carried piece is put down.
 */
import type { Rejection } from '../common/outcome.ts';
import type { Loc } from './board.ts';
import type { MovePlan } from './movement.ts';
import { fail, type ZappRejectionCode } from './rejections.ts';
import { pieceColour, type ZappState } from './state.ts';

/** A carried piece: picked up on `from`, put down at `to`. */
export interface CarriedPiece {
  readonly piece: string;
  readonly from: number;
  readonly to: Loc;
}

/**
 * Where a carried piece ends up (ZAPP-66, ZAPP-67): where the mover stops; if the mover entered its city,
 * on the field in front of it, except an own piece the player takes into the city. A foreign piece put down
 * past its own city simply needs another lap (ZAPP-68).
 */
export function putDownLoc(state: ZappState, plan: MovePlan, piece: string, intoCity: boolean): Loc {
  if (plan.to !== 'CITY') return plan.to;
  const mover = pieceColour(plan.piece);
  if (pieceColour(piece) === mover && intoCity) return 'CITY';
  return state.config.board.homes[mover].lastField;
}

/**
 * Checks `carry`/`intoCity` of a move (ZAPP-63: one explicit yes/no per carryable piece, no default) and
 * returns the carried pieces with their put-down locations. `intoCity` entries are optional; a missing one
 * takes `ownCarriedIntoCityDefault` (B.10).
 */
export function resolveCarry(
  state: ZappState,
  plan: MovePlan,
  carry: Readonly<Record<string, boolean>> | undefined,
  intoCity: Readonly<Record<string, boolean>> | undefined,
): CarriedPiece[] | Rejection<ZappRejectionCode> {
  const carryable = plan.encounters.filter((e) => e.verdict === 'CARRYABLE');
  const choices = carry ?? {};
  for (const id in choices) {
    if (!carryable.some((e) => e.piece === id)) {
      const why = state.config.variant === 'BASIC' ? 'nothing is carried in the BASIC game' : 'it is not on a passed carrying field showing its castle';
      return fail('CARRY_NOT_ALLOWED', `${id} cannot be carried on this move: ${why}`);
    }
  }
  const missing = carryable.filter((e) => choices[e.piece] === undefined).map((e) => e.piece);
  if (missing.length > 0) {
    return fail('CARRY_CHOICE_MISSING', `say yes or no for every carryable piece (ZAPP-63); missing: ${missing.join(', ')}`);
  }
  const carried = carryable.filter((e) => choices[e.piece] === true);
  const mover = pieceColour(plan.piece);
  for (const id in intoCity ?? {}) {
    if (plan.to !== 'CITY' || pieceColour(id) !== mover || !carried.some((e) => e.piece === id)) {
      return fail('INTO_CITY_NOT_ALLOWED', `${id} is not an own piece carried on a move into the city (ZAPP-67)`);
    }
  }
  const fallback = state.config.ownCarriedIntoCityDefault;
  return carried.map((e) => ({
    piece: e.piece,
    from: e.field,
    to: putDownLoc(state, plan, e.piece, intoCity?.[e.piece] ?? fallback),
  }));
}

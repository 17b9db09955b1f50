/**
 * The rejection catalogue of the Zapp Zerapp engine: every code an action can be refused with, and what it
 * means. Codes are stable; tests assert on them (style practice 3).
 */
import { reject, type Outcome, type Rejection } from '../common/outcome.ts';
import type { ZappEvent } from './events.ts';
import type { ZappState } from './state.ts';

/** Code → one-line description. */
export const ZAPP_REJECTIONS = {
  BAD_CONFIG: 'The configuration is invalid (every error is listed in the message).',
  BAD_SETUP: 'A scenario setup is inconsistent or malformed.',
  BAD_ACTION: 'The action is not a well-formed Zapp Zerapp action.',
  UNKNOWN_FIELD: 'The action carries a field its type does not have.',
  GAME_OVER: 'The game has ended (ZAPP-80); nothing more can be played.',
  WRONG_PHASE: 'This action is not possible in the current phase.',
  UNKNOWN_PLAYER: 'No such player at this table.',
  NOT_YOUR_ROLL: 'Under rollerPolicy ROTATE only the seat whose turn it is may roll (ZAPP-11).',
  BAD_DICE: 'Entered dice must be integers 1..6.',
  UNKNOWN_BARREL: 'Barrels are numbered 1..13 (ZAPP-1).',
  ALREADY_PLACED: 'The player has already committed a barrel; committing is final (ZAPP-24).',
  HAND_FULL: 'The player already holds as many barrels as allowed (ZAPP-22, maxBarrelsInHand).',
  ALREADY_HOLDING: 'The player already holds that barrel.',
  NOT_HOLDING: 'The player does not hold that barrel.',
  BARREL_HELD_BY_OTHER: 'That barrel is in the hands of another player; no snatching (ZAPP-23).',
  BARREL_PLACED_BY_OTHER: 'That barrel was chosen by another player; it may not be taken (ZAPP-25).',
  BARREL_COMMITTED: 'A placed barrel may not be put back on the mountain (ZAPP-24, ZAPP-25).',
  NOT_ALL_PLACED: 'The reveal waits until every player has placed a barrel (ZAPP-27).',
  NOT_YOUR_TURN: 'Only the current mover may move or pass now (ZAPP-30).',
  UNKNOWN_PIECE: 'No such piece in this game.',
  NOT_YOUR_PIECE: 'A player moves only pieces of their own colour (ZAPP-31).',
  PIECE_IN_CITY: 'Pieces in the city are finished and never move (ZAPP-48).',
  WRONG_DESTINATION: 'The move names a destination (`to`) that the barrel number does not take the piece to (ZAPP-31, B.6).',
  CARRY_CHOICE_MISSING: 'A PRO move must say yes or no for every carryable piece on its path (ZAPP-63).',
  CARRY_NOT_ALLOWED: 'That piece cannot be carried on this move (BASIC game, not on a passed carrying field, or no matching castle).',
  INTO_CITY_NOT_ALLOWED: 'Only an own piece that is carried on a move entering the city can go into the city with it (ZAPP-67).',
  PASS_NOT_ALLOWED: 'Moving is mandatory (moveMandatory, ZAPP-Q-5).',
  NO_CLAIM_WINDOW: 'There is nothing to claim: banishMode is AUTO, or the claim window has closed (ZAPP-57).',
  NOT_YOUR_CLAIM: 'Only the player who just moved may claim banishments (ZAPP-57).',
  NOT_CLAIMABLE: 'That piece was not overtaken or caught unprotected on the last move (ZAPP-57).',
} as const;

/** A rejection code of this engine. */
export type ZappRejectionCode = keyof typeof ZAPP_REJECTIONS;

/** What every handler returns. */
export type ZappOutcome = Outcome<ZappState, ZappEvent, ZappRejectionCode>;

/** A rejection with a code from this catalogue. */
export function fail(code: ZappRejectionCode, message: string): Rejection<ZappRejectionCode> {
  return reject(code, message);
}

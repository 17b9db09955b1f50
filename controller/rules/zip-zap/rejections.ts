/**
 * The rejection catalogue of the Zip-Zap engine: every code an action can be refused with, and what it
 * means. Codes are stable; tests and scenario files assert on them (style practice 3). The same codes appear
 * in `PLAY_REJECTED` events for plays refused inside a batch.
 */
import { reject, type Rejection } from '../common/outcome.ts';

export const ZIP_REJECTIONS = {
  BAD_CONFIG: 'The configuration is invalid (every problem is listed in the message).',
  BAD_SETUP: 'A scenario setup is inconsistent or malformed.',
  BAD_ACTION: 'The action is not a well-formed Zip-Zap action.',
  UNKNOWN_FIELD: 'The action carries a field its type does not have.',
  NOT_A_PLAYER: 'No such player at this table.',
  UNKNOWN_CARD: 'Not a card id of this game (a removed suit, an absent seat\'s ZAP, or no such card).',
  CARD_NOT_IN_HAND: 'The player does not hold that card.',
  DOES_NOT_FOLLOW: 'The card is not the next number in a matching suit (ZIP-20).',
  NOTHING_FOLLOWS_TEN: 'A 10 is on top; nothing follows a 10 (ZIP-21).',
  NOTHING_FOLLOWS_ZAP: 'A ZAP is on top; nothing follows a ZAP (ZIP-22).',
  NOT_CONTROLLER: 'Play is paused; only the controller may play (ZIP-33, ZIP-35).',
  ZAP_ALREADY_USED: 'The player has no ZAP left this round (ZIP-40).',
  ZAP_NOT_ON_OWN_CARD: 'A ZAP needs the player\'s own number card on top (ZIP-41, ZIP-44).',
  ZAP_CANNOT_OPEN: 'After an exhausted reserve the race opens with a number card, not a ZAP (ZIP-Q-2).',
  ROUND_OVER: 'The round has ended; no plays until `next-round` (ZIP-50).',
  GAME_OVER: 'The game has ended; nothing more can be played (ZIP-53).',
  WRONG_PHASE: 'This action is not possible in the current phase (dealing, start, race, pause, round end).',
  NOT_IN_RACE: 'Stuck can only be announced or declared during the race (ZIP-32).',
  SOMEONE_CAN_PLAY: 'Somebody can still follow the top card, so the table is not stuck (ZIP-32, ORACLE).',
  NO_CONTROLLER: 'The top card was flipped, not played: there is no one to hand the pause to (ZIP-32).',
  WRONG_STUCK_DETECTION: 'announce-stuck is for ORACLE detection with known hands; declare-stuck for TIMEOUT/HUMAN (ZIP-Q-3).',
  LATE_PLAY: 'The play\'s line came too late: its landing interval does not lie after a play that can no longer be taken back (beyond `reorderLookBackMs`, or before another action or a tie). A referee rules.',
  TIE_PENDING: 'Plays are tied; a human must say which landed first (`resolve-tie`) before anything else.',
  NO_TIE_PENDING: 'There is no tie to resolve.',
  NOT_A_CONTENDER: 'That player has no play in the pending tie.',
  ROUND_NOT_OVER: 'The round is still being played.',
  SCORES_PENDING: 'Unknown hands must be scored with `score-hand` before the next round (ZIP-51).',
  HAND_ALREADY_KNOWN: 'That hand is already registered or scored.',
  BAD_HAND: 'The cards given do not form that player\'s hand (count, ZAP, or cards already seen elsewhere).',
  NOT_IN_RESERVE: 'That card cannot be in the reserve (it is known to be elsewhere).',
  RESERVE_EMPTY: 'The reserve is empty: there is nothing left to flip (ZIP-Q-2).',
} as const;

/** A rejection code of this engine. */
export type ZipRejectionCode = keyof typeof ZIP_REJECTIONS;

/** A rejection with a code from this catalogue. */
export type ZipRejection = Rejection<ZipRejectionCode>;

/** Builds a rejection (a typed wrapper around `reject`). */
export function refuse(code: ZipRejectionCode, message: string): ZipRejection {
  return reject(code, message);
}

/**
 * The rejection catalogue of the Killer-21 engine: every code an action can be refused with, and what it means.
 * Codes are stable; tests and scenario files assert on them (style practice 3). `parseAction` reports its
 * shape errors with `BAD_ACTION` or `UNKNOWN_FIELD` from the same catalogue.
 */
import { reject, type Rejection } from '../common/outcome.ts';

export const K21_REJECTIONS = {
  BAD_CONFIG: 'The configuration is invalid (every problem is listed in the message).',
  BAD_SETUP: 'A scenario setup is inconsistent or malformed (every problem is listed in the message).',
  BAD_ACTION: 'The action is not a well-formed Killer-21 action.',
  UNKNOWN_FIELD: 'The action carries a field its type does not have.',
  NOT_A_PLAYER: 'No such player at this table.',
  PLAYER_OUT: 'That player has lost all their lives and is out of the game (K21-70).',
  UNKNOWN_CARD: 'Not a card of this deck (see the deck composition, K21-2).',
  CARD_NOT_IN_HAND: 'The player does not hold that card.',
  NOT_YOUR_TURN: 'Only the player on turn plays a card or says "I can\'t" (K21-10).',
  OVER_21: 'That red card would take the running total over 21; it goes back to the hand (K21-12).',
  CAN_PLAY: 'The player holds a card they can play, so they cannot take a bust (K21-40, K21-41).',
  KILLER_WINDOW_OPEN: 'The Killer has been played: only answers to it are accepted until its window is settled (K21-30).',
  NO_KILLER_WINDOW: 'Nobody has played the Killer: there is nothing to answer (K21-32).',
  WINDOW_CLOSED: 'The Killer window has closed: no more zeros are accepted (K21-36).',
  ZERO_BEFORE_KILLER: 'The red 0 landed before the Killer (its landing interval lies wholly before the Killer\'s): it is no answer to it (K21-32). Put it down again while the window is open.',
  WINDOW_STILL_OPEN: 'The Killer window has not reached its deadline yet (K21-36).',
  NOT_REQUIRED: 'That player does not have to answer this Killer (K21-31).',
  ALREADY_ANSWERED: 'That player has already answered this Killer (one red 0 each, K21-32).',
  NOT_A_ZERO: 'Only a red 0 answers the Killer (K21-32).',
  NEEDS_TIME: 'The Killer window is timed: a zero must say when it landed (`at`, K21-33).',
  NOT_TIED: 'That player has no zero whose landing interval straddles the deadline (K21-34).',
  ROUND_OVER: 'The round has ended; nothing is played until `next-round` (K21-53).',
  ROUND_NOT_OVER: 'The round is still being played.',
  GAME_OVER: 'The game has ended; nothing more can be played (K21-71, K21-80).',
  REGISTERING: 'The cards were dealt at the table and hands are being registered: play starts once every hand is registered or registration is skipped (K21-91, K21-92).',
  TIE_BREAK: 'The game is decided but for the tie-break: the tied players register their hands (K21-97).',
  NOT_REGISTERING: 'No hand is being registered now: only right after a table deal, or for a tie-break at the end (K21-91, K21-97).',
  WRONG_COUNT: 'Not as many cards as the hand holds unseen (K21-91, K21-97): lay down the whole hand.',
  BAD_HAND: 'Those cards cannot be the hand: a card listed twice, or a card the table has seen elsewhere (K21-91).',
  HAND_ALREADY_KNOWN: 'That player has nothing left to register (K21-91, K21-97).',
} as const;

/** A rejection code of this engine. */
export type K21RejectionCode = keyof typeof K21_REJECTIONS;

/** A rejection with a code from this catalogue. */
export type K21Rejection = Rejection<K21RejectionCode>;

/** Builds a rejection (a typed wrapper around `reject`). */
export function refuse(code: K21RejectionCode, message: string): K21Rejection {
  return reject(code, message);
}

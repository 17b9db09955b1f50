/**
 * The facts Zip-Zap gives the one public rule (common/spectator.ts). Every action that names a card or depends
 * on the hands lists its public gates: the refusals the engine decides from the action and public facts (phase,
 * seats, the card ids in play, the pause's controller, the reserve's size, and in the race whether the card
 * follows the face-up top card) before it looks at a hand. Anything after a hand was looked at — not held,
 * someone can play, not that player's hand or ZAP — leaves as HIDDEN_REASON, whichever it was.
 */
import { reject } from '../../kernel/result.ts';
import type { Rejection } from '../common/outcome.ts';
import { publicRefusal, type PublicRefusal, type RefusalRules } from '../common/spectator.ts';
import { cardInfo } from './cards.ts';
import { ZIP_REJECTIONS } from './rejections.ts';

// LATE_PLAY is decided from the landing times alone, before any hand is looked at.
const PHASE_GATES = ['BAD_ACTION', 'GAME_OVER', 'ROUND_OVER', 'WRONG_PHASE', 'TIE_PENDING', 'LATE_PLAY'];
// In the race the engine checks the card against the face-up top card before the hand (landing.ts).
const FOLLOW_GATES = ['DOES_NOT_FOLLOW', 'NOTHING_FOLLOWS_TEN', 'NOTHING_FOLLOWS_ZAP'];

const HIDDEN_ACTIONS: Readonly<Record<string, readonly string[]>> = {
  play: [...PHASE_GATES, 'NOT_A_PLAYER', 'UNKNOWN_CARD', 'NOT_CONTROLLER', ...FOLLOW_GATES],
  // Every ZAP refusal is decided by public facts: the open start, the player's ZAP already on the pile, the top
  // card and who played it.
  zap: [...PHASE_GATES, 'NOT_A_PLAYER', 'NOT_CONTROLLER', 'ZAP_CANNOT_OPEN', 'ZAP_ALREADY_USED', 'ZAP_NOT_ON_OWN_CARD'],
  plays: [...PHASE_GATES, 'NOT_A_PLAYER', 'UNKNOWN_CARD', ...FOLLOW_GATES],
  'register-hand': [...PHASE_GATES, 'NOT_A_PLAYER'],
  'score-hand': [...PHASE_GATES, 'NOT_A_PLAYER', 'ROUND_NOT_OVER'],
  flip: [...PHASE_GATES, 'RESERVE_EMPTY'],
  'declare-stuck': [...PHASE_GATES, 'NOT_A_PLAYER', 'NOT_IN_RACE', 'WRONG_STUCK_DETECTION', 'NO_CONTROLLER'],
  'announce-stuck': [...PHASE_GATES, 'NOT_IN_RACE', 'WRONG_STUCK_DETECTION', 'NO_CONTROLLER'],
};

const RULES: RefusalRules = {
  hiddenActions: HIDDEN_ACTIONS,
  // "Y8 does not follow Y3" cannot be said without the card; a 10 or a ZAP on top is the top card's doing. A card
  // not in play is in no hand.
  cardReasons: ['DOES_NOT_FOLLOW', 'UNKNOWN_CARD'],
  catalogue: ZIP_REJECTIONS,
};

/** The action types whose refusals may depend on hidden facts (the transport's audit trail lists them). */
export const HIDDEN_ACTION_TYPES: readonly string[] = Object.keys(HIDDEN_ACTIONS);

/** A Zip-Zap refusal as it may leave the process. */
export function publicRejection(action: unknown, rejection: Rejection): PublicRefusal {
  return publicRefusal(RULES, { action, rejection });
}

/**
 * A play refused inside a batch (the `PLAY_REJECTED` event, the public view's `rejected`) as it may be published:
 * the same verdict a refused `play` or `zap` request gets, so that watching the refused plays tells no more about
 * a hand than asking would.
 */
export function publicPlayRefusal(card: string | null, code: string, message: string): PublicRefusal {
  const type = card === null || cardInfo(card)?.kind === 'ZAP' ? 'zap' : 'play';
  return publicRejection(card === null ? { type } : { type, card }, reject(code, message));
}

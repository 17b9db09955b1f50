/**
 * Which Zip-Zap refusals may be published as they are (see common/hidden-refusal.ts). Every action that names
 * a card or depends on the hands lists its public gates: the refusals the engine decides from public facts
 * (phase, seats, the card ids in play, the pause's controller, the reserve's size) before it looks at a hand.
 * Anything after a hand was looked at — not held, does not follow, nothing follows, someone can play, not that
 * player's hand or ZAP — leaves as HIDDEN_REASON, whichever it was.
 */
import type { Rejection } from '../common/outcome.ts';
import { publicRefusalOf, type PublicRefusal } from '../common/hidden-refusal.ts';

const PHASE_GATES = ['BAD_ACTION', 'GAME_OVER', 'ROUND_OVER', 'WRONG_PHASE', 'TIE_PENDING'];

const HIDDEN_ACTIONS: Readonly<Record<string, readonly string[]>> = {
  play: [...PHASE_GATES, 'NOT_A_PLAYER', 'UNKNOWN_CARD', 'NOT_CONTROLLER'],
  zap: [...PHASE_GATES, 'NOT_A_PLAYER', 'NOT_CONTROLLER'],
  plays: [...PHASE_GATES, 'NOT_A_PLAYER', 'UNKNOWN_CARD'],
  'register-hand': [...PHASE_GATES, 'NOT_A_PLAYER'],
  'score-hand': [...PHASE_GATES, 'NOT_A_PLAYER', 'ROUND_NOT_OVER'],
  flip: [...PHASE_GATES, 'RESERVE_EMPTY'],
  'declare-stuck': [...PHASE_GATES, 'NOT_A_PLAYER', 'NOT_IN_RACE', 'WRONG_STUCK_DETECTION', 'NO_CONTROLLER'],
  'announce-stuck': [...PHASE_GATES, 'NOT_IN_RACE', 'WRONG_STUCK_DETECTION', 'NO_CONTROLLER'],
};

/** A Zip-Zap refusal as it may leave the process. */
export function publicRejection(action: unknown, rejection: Rejection): PublicRefusal {
  const type = typeof action === 'object' && action !== null ? (action as { type?: unknown }).type : undefined;
  return publicRefusalOf(HIDDEN_ACTIONS, type, rejection);
}

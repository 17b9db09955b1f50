/**
 * Which Zapp Zerapp refusals may be published as they are (see common/hidden-refusal.ts). Until the reveal,
 * where each barrel is (on the mountain, in whose hands, placed by whom) is secret, so the barrel actions keep
 * only the refusals checked before the engine looks at a barrel's location: the phase, the seat, the barrel
 * number. "Chosen by red", "held by green", "you do not hold it" all leave as HIDDEN_REASON.
 */
import type { Rejection } from '../common/outcome.ts';
import { publicRefusalOf, type PublicRefusal } from '../common/hidden-refusal.ts';

const BARREL_GATES = ['BAD_ACTION', 'GAME_OVER', 'WRONG_PHASE', 'UNKNOWN_PLAYER', 'UNKNOWN_BARREL'];

const HIDDEN_ACTIONS: Readonly<Record<string, readonly string[]>> = {
  place: BARREL_GATES,
  'pick-up': BARREL_GATES,
  'put-back': BARREL_GATES,
};

/** The action types whose refusals may depend on hidden facts (the transport's audit trail lists them). */
export const HIDDEN_ACTION_TYPES: readonly string[] = Object.keys(HIDDEN_ACTIONS);

/** A Zapp Zerapp refusal as it may leave the process. */
export function publicRejection(action: unknown, rejection: Rejection): PublicRefusal {
  const type = typeof action === 'object' && action !== null ? (action as { type?: unknown }).type : undefined;
  return publicRefusalOf(HIDDEN_ACTIONS, type, rejection);
}

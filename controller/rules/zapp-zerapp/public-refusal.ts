/**
 * The facts Zapp Zerapp gives the one public rule (common/spectator.ts). Until the reveal,
 * where each barrel is (on the mountain, in whose hands, placed by whom) is secret, so the barrel actions keep
 * only the refusals checked before the engine looks at a barrel's location: the phase, the seat, the barrel
 * number. "Chosen by red", "held by green", "you do not hold it" all leave as HIDDEN_REASON.
 */
import type { Rejection } from '../common/outcome.ts';
import { publicRefusal, type PublicRefusal, type RefusalRules } from '../common/spectator.ts';
import { ZAPP_REJECTIONS } from './rejections.ts';

const BARREL_GATES = ['BAD_ACTION', 'GAME_OVER', 'WRONG_PHASE', 'UNKNOWN_PLAYER', 'UNKNOWN_BARREL'];

const HIDDEN_ACTIONS: Readonly<Record<string, readonly string[]>> = {
  place: BARREL_GATES,
  'pick-up': BARREL_GATES,
  'put-back': BARREL_GATES,
};

// A barrel's number is never the reason: no refusal names one.
const RULES: RefusalRules = { hiddenActions: HIDDEN_ACTIONS, cardReasons: [], catalogue: ZAPP_REJECTIONS };

/** The action types whose refusals may depend on hidden facts (the transport's audit trail lists them). */
export const HIDDEN_ACTION_TYPES: readonly string[] = Object.keys(HIDDEN_ACTIONS);

/** A Zapp Zerapp refusal as it may leave the process. */
export function publicRejection(action: unknown, rejection: Rejection): PublicRefusal {
  return publicRefusal(RULES, { action, rejection });
}

/**
 * The facts Killer-21 gives the one public rule (common/spectator.ts). The hands are secret: every action that
 * names a card or depends on a hand lists its public gates, the refusals decided from the action and public facts
 * (phase, turn, the seats' lives, the Killer window, the card ids of the deck, the public total against the
 * card's value, whether the card is a red 0) before a hand is looked at. Anything after that — not held, could
 * play after all, a registered hand that clashes with what the table has seen — leaves as HIDDEN_REASON.
 */
import type { Rejection } from '../common/outcome.ts';
import { publicRefusal, type PublicRefusal, type RefusalRules } from '../common/spectator.ts';
import { K21_REJECTIONS } from './rejections.ts';

const SHAPE = ['BAD_ACTION', 'UNKNOWN_FIELD'];
// The phase: over, registering the hands dealt at the table, or the tie-break on them (all public).
const PHASE = ['GAME_OVER', 'ROUND_OVER', 'REGISTERING', 'TIE_BREAK'];
const TURN_GATES = [...SHAPE, ...PHASE, 'KILLER_WINDOW_OPEN', 'NOT_A_PLAYER', 'PLAYER_OUT', 'NOT_YOUR_TURN'];
const WINDOW_GATES = [
  ...SHAPE, ...PHASE, 'NO_KILLER_WINDOW', 'NOT_A_PLAYER', 'PLAYER_OUT', 'WINDOW_CLOSED', 'NOT_REQUIRED', 'ALREADY_ANSWERED',
];
// Who still has to register, and how many cards, is public (`registering`, `scoring.pending`); which cards is not.
const REGISTER_GATES = [...SHAPE, 'GAME_OVER', 'NOT_A_PLAYER', 'NOT_REGISTERING', 'PLAYER_OUT', 'HAND_ALREADY_KNOWN', 'WRONG_COUNT'];

const HIDDEN_ACTIONS: Readonly<Record<string, readonly string[]>> = {
  // OVER_21 follows from the card and the public total, and is checked before the hand (plays.ts).
  play: [...TURN_GATES, 'UNKNOWN_CARD', 'OVER_21'],
  'cannot-play': [...TURN_GATES, ...WINDOW_GATES],
  // The card, the answer's landing time and the public window, checked before the hand (killer.ts).
  respond: [...WINDOW_GATES, 'UNKNOWN_CARD', 'NOT_A_ZERO', 'NEEDS_TIME', 'ZERO_BEFORE_KILLER'],
  'register-hand': REGISTER_GATES,
};

// A card not of this deck is in no hand.
const RULES: RefusalRules = { hiddenActions: HIDDEN_ACTIONS, cardReasons: ['OVER_21', 'NOT_A_ZERO', 'UNKNOWN_CARD'], catalogue: K21_REJECTIONS };

/** The action types whose refusals may depend on hidden facts (the transport's audit trail lists them). */
export const HIDDEN_ACTION_TYPES: readonly string[] = Object.keys(HIDDEN_ACTIONS);

/** A Killer-21 refusal as it may leave the process. */
export function publicRejection(action: unknown, rejection: Rejection): PublicRefusal {
  return publicRefusal(RULES, { action, rejection });
}

/**
 * The Killer-21 action vocabulary and its shape check. `parseAction` checks only the JSON shape (unknown
 * fields are refused with `UNKNOWN_FIELD`, other shape errors with `BAD_ACTION`); whether an action is legal
 * now is `apply`'s business. Every action may carry `at` (controller ms).
 */
import { isObj, isTime, type Obj, str } from '../common/json-guards.ts';
import type { K21RejectionCode } from './rejections.ts';

/**
 * The player on turn puts a card on the pile (K21-10..26, K21-30). `uncertaintyMs`: the half width of the honest
 * interval around `at` (0 when omitted); it matters for the Killer, whose landing opens the window (K21-33).
 */
export interface PlayAction {
  readonly type: 'play'; readonly player: string; readonly card: string; readonly at?: number; readonly uncertaintyMs?: number;
}
/**
 * The ZAP button: "I can't". On the player's turn, a bust (K21-40..43); in a Killer window, "I have no red 0"
 * (K21-35).
 */
export interface CannotPlayAction { readonly type: 'cannot-play'; readonly player: string; readonly at?: number }
/**
 * A red 0 put down in answer to the Killer (K21-32). `at` is when it landed (mapped controller ms) and
 * `uncertaintyMs` the half width of the honest interval around it (K21-33); 0 when omitted.
 */
export interface RespondAction {
  readonly type: 'respond'; readonly player: string; readonly card: string; readonly at?: number; readonly uncertaintyMs?: number;
}
/** The Killer window's deadline has passed (the runtime's timer), or a referee closes it (K21-36). */
export interface CloseWindowAction { readonly type: 'close-window'; readonly at?: number }
/** A referee rules on a zero whose landing interval straddles the deadline (K21-34). */
export interface RuleResponseAction { readonly type: 'rule-response'; readonly player: string; readonly inTime: boolean; readonly at?: number }
/** Deal the next round after a player went out (K21-53). */
export interface NextRoundAction { readonly type: 'next-round'; readonly at?: number }

/**
 * `dealing: TABLE`: the unseen cards of a player's hand, read from their pad: the whole dealt hand right after
 * the deal (K21-91), or a tied player's unseen cards for the tie-break (K21-97).
 */
export interface RegisterHandAction {
  readonly type: 'register-hand'; readonly player: string; readonly cards: readonly string[]; readonly at?: number;
}
/** `dealing: TABLE`: play on without the remaining hands (K21-92), or end a tie-break without them (K21-97). */
export interface SkipRegistrationAction { readonly type: 'skip-registration'; readonly at?: number }

/** Every Killer-21 action. */
export type Killer21Action =
  | PlayAction | CannotPlayAction | RespondAction | CloseWindowAction | RuleResponseAction | NextRoundAction
  | RegisterHandAction | SkipRegistrationAction;

/** The action type names. */
export const ACTION_TYPES: readonly Killer21Action['type'][] = [
  'play', 'cannot-play', 'respond', 'close-window', 'rule-response', 'next-round', 'register-hand', 'skip-registration',
];

/** What `parseAction` returns for a malformed action: the message and a code from the catalogue. */
export interface ActionError {
  readonly error: string;
  readonly code: Extract<K21RejectionCode, 'BAD_ACTION' | 'UNKNOWN_FIELD'>;
}

const FIELDS: Readonly<Record<Killer21Action['type'], readonly string[]>> = {
  play: ['player', 'card', 'uncertaintyMs'],
  'cannot-play': ['player'],
  respond: ['player', 'card', 'uncertaintyMs'],
  'close-window': [],
  'rule-response': ['player', 'inTime'],
  'next-round': [],
  'register-hand': ['player', 'cards'],
  'skip-registration': [],
};

function uncertaintyError(type: string, u: unknown): string | null {
  return u === undefined || (isTime(u) && u >= 0) ? null : `${type}: uncertaintyMs must be a number of ms ≥ 0`;
}

function fieldError(type: Killer21Action['type'], v: Obj): string | null {
  switch (type) {
    case 'play':
      if (!str(v.player) || !str(v.card)) return 'play needs player and card';
      return uncertaintyError('play', v.uncertaintyMs);
    case 'cannot-play':
      return str(v.player) ? null : 'cannot-play needs player';
    case 'respond':
      if (!str(v.player) || !str(v.card)) return 'respond needs player and card';
      return uncertaintyError('respond', v.uncertaintyMs);
    case 'rule-response':
      return str(v.player) && typeof v.inTime === 'boolean' ? null : 'rule-response needs player and inTime (true or false)';
    case 'register-hand':
      return str(v.player) && Array.isArray(v.cards) && v.cards.length <= 200 && v.cards.every(str)
        ? null : 'register-hand needs player and cards (a list of card ids)';
    case 'close-window':
    case 'next-round':
    case 'skip-registration':
      return null;
  }
}

/** Checks that an unknown JSON value is a well-formed Killer-21 action (not that it is legal). */
export function parseAction(value: unknown): Killer21Action | ActionError {
  if (!isObj(value)) return { error: 'an action must be a JSON object', code: 'BAD_ACTION' };
  const type = value.type;
  if (typeof type !== 'string' || !(ACTION_TYPES as readonly string[]).includes(type)) {
    return { error: `unknown action type ${JSON.stringify(type)}; one of ${ACTION_TYPES.join(', ')}`, code: 'BAD_ACTION' };
  }
  const t = type as Killer21Action['type'];
  for (const key of Object.keys(value)) {
    if (key !== 'type' && key !== 'at' && !FIELDS[t].includes(key)) return { error: `${t}: unknown field ${key}`, code: 'UNKNOWN_FIELD' };
  }
  if (value.at !== undefined && !isTime(value.at)) return { error: 'at: must be a time in ms', code: 'BAD_ACTION' };
  const error = fieldError(t, value);
  return error === null ? (value as unknown as Killer21Action) : { error, code: 'BAD_ACTION' };
}

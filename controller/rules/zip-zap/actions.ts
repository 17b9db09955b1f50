/**
 * The Zip-Zap action vocabulary and its shape check. `parseAction` checks only the JSON shape; whether an
 * action is legal now is `apply`'s business. Every action may carry `at` (controller ms); a card play may
 * also carry its landing interval (`atEarliest` ≤ `at` ≤ `atLatest`) and what dated it (`timedBy`).
 */
import type { ActionShapeError } from '../engine.ts';
import { isObj, isTime, type Obj, str } from '../common/json-guards.ts';
import type { LandingInterval } from './state.ts';

/** A card lands on the pile: a number card (or the player's ZAP id, treated like `zap`). */
export interface PlayAction extends LandingInterval { readonly type: 'play'; readonly player: string; readonly card: string }
/** The player's ZAP (the buzzer, ZIP-41/42). */
export interface ZapAction extends LandingInterval { readonly type: 'zap'; readonly player: string }
/** One item of a `plays` batch: a number card, or a ZAP. `at` is required so the batch can be ordered. */
export interface BatchPlay extends LandingInterval {
  readonly player: string;
  readonly card?: string;
  readonly zap?: boolean;
  readonly at: number;
}
/** Near-simultaneous plays, applied in timestamp order (ZIP-45); refused items become `PLAY_REJECTED` events. */
export interface PlaysAction { readonly type: 'plays'; readonly plays: readonly BatchPlay[]; readonly at?: number }
/** ORACLE: start the stuck pause the engine detected (sent by the runtime after `stuckAnnounceDelayMs`). */
export interface AnnounceStuckAction { readonly type: 'announce-stuck'; readonly at?: number }
/** TIMEOUT/HUMAN: a player (or the referee) says nobody can follow (ZIP-Q-3). */
export interface DeclareStuckAction { readonly type: 'declare-stuck'; readonly player?: string; readonly at?: number }
/** A human says whose play landed first in a pending tie. */
export interface ResolveTieAction { readonly type: 'resolve-tie'; readonly first: string; readonly at?: number }
/** Deal the next round after a round has ended (ZIP-52). */
export interface NextRoundAction { readonly type: 'next-round'; readonly at?: number }
/** Flip the start card (ZIP-10/11). ENGINE dealing: no `card` (the engine flips). TABLE dealing: the card seen. */
export interface FlipAction { readonly type: 'flip'; readonly card?: string; readonly at?: number }
/** TABLE dealing: a player's whole dealt hand, including their ZAP (Part C.3 hand registration). */
export interface RegisterHandAction { readonly type: 'register-hand'; readonly player: string; readonly cards: readonly string[]; readonly at?: number }
/** TABLE dealing: play on without registering the remaining hands. */
export interface SkipRegistrationAction { readonly type: 'skip-registration'; readonly at?: number }
/** TABLE dealing: an unknown hand's cards at round end, for scoring (ZIP-51). */
export interface ScoreHandAction { readonly type: 'score-hand'; readonly player: string; readonly cards: readonly string[]; readonly at?: number }

/** Every Zip-Zap action. */
export type ZipZapAction =
  | PlayAction | ZapAction | PlaysAction | AnnounceStuckAction | DeclareStuckAction | ResolveTieAction
  | NextRoundAction | FlipAction | RegisterHandAction | SkipRegistrationAction | ScoreHandAction;

/** The action type names. */
export const ACTION_TYPES: readonly ZipZapAction['type'][] = [
  'play', 'zap', 'plays', 'announce-stuck', 'declare-stuck', 'resolve-tie', 'next-round', 'flip',
  'register-hand', 'skip-registration', 'score-hand',
];

function cardList(v: unknown): v is string[] {
  return Array.isArray(v) && v.every(str);
}

/** The landing interval's fields, on every card play. */
const INTERVAL_FIELDS = ['atEarliest', 'atLatest', 'timedBy'] as const;
const TIMED_BY: readonly string[] = ['slap', 'tag', 'button'];

const FIELDS: Readonly<Record<ZipZapAction['type'], readonly string[]>> = {
  play: ['player', 'card', ...INTERVAL_FIELDS],
  zap: ['player', ...INTERVAL_FIELDS],
  plays: ['plays'],
  'announce-stuck': [],
  'declare-stuck': ['player'],
  'resolve-tie': ['first'],
  'next-round': [],
  flip: ['card'],
  'register-hand': ['player', 'cards'],
  'skip-registration': [],
  'score-hand': ['player', 'cards'],
};

/** The landing interval of a play: both bounds or neither, around `at`; `timedBy` one of the known sources. */
function intervalError(v: Obj, where: string): string | null {
  const { at, atEarliest, atLatest, timedBy } = v;
  if ((atEarliest === undefined) !== (atLatest === undefined)) return `${where}atEarliest, atLatest: give both or neither`;
  if (atEarliest !== undefined) {
    if (!isTime(atEarliest) || !isTime(atLatest)) return `${where}atEarliest, atLatest: must be times in ms`;
    if (!isTime(at)) return `${where}at: required with a landing interval`;
    if (!(atEarliest <= at && at <= atLatest)) return `${where}at: must lie in [atEarliest, atLatest]`;
  }
  if (timedBy !== undefined && !(typeof timedBy === 'string' && TIMED_BY.includes(timedBy))) {
    return `${where}timedBy: one of ${TIMED_BY.join(', ')}`;
  }
  return null;
}

function batchItemError(item: unknown, i: number): string | null {
  if (!isObj(item)) return `plays.${i}: must be an object`;
  for (const k of Object.keys(item)) if (!['player', 'card', 'zap', 'at', ...INTERVAL_FIELDS].includes(k)) return `plays.${i}.${k}: unknown field`;
  if (!str(item.player)) return `plays.${i}.player: required, a player id`;
  if (!isTime(item.at)) return `plays.${i}.at: required, a time in ms`;
  const interval = intervalError(item, `plays.${i}.`);
  if (interval !== null) return interval;
  const hasCard = item.card !== undefined;
  if (hasCard && !str(item.card)) return `plays.${i}.card: must be a card id`;
  if (item.zap !== undefined && item.zap !== true) return `plays.${i}.zap: must be true when given`;
  if (hasCard === (item.zap === true)) return `plays.${i}: give exactly one of card or zap`;
  return null;
}

function fieldError(type: ZipZapAction['type'], v: Obj): string | null {
  switch (type) {
    case 'play':
      return str(v.player) && str(v.card) ? intervalError(v, '') : 'play needs player and card';
    case 'zap':
      return str(v.player) ? intervalError(v, '') : 'zap needs player';
    case 'plays': {
      if (!Array.isArray(v.plays) || v.plays.length === 0) return 'plays needs a non-empty list of plays';
      for (let i = 0; i < v.plays.length; i++) {
        const error = batchItemError(v.plays[i], i);
        if (error !== null) return error;
      }
      return null;
    }
    case 'declare-stuck':
      return v.player === undefined || str(v.player) ? null : 'declare-stuck: player must be a player id when given';
    case 'resolve-tie':
      return str(v.first) ? null : 'resolve-tie needs first (a player id)';
    case 'flip':
      return v.card === undefined || str(v.card) ? null : 'flip: card must be a card id when given';
    case 'register-hand':
    case 'score-hand':
      return str(v.player) && cardList(v.cards) ? null : `${type} needs player and cards (a list of card ids)`;
    case 'announce-stuck':
    case 'next-round':
    case 'skip-registration':
      return null;
  }
}

/** Checks that an unknown JSON value is a well-formed Zip-Zap action (not that it is legal). */
export function parseAction(value: unknown): ZipZapAction | ActionShapeError {
  if (!isObj(value)) return { error: 'an action must be a JSON object', code: 'BAD_ACTION' };
  const type = value.type;
  if (typeof type !== 'string' || !(ACTION_TYPES as readonly string[]).includes(type)) {
    return { error: `unknown action type ${JSON.stringify(type)}; one of ${ACTION_TYPES.join(', ')}`, code: 'BAD_ACTION' };
  }
  const t = type as ZipZapAction['type'];
  for (const key of Object.keys(value)) {
    if (key !== 'type' && key !== 'at' && !FIELDS[t].includes(key)) return { error: `${t}: unknown field ${key}`, code: 'UNKNOWN_FIELD' };
  }
  if (value.at !== undefined && !isTime(value.at)) return { error: 'at: must be a time in ms', code: 'BAD_ACTION' };
  const error = fieldError(t, value);
  return error === null ? (value as unknown as ZipZapAction) : { error, code: 'BAD_ACTION' };
}

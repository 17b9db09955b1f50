/**
 * The action vocabulary (documented in docs/rules-engine.md (Zapp Zerapp)) and its shape check. `parseAction`
 * checks form only; legality is `apply`'s job.
 */
import type { ActionShapeError } from '../engine.ts';
import { VIOLATION_KINDS, type ViolationKind } from './state.ts';

interface Timed {
  /** Controller time in ms; only `selectTimeoutMs` uses it. */
  readonly at?: number;
}

/** ZAPP-10: the engine rolls 2d6 with its seeded generator. `player` is who pressed roll (checked under ROTATE). */
export interface RollAction extends Timed { readonly type: 'roll'; readonly player?: string }
/** ZAPP-10: a person enters the dice rolled at the table. */
export interface EnterDiceAction extends Timed { readonly type: 'enter-dice'; readonly d1: number; readonly d2: number; readonly player?: string }
/** ZAPP-20/22: a barrel goes from the mountain into the player's hands (optional; hands are not sensed). */
export interface PickUpAction extends Timed { readonly type: 'pick-up'; readonly player: string; readonly barrel: number }
/** ZAPP-26: a held barrel goes back to the mountain. */
export interface PutBackAction extends Timed { readonly type: 'put-back'; readonly player: string; readonly barrel: number }
/** ZAPP-24: the player commits this barrel (held, or straight from the mountain). Final. */
export interface PlaceAction extends Timed { readonly type: 'place'; readonly player: string; readonly barrel: number }
/** ZAPP-27: everybody turns their barrel over. */
export interface RevealAction extends Timed { readonly type: 'reveal' }
/** ZAPP-31: the current mover moves one piece by its barrel number; PRO carry and city choices (ZAPP-63, ZAPP-67). */
export interface MoveAction extends Timed {
  readonly type: 'move';
  readonly player: string;
  readonly piece: string;
  /** PRO: one entry for every carryable piece on the path (ZAPP-63); true = carry it. */
  readonly carry?: Readonly<Record<string, boolean>>;
  /** PRO, entering the city: for each own carried piece, true = into the city, false = in front of it (ZAPP-67). */
  readonly intoCity?: Readonly<Record<string, boolean>>;
  /**
   * Where the mover says the piece ends: a field number or `"CITY"`. Optional; when given, a move whose
   * barrel number takes the piece elsewhere is refused (`WRONG_DESTINATION`), so "RED1 to field 8" can be
   * checked as said at the table. Without it, the piece goes where its barrel number takes it.
   */
  readonly to?: number | 'CITY';
}
/** ZAPP-Q-5 option: decline to move (only with moveMandatory false). */
export interface PassAction extends Timed { readonly type: 'pass'; readonly player: string }
/** ZAPP-57 CLAIM mode: the mover claims banishments before the next mover acts. */
export interface ClaimAction extends Timed { readonly type: 'claim'; readonly player: string; readonly pieces: readonly string[] }
/** ZAPP-Q-11: record a conduct violation; the game is otherwise unchanged. */
export interface ReportViolationAction extends Timed {
  readonly type: 'report-violation';
  readonly player: string;
  readonly kind: ViolationKind;
  readonly detail?: string;
}

/** Every Zapp Zerapp action; each is a JSON object with a `type`. */
export type ZappAction =
  | RollAction | EnterDiceAction | PickUpAction | PutBackAction | PlaceAction | RevealAction
  | MoveAction | PassAction | ClaimAction | ReportViolationAction;

/** Action type names. */
export const ACTION_TYPES = ['roll', 'enter-dice', 'pick-up', 'put-back', 'place', 'reveal', 'move', 'pass', 'claim',
  'report-violation'] as const;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

function boolMap(v: unknown, key: string): Record<string, boolean> | string | undefined {
  if (v === undefined) return undefined;
  if (!isObj(v) || !Object.values(v).every((b) => typeof b === 'boolean')) return `${key} must map piece ids to true/false`;
  return v as Record<string, boolean>;
}

/** The fields each action type may have besides `type` and `at`; anything else is refused (a typo must not pass). */
const FIELDS: Readonly<Record<ZappAction['type'], readonly string[]>> = {
  roll: ['player'],
  'enter-dice': ['d1', 'd2', 'player'],
  'pick-up': ['player', 'barrel'],
  'put-back': ['player', 'barrel'],
  place: ['player', 'barrel'],
  reveal: [],
  move: ['player', 'piece', 'carry', 'intoCity', 'to'],
  pass: ['player'],
  claim: ['player', 'pieces'],
  'report-violation': ['player', 'kind', 'detail'],
};

/** Checks that an unknown JSON value is a well-formed action; unknown fields are refused, as in Zip-Zap. */
export function parseAction(value: unknown): ZappAction | ActionShapeError {
  const parsed = parseShape(value);
  return 'error' in parsed ? { error: parsed.error, code: parsed.code ?? 'BAD_ACTION' } : parsed;
}

/** The shape check; every refusal but an unknown field is `BAD_ACTION`. */
function parseShape(value: unknown): ZappAction | { readonly error: string; readonly code?: 'UNKNOWN_FIELD' } {
  if (!isObj(value)) return { error: 'an action must be a JSON object' };
  if (typeof value.type === 'string' && Object.hasOwn(FIELDS, value.type)) {
    const allowed = FIELDS[value.type as ZappAction['type']];
    for (const key of Object.keys(value)) {
      if (key !== 'type' && key !== 'at' && !allowed.includes(key)) return { error: `${value.type}: unknown field ${key}`, code: 'UNKNOWN_FIELD' };
    }
  }
  const at = value.at;
  if (at !== undefined && !(typeof at === 'number' && Number.isFinite(at))) return { error: 'at must be a number (ms)' };
  const t = at === undefined ? {} : { at };
  const { player, barrel } = value;
  const needPlayer = (): string | undefined => (isStr(player) ? undefined : `${String(value.type)} needs a player id`);
  switch (value.type) {
    case 'roll':
      if (player !== undefined && !isStr(player)) return { error: 'roll: player must be a string' };
      return { type: 'roll', ...(isStr(player) ? { player } : {}), ...t };
    case 'enter-dice':
      if (!isInt(value.d1) || !isInt(value.d2)) return { error: 'enter-dice needs integer d1 and d2' };
      if (player !== undefined && !isStr(player)) return { error: 'enter-dice: player must be a string' };
      return { type: 'enter-dice', d1: value.d1, d2: value.d2, ...(isStr(player) ? { player } : {}), ...t };
    case 'pick-up':
    case 'put-back':
    case 'place': {
      const err = needPlayer();
      if (err !== undefined || !isStr(player)) return { error: err ?? '' };
      if (!isInt(barrel)) return { error: `${value.type} needs an integer barrel` };
      return { type: value.type, player, barrel, ...t };
    }
    case 'reveal':
      return { type: 'reveal', ...t };
    case 'move': {
      if (!isStr(player) || !isStr(value.piece)) return { error: 'move needs player and piece' };
      const carry = boolMap(value.carry, 'carry');
      const intoCity = boolMap(value.intoCity, 'intoCity');
      if (typeof carry === 'string') return { error: carry };
      if (typeof intoCity === 'string') return { error: intoCity };
      const to = value.to;
      if (to !== undefined && to !== 'CITY' && !(isInt(to) && to >= 0)) return { error: 'move: to must be a field number or "CITY"' };
      return { type: 'move', player, piece: value.piece, ...(carry ? { carry } : {}), ...(intoCity ? { intoCity } : {}),
        ...(to === undefined ? {} : { to }), ...t };
    }
    case 'pass':
      return isStr(player) ? { type: 'pass', player, ...t } : { error: 'pass needs a player id' };
    case 'claim':
      if (!isStr(player)) return { error: 'claim needs a player id' };
      if (!Array.isArray(value.pieces) || value.pieces.length === 0 || !value.pieces.every(isStr)) {
        return { error: 'claim needs a non-empty list of piece ids' };
      }
      return { type: 'claim', player, pieces: value.pieces, ...t };
    case 'report-violation': {
      if (!isStr(player)) return { error: 'report-violation needs a player id' };
      const kind = value.kind;
      if (typeof kind !== 'string' || !(kind in VIOLATION_KINDS)) {
        return { error: `report-violation: kind must be one of ${Object.keys(VIOLATION_KINDS).join(', ')}` };
      }
      if (value.detail !== undefined && typeof value.detail !== 'string') return { error: 'report-violation: detail must be a string' };
      const detail = value.detail;
      return { type: 'report-violation', player, kind: kind as ViolationKind, ...(detail === undefined ? {} : { detail }), ...t };
    }
    default:
      return { error: `unknown action type ${JSON.stringify(value.type)}; expected one of ${ACTION_TYPES.join(', ')}` };
  }
}

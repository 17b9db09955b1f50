/**
 * Shape checks for the pieces of a scenario setup (`mode`, `top`, `pile` entries). They throw `SetupError`,
 * which `fromScenario` turns into a `BAD_SETUP` rejection: the error never leaves the engine.
 */
import { isObj } from '../common/json-guards.ts';
import type { Mode, PauseCause, PlayKind, PlayRecord } from './state.ts';

/** A JSON object. */

/** A problem in a scenario setup; caught by `fromScenario` and reported as BAD_SETUP. */
export class SetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SetupError';
  }
}

function fail(message: string): never {
  throw new SetupError(message);
}

const CAUSES: readonly PauseCause[] = ['TEN', 'STUCK', 'ZAP'];
const KINDS: readonly PlayKind[] = ['START_FLIP', 'FOLLOW', 'RESTART', 'OPEN', 'ZAP', 'EARLIER'];

/** `{kind: 'RACE'}`, `{kind: 'PAUSED', controller, cause}`, `{kind: 'OPEN_START'}`, `{kind: 'START'}`, `{kind: 'ROUND_OVER', winner}`. */
export function parseMode(v: unknown, players: readonly string[]): Mode {
  if (!isObj(v)) fail('mode: an object with a kind');
  switch (v.kind) {
    case 'RACE':
    case 'OPEN_START':
    case 'START':
      return { kind: v.kind };
    case 'PAUSED': {
      if (!players.includes(v.controller as string)) fail('mode.controller: a player id');
      if (!CAUSES.includes(v.cause as PauseCause)) fail(`mode.cause: one of ${CAUSES.join(', ')}`);
      return { kind: 'PAUSED', controller: v.controller as string, cause: v.cause as PauseCause };
    }
    case 'ROUND_OVER': {
      if (!players.includes(v.winner as string)) fail('mode.winner: a player id');
      return { kind: 'ROUND_OVER', winner: v.winner as string, pending: [], points: {} };
    }
    default:
      return fail('mode.kind: one of RACE, PAUSED, OPEN_START, START, ROUND_OVER');
  }
}

/**
 * A pile entry: `"R3"` (flipped, or played earlier when under the top) or `{card, by?, kind?, at?}`. `by`
 * omitted or null means flipped from the reserve. The card id is checked by the caller.
 */
export function parsePlayRecord(v: unknown, where: string, players: readonly string[], defaultKind: PlayKind): PlayRecord {
  if (typeof v === 'string' && v.startsWith('Z')) fail(`${where}: a ZAP on the pile needs {card, by}`);
  if (typeof v === 'string') return { card: v, by: null, kind: defaultKind === 'FOLLOW' ? 'START_FLIP' : defaultKind };
  if (!isObj(v) || typeof v.card !== 'string') fail(`${where}: a card id or {card, by}`);
  const by = v.by === undefined || v.by === null ? null : v.by;
  if (by !== null && !players.includes(by as string)) fail(`${where}.by: a player id or null (flipped)`);
  const card = v.card;
  const isZap = /^Z/.test(card);
  const kind = v.kind === undefined
    ? (by === null ? (defaultKind === 'FOLLOW' ? 'START_FLIP' : defaultKind) : isZap ? 'ZAP' : 'FOLLOW')
    : v.kind;
  if (!KINDS.includes(kind as PlayKind)) fail(`${where}.kind: one of ${KINDS.join(', ')}`);
  if (kind === 'ZAP' && by === null) fail(`${where}: a ZAP is always played by someone`);
  const at = typeof v.at === 'number' ? { at: v.at } : {};
  return { card, by: by as string | null, kind: kind as PlayKind, ...at };
}

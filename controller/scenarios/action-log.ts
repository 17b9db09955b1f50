/**
 * The action log format (docs/rules-engine.md, "Action log format"): a game, its configuration, its seed and
 * the actions applied, in order. Replaying a log reproduces the game exactly, because the engines are pure
 * and their randomness is seeded.
 */
import type { Checked, Ok, Rejection } from '../kernel/result.ts';
import type { BaseAction, GameId } from '../rules/engine.ts';
import { GAME_IDS, getEngine, isGameId } from '../rules/games.ts';

export interface ActionLog {
  readonly game: GameId;
  readonly config: Record<string, unknown> & { readonly players: readonly string[] };
  readonly seed: number | string;
  readonly actions: readonly unknown[];
}

export type ReplayResult =
  | Ok<{ readonly state: unknown; readonly applied: number }>
  | (Rejection & { readonly index: number; readonly state?: unknown });

/** Checks the shape of a parsed JSON value; reports every problem at once. */
export function parseActionLog(value: unknown): Checked<{ log: ActionLog }> {
  const errors: string[] = [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, errors: ['(root): must be a JSON object'] };
  const v = value as Record<string, unknown>;
  if (!isGameId(v.game)) errors.push(`game: must be ${GAME_IDS.map((id) => `"${id}"`).join(' or ')}`);
  const config = v.config;
  if (typeof config !== 'object' || config === null || !Array.isArray((config as Record<string, unknown>).players)) {
    errors.push('config: required, an object with a "players" list');
  }
  if (typeof v.seed !== 'number' && typeof v.seed !== 'string') errors.push('seed: required, a number or a string');
  if (!Array.isArray(v.actions)) errors.push('actions: required, a list');
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, log: v as unknown as ActionLog };
}

/** Sets the game up and applies every action; stops at the first malformed or rejected action. */
export function replayLog(log: ActionLog): ReplayResult {
  const engine = getEngine(log.game);
  const setup = engine.setup(log.config, log.seed);
  if (!setup.ok) return { ok: false, index: -1, code: setup.code, message: `setup: ${setup.message}` };
  let state = setup.state;
  for (const [index, raw] of log.actions.entries()) {
    const action = engine.parseAction(raw);
    if ('error' in action) return { ok: false, index, code: action.code, message: action.error, state };
    const outcome = engine.apply(state, action);
    if (!outcome.ok) return { ok: false, index, code: outcome.code, message: outcome.message, state };
    state = outcome.state;
  }
  return { ok: true, state, applied: log.actions.length };
}

/** Builds a log from a played game, e.g. to save a simulated game for replay. */
export function toActionLog(game: GameId, config: ActionLog['config'], seed: number | string, actions: readonly BaseAction[]): ActionLog {
  return { game, config, seed, actions };
}

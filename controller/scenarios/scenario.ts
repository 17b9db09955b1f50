/**
 * The scenario file format (docs/rules-engine.md, "Scenario format"): a game setup, which may start mid-game,
 * and cases of actions with expected results. `parseScenario` checks the shape of an unknown JSON value and
 * reports every problem at once, each with its path.
 */
import type { Checked } from '../kernel/result.ts';
import { GAME_IDS, isGameId } from '../rules/games.ts';
import type { GameId } from '../rules/engine.ts';

/** The games a scenario may be about: every registered game. */
export { GAME_IDS };

/** What to check after a step (or at the end of a case). */
export interface Expectation {
  /** The action must be rejected with exactly this code. */
  readonly rejected?: string;
  /** path → value on the omniscient view. */
  readonly state?: Readonly<Record<string, unknown>>;
  /** path → value on the public view. */
  readonly public?: Readonly<Record<string, unknown>>;
  /** Strings that must not occur in the public view's JSON. */
  readonly publicLacks?: readonly string[];
  /** Partial events that must appear, in this order, among the step's events. */
  readonly events?: readonly unknown[];
}

export interface ScenarioStep {
  readonly action: unknown;
  readonly expect?: Expectation;
}

export interface ScenarioCase {
  readonly name: string;
  readonly steps: readonly ScenarioStep[];
  readonly expect?: Expectation;
}

export interface Scenario {
  readonly id: string;
  readonly title: string;
  readonly rules: readonly string[];
  readonly game: GameId;
  readonly setup: unknown;
  readonly cases: readonly ScenarioCase[];
}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const EXPECT_KEYS = new Set(['rejected', 'state', 'public', 'publicLacks', 'events']);

function checkExpectation(v: unknown, path: string, errors: string[], final: boolean): void {
  if (!isObj(v)) {
    errors.push(`${path}: must be an object`);
    return;
  }
  for (const key of Object.keys(v)) {
    if (!EXPECT_KEYS.has(key)) errors.push(`${path}.${key}: unknown expectation key`);
  }
  if (final && ('rejected' in v || 'events' in v)) errors.push(`${path}: a case's final expect may not use 'rejected' or 'events'`);
  if ('rejected' in v && typeof v.rejected !== 'string') errors.push(`${path}.rejected: must be a rejection code string`);
  for (const key of ['state', 'public'] as const) {
    if (key in v && !isObj(v[key])) errors.push(`${path}.${key}: must be an object of path → value`);
  }
  if ('publicLacks' in v && !(Array.isArray(v.publicLacks) && v.publicLacks.every((s) => typeof s === 'string'))) {
    errors.push(`${path}.publicLacks: must be a list of strings`);
  }
  if ('events' in v && !Array.isArray(v.events)) errors.push(`${path}.events: must be a list of partial events`);
}

/** Validates a parsed JSON value as a scenario. */
export function parseScenario(value: unknown): Checked<{ scenario: Scenario }> {
  const errors: string[] = [];
  if (!isObj(value)) return { ok: false, errors: ['(root): a scenario must be a JSON object'] };
  if (typeof value.id !== 'string' || value.id === '') errors.push('id: required, a non-empty string');
  if (value.title !== undefined && typeof value.title !== 'string') errors.push('title: must be a string');
  if (value.rules !== undefined && !(Array.isArray(value.rules) && value.rules.every((r) => typeof r === 'string'))) {
    errors.push('rules: must be a list of rule ids');
  }
  if (!isGameId(value.game)) errors.push(`game: must be one of ${GAME_IDS.join(', ')}`);
  if (!('setup' in value)) errors.push('setup: required');
  if (!Array.isArray(value.cases) || value.cases.length === 0) {
    errors.push('cases: required, a non-empty list');
  } else {
    value.cases.forEach((c: unknown, i) => {
      const p = `cases.${i}`;
      if (!isObj(c)) {
        errors.push(`${p}: must be an object`);
        return;
      }
      if (typeof c.name !== 'string' || c.name === '') errors.push(`${p}.name: required, a non-empty string`);
      if (!Array.isArray(c.steps)) {
        errors.push(`${p}.steps: required, a list`);
      } else {
        c.steps.forEach((s: unknown, j) => {
          if (!isObj(s) || !('action' in s)) errors.push(`${p}.steps.${j}: must be an object with an 'action'`);
          else if (s.expect !== undefined) checkExpectation(s.expect, `${p}.steps.${j}.expect`, errors, false);
        });
      }
      if (c.expect !== undefined) checkExpectation(c.expect, `${p}.expect`, errors, true);
    });
  }
  if (errors.length > 0) return { ok: false, errors };
  const v = value as unknown as Omit<Scenario, 'title' | 'rules'> & { title?: string; rules?: string[] };
  return { ok: true, scenario: { ...v, title: v.title ?? '', rules: v.rules ?? [] } };
}

/**
 * The type guards the engines' parsers use on untrusted JSON (actions, configurations, scenario files),
 * declared once so that "an object", "a name" and "a time" mean the same in every game.
 */

/** A JSON object's fields. */
export type Obj = Record<string, unknown>;

/** True for a JSON object (not an array, not null). */
export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** True for a non-empty string (a player, a card id). */
export function str(v: unknown): v is string {
  return typeof v === 'string' && v !== '';
}

/** True for a finite number (an action's `at`, in ms). */
export function isTime(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

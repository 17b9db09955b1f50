/**
 * Small helpers for scenario expectations: read a value at a dot-separated path, compare JSON values,
 * and match a partial object against a full one. Scenario files address views with these paths.
 */

/** Reads `a.b.0.c` from a JSON value. `length` works on arrays and strings. Missing → undefined. */
export function readPath(value: unknown, path: string): unknown {
  if (path === '') return value;
  let current: unknown = value;
  for (const key of path.split('.')) {
    if (current === null || current === undefined) return undefined;
    if (Array.isArray(current)) {
      if (key === 'length') current = current.length;
      else if (/^\d+$/.test(key)) current = current[Number(key)];
      else return undefined;
    } else if (typeof current === 'object') {
      current = Object.prototype.hasOwnProperty.call(current, key) ? (current as Record<string, unknown>)[key] : undefined;
    } else if (typeof current === 'string' && key === 'length') {
      current = current.length;
    } else {
      return undefined;
    }
  }
  return current;
}

/** Structural equality of JSON values (key order ignored). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * True when `partial` is a deep subset of `full`: every key of a partial object must match, arrays must
 * match element by element (same length), scalars must be equal.
 */
export function matchesPartial(full: unknown, partial: unknown): boolean {
  if (partial === null || typeof partial !== 'object') return deepEqual(full, partial);
  if (Array.isArray(partial)) {
    return Array.isArray(full) && full.length === partial.length && partial.every((p, i) => matchesPartial(full[i], p));
  }
  if (full === null || typeof full !== 'object' || Array.isArray(full)) return false;
  return Object.entries(partial).every(([k, v]) => matchesPartial((full as Record<string, unknown>)[k], v));
}

/** Stable, short rendering of a value for failure messages. */
export function show(value: unknown): string {
  // JSON.stringify returns undefined for undefined (its typing says string).
  const text = JSON.stringify(value) as string | undefined;
  if (text === undefined) return 'undefined';
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

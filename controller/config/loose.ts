/**
 * Readers for data that may not match the schema yet. The cross-field checks run even when the schema found
 * mistakes (so that every error is reported at once), so they must never assume a shape.
 */

export type Rec = Record<string, unknown>;

export function isRecord(value: unknown): value is Rec {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function rec(value: unknown): Rec {
  return isRecord(value) ? value : {};
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? (value as unknown[]) : [];
}

export function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A deep copy of plain JSON-like data (what YAML and the environment produce). */
export function cloneData<T>(value: T): T {
  return structuredClone(value);
}

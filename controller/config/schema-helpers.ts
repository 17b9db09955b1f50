/**
 * Small builders for the configuration schema. Every key carries a `description` (the reference table in
 * docs/configuration.md is generated from it) and, where it has one, a `default` that ajv fills in.
 *
 * Two annotations of our own ride on the JSON Schema (ajv is told they are annotations, see validate.ts):
 * - `x-secret`: the value is a password or token: masked in every printout, never echoed in an error.
 * - `x-message`: the sentence to show instead of ajv's generic one (a regex pattern says little to a user).
 */
import { Type, type SchemaOptions, type TSchema, type TUnsafe, type Static } from '@sinclair/typebox';

/** Annotation keywords this project adds to JSON Schema. */
export const ANNOTATIONS = ['x-secret', 'x-message', 'x-default-text'] as const;

/** Options every key may carry. `x-default-text` describes a default that is derived, not literal. */
export interface KeyOptions extends SchemaOptions {
  readonly description: string;
  readonly 'x-secret'?: boolean;
  readonly 'x-message'?: string;
  readonly 'x-default-text'?: string;
}

/**
 * A value that may also be `null`. Built as `type: [T, "null"]` rather than `anyOf`, so a wrong value gets one
 * clear error instead of one per branch.
 */
export function Nullable<T extends TSchema>(schema: T, options: KeyOptions): TUnsafe<Static<T> | null> {
  const { type, ...rest } = schema as unknown as Record<string, unknown>;
  if (typeof type !== 'string') throw new Error('Nullable() needs a schema with a single type');
  const extra = Array.isArray(rest.enum) ? { enum: [...(rest.enum as unknown[]), null] } : {};
  return Type.Unsafe<Static<T> | null>({ ...rest, ...extra, type: [type, 'null'], ...options });
}

/** A string enum (`enum` keyword: one error, and the allowed values are listed in it). */
export function Choice<const T extends readonly string[]>(values: T, options: KeyOptions): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** A whole number of milliseconds ≥ `min`. */
export function Ms(options: KeyOptions & { readonly default?: number }, min = 0) {
  return Type.Integer({ minimum: min, ...options });
}

/** A TCP port. 0 is refused: a port picked at random cannot be found by the dashboard or other clients. */
export function Port(options: KeyOptions) {
  return Type.Integer({ minimum: 1, maximum: 65535, ...options });
}

/** A password or token: never printed. */
export function Secret(options: KeyOptions & { readonly minLength?: number }) {
  return Type.String({ minLength: 1, ...options, 'x-secret': true });
}

/** An object whose unknown keys are errors (a typo must never be silently ignored). */
export function Section<P extends Record<string, TSchema>>(properties: P, options: KeyOptions) {
  return Type.Object(properties, { additionalProperties: false, ...options });
}

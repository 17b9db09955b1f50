/**
 * Walks the JSON Schema by key path: environment overrides find the key (and its type) a variable names,
 * masking finds the secrets, the reference table lists every key.
 */
import type { TSchema } from '@sinclair/typebox';

export type JsonSchema = Readonly<Record<string, unknown>>;

export function asSchema(schema: TSchema): JsonSchema {
  return schema;
}

/** The schema's own properties, or undefined for a schema that is not a closed object. */
export function propertiesOf(schema: JsonSchema): Readonly<Record<string, JsonSchema>> | undefined {
  const props = schema.properties;
  return typeof props === 'object' && props !== null ? (props as Record<string, JsonSchema>) : undefined;
}

/** The schema of array items, if `schema` is an array. */
export function itemsOf(schema: JsonSchema): JsonSchema | undefined {
  const items = schema.items;
  return typeof items === 'object' && items !== null && !Array.isArray(items) ? (items as JsonSchema) : undefined;
}

/** Every JSON type a value may have under `schema` (looking into `anyOf` branches). */
export function typesOf(schema: JsonSchema): string[] {
  const own = schema.type;
  const types = Array.isArray(own) ? own.map(String) : typeof own === 'string' ? [own] : [];
  const branches = Array.isArray(schema.anyOf) ? (schema.anyOf as JsonSchema[]) : [];
  return [...types, ...branches.flatMap(typesOf)];
}

/** The schema at a dotted path of a value (array indices included), or undefined if the path leaves the schema. */
export function schemaAt(root: JsonSchema, path: readonly string[]): JsonSchema | undefined {
  let schema: JsonSchema | undefined = root;
  for (const segment of path) {
    if (schema === undefined) return undefined;
    const props = propertiesOf(schema);
    if (props) schema = props[segment];
    else if (/^\d+$/.test(segment)) schema = itemsOf(schema);
    else return undefined;
  }
  return schema;
}

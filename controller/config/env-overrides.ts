/**
 * Environment overrides: secrets stay out of the file, and a deployment (systemd, Docker) can change a value
 * without editing it. Precedence: environment over file over defaults; validation runs after the overrides,
 * so an overridden value is checked like any other (its errors name the variable).
 *
 * - `ZAPTABLE_MQTT_PASSWORD` → `mqtt.controller.password`, `ZAPTABLE_DASHBOARD_TOKEN` → `dashboard.token`.
 * - `ZAPTABLE__SECTION__KEY=value` for any key: `__` separates the path, case and `_` inside a segment are
 *   ignored (`ZAPTABLE__MQTT__EMBEDDED__WEBSOCKET_PORT` → `mqtt.embedded.websocketPort`), a number selects a
 *   list entry that the file has (`ZAPTABLE__TABLES__0__SEED=42`). Applied after the two shortcuts, so it wins.
 * - Values are text; they are converted only to the type the key takes (a number for a port, true/false for a
 *   switch, null where null is allowed, JSON for a list or mapping): the file's own values are never coerced.
 * - An empty value counts as unset (as Docker and systemd leave variables they cannot remove).
 */
import { RULES_KEYS } from './check-rules.ts';
import { configError, type ConfigError } from './errors.ts';
import { isRecord, type Rec } from './loose.ts';
import { ZaptableSchema } from './schema.ts';
import { asSchema, itemsOf, propertiesOf, schemaAt, typesOf, type JsonSchema } from './schema-walk.ts';
import { didYouMean } from './suggest.ts';

export type Env = Readonly<Record<string, string | undefined>>;

/** The named shortcuts for secrets. */
export const SECRET_VARIABLES: Readonly<Record<string, readonly string[]>> = {
  ZAPTABLE_MQTT_PASSWORD: ['mqtt', 'controller', 'password'],
  ZAPTABLE_DASHBOARD_TOKEN: ['dashboard', 'token'],
};

export const GENERIC_PREFIX = 'ZAPTABLE__';

export interface EnvResult {
  /** Dotted path → the variable that set it (for notes and for naming the variable in errors). */
  readonly origins: ReadonlyMap<string, string>;
  readonly errors: ConfigError[];
}

const squash = (s: string): string => s.toLowerCase().replace(/_/g, '');
const ROOT = asSchema(ZaptableSchema);
const RULES_NAMES = [...new Set(Object.values(RULES_KEYS).flat())];

/** Maps the variable's segments to real keys (and the leaf schema); an error names the first unknown one. */
type Resolved = { path: string[]; schema: JsonSchema | undefined } | { error: string; at: string[] };

function resolvePath(segments: readonly string[]): Resolved {
  const path: string[] = [];
  let schema: JsonSchema | undefined = ROOT;
  for (const segment of segments) {
    const props: Readonly<Record<string, JsonSchema>> | undefined = schema === undefined ? undefined : propertiesOf(schema);
    const items: JsonSchema | undefined = schema === undefined ? undefined : itemsOf(schema);
    if (props) {
      const key: string | undefined = Object.keys(props).find((k) => squash(k) === squash(segment));
      if (key === undefined) return { error: `unknown key "${segment}"${didYouMean(segment, Object.keys(props))}`, at: path };
      path.push(key);
      schema = props[key];
    } else if (items && /^\d+$/.test(segment)) {
      path.push(String(Number(segment)));
      schema = items;
    } else if (path.at(-1) === 'rules') {
      // The rules engine owns these keys; match them against its option names to restore their case.
      path.push(RULES_NAMES.find((k) => squash(k) === squash(segment)) ?? segment);
      schema = undefined;
    } else {
      return { error: `"${segment}" goes below a value that has no keys`, at: path };
    }
  }
  return { path, schema };
}

/** Converts text to the type the key takes; left as text when it does not convert (validation then says why). */
export function coerce(value: string, schema: JsonSchema | undefined): unknown {
  const types = schema === undefined ? ['integer', 'boolean', 'null', 'array', 'object'] : typesOf(schema);
  const t = value.trim();
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  if (types.includes('boolean') && (t === 'true' || t === 'false')) return t === 'true';
  if (types.includes('null') && t === 'null') return null;
  if ((types.includes('array') && t.startsWith('[')) || (types.includes('object') && t.startsWith('{'))) {
    try {
      return JSON.parse(t) as unknown;
    } catch {
      return value;
    }
  }
  return value;
}

/** Writes `value` at `path`, creating mappings but never list entries. Returns an error message or undefined. */
function setAt(doc: Rec, path: readonly string[], value: unknown): string | undefined {
  let node: unknown = doc;
  for (const [i, key] of path.entries()) {
    const last = i === path.length - 1;
    if (Array.isArray(node)) {
      const index = Number(key);
      if (index >= node.length) return `${path.slice(0, i).join('.')} has no entry ${key} in the file: an override can change an entry, not add one`;
      if (last) node[index] = value;
      else node = node[index];
    } else if (isRecord(node)) {
      if (last) node[key] = value;
      else {
        if (node[key] === undefined) {
          // A list the file leaves out is its default (the demo table): its entries can be overridden too.
          const fallback = schemaAt(ROOT, path.slice(0, i + 1))?.default;
          if (/^\d+$/.test(path[i + 1] ?? '') && !Array.isArray(fallback)) {
            return `${path.slice(0, i + 1).join('.')} is not in the file: an override can change a list entry, not add one`;
          }
          node[key] = Array.isArray(fallback) ? structuredClone(fallback) : {};
        }
        node = node[key];
      }
    } else {
      return `${path.slice(0, i).join('.')} is not a mapping in the file`;
    }
  }
  return undefined;
}

/** Applies the overrides in `env` to `doc` (a parsed file, changed in place). */
export function applyEnvOverrides(doc: Rec, env: Env): EnvResult {
  const origins = new Map<string, string>();
  const errors: ConfigError[] = [];
  const apply = (variable: string, segments: readonly string[], raw: string): void => {
    const resolved = resolvePath(segments);
    if ('error' in resolved) {
      errors.push({ ...configError('CONFIG_UNKNOWN_KEY', resolved.at.join('.'), resolved.error), env: variable });
      return;
    }
    const problem = setAt(doc, resolved.path, coerce(raw, resolved.schema));
    if (problem !== undefined) errors.push({ ...configError('CONFIG_INVALID', resolved.path.join('.'), problem), env: variable });
    else origins.set(resolved.path.join('.'), variable);
  };
  for (const [variable, path] of Object.entries(SECRET_VARIABLES)) {
    const value = env[variable];
    if (value !== undefined && value !== '') apply(variable, path, value);
  }
  const generic = Object.keys(env).filter((k) => k.startsWith(GENERIC_PREFIX)).sort();
  for (const variable of generic) {
    const value = env[variable];
    const segments = variable.slice(GENERIC_PREFIX.length).split('__');
    if (value === undefined || value === '') continue;
    if (segments.some((s) => s === '')) {
      errors.push({ ...configError('CONFIG_UNKNOWN_KEY', '', 'an empty path segment (three or more underscores in a row?)'), env: variable });
      continue;
    }
    apply(variable, segments, value);
  }
  return { origins, errors };
}

/**
 * Validation, pure: unknown data (a parsed file with the environment applied) → the effective configuration,
 * or every error at once. Steps: the schema (ajv fills defaults and finds type, range and unknown-key
 * mistakes), derived defaults, cross-field checks, then each game table's `rules` through its engine.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import type { Checked } from '../kernel/result.ts';
import { checkRules } from './check-rules.ts';
import { checkSystem } from './check-system.ts';
import { checkTables } from './check-tables.ts';
import { fillDerivedDefaults } from './derived.ts';
import type { ConfigError } from './errors.ts';
import { cloneData } from './loose.ts';
import { fromAjvErrors } from './schema-errors.ts';
import { ANNOTATIONS } from './schema-helpers.ts';
import { ZaptableSchema, type ZaptableConfig } from './schema.ts';
import { missingSecrets } from './secrets.ts';
import { houseRuleNotes } from './house-rules.ts';

export type ValidationResult = Checked<{ readonly config: ZaptableConfig; readonly notes: string[] }, ConfigError>;

let compiled: WeakRef<ValidateFunction> | undefined;

/**
 * The schema's validator, compiled on first use (~100 ms) and held only weakly: a controller validates its file
 * once at start, and the compiled code with its ajv instance is ~0.7 MB of heap it then never needs (a Pi's
 * memory, docs/performance.md). Callers that validate often (tests, `config check`) reuse it until a collection.
 */
function schemaValidator(): ValidateFunction {
  const held = compiled?.deref();
  if (held !== undefined) return held;
  // coerceTypes stays off: the file's values are taken as written ("1883" in quotes is a mistake worth
  // reporting). Text from environment variables is converted by env-overrides.ts, by the key's type.
  const ajv = new Ajv({ allErrors: true, useDefaults: true, verbose: true, allowUnionTypes: true, strict: true });
  for (const keyword of ANNOTATIONS) ajv.addKeyword({ keyword });
  const check = ajv.compile(ZaptableSchema);
  compiled = new WeakRef(check);
  return check;
}

const SECTIONS = Object.keys(ZaptableSchema.properties);
const sectionRank = (path: string): number => SECTIONS.indexOf(path.split('.')[0] ?? '');

/** Sections in schema order (tables first, as files are written), then paths with numbers compared as numbers. */
function byPath(a: ConfigError, b: ConfigError): number {
  return sectionRank(a.path) - sectionRank(b.path) || a.path.localeCompare(b.path, 'en', { numeric: true });
}

const under = (path: string, parent: string): boolean => parent === '' || path === parent || path.startsWith(`${parent}.`);

/** Validates a configuration document (not changed: it is copied). */
export function validateConfig(input: unknown): ValidationResult {
  const written = cloneData(input ?? {});
  const data = cloneData(written);
  const check = schemaValidator();
  const schemaErrors = check(data) ? [] : fromAjvErrors(check.errors ?? []);
  fillDerivedDefaults(data);
  // A cross-field finding under a value the schema already rejected would only repeat the same mistake.
  const cross = [...checkTables(data, written), ...checkSystem(data)]
    .filter((e) => !schemaErrors.some((s) => under(e.path, s.path)));
  // The engine sees the mode, seat ids, their number, colours and the rules: a mistake already reported
  // there would only come back in the engine's words.
  const engineSees = (path: string, table: string): boolean => under(table, path) || path === `${table}.mode`
    || path === `${table}.seats` || under(path, `${table}.rules`)
    || (path.startsWith(`${table}.seats.`) && /^\d+(\.(id|colour))?$/.test(path.slice(table.length + 7)));
  const rules = checkRules(data, (table) => [...schemaErrors, ...cross].some((e) => engineSees(e.path, table)));
  const errors = [...schemaErrors, ...cross, ...rules];
  if (errors.length > 0) return { ok: false, errors: errors.sort(byPath) };
  const config = data as ZaptableConfig;
  const notes = [
    ...missingSecrets(config)
      .map(({ path, variable }) => `${path} is not set: a random one is generated at each start (set ${variable} to keep it)`),
    ...houseRuleNotes(config),
  ];
  return { ok: true, config, notes };
}

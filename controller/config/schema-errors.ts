/**
 * Turns ajv's errors into ours: one error per mistake, with a dotted path, a sentence a person understands,
 * a stable code, and a "did you mean" for unknown keys and enum values. ajv runs with `verbose`, so every
 * error carries the schema it failed (for our `x-message`, `x-secret` and the list of known keys).
 */
import type { ErrorObject } from 'ajv';
import { configError, type ConfigError } from './errors.ts';
import { didYouMean } from './suggest.ts';

type Schema = Record<string, unknown>;

/** `/tables/0/seats` → `tables.0.seats` (JSON Pointer escapes undone). */
export function pointerToPath(pointer: string): string {
  if (pointer === '') return '';
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~')).join('.');
}

const join = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: 'a string', integer: 'a whole number', number: 'a number', boolean: 'true or false',
  object: 'a mapping (key: value)', array: 'a list', null: 'null',
};

function typeWords(type: unknown): string {
  const types = Array.isArray(type) ? type : [type];
  return types.map((t) => TYPE_WORDS[String(t)] ?? String(t)).join(' or ');
}

function shown(value: unknown): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

function schemaOf(error: ErrorObject): Schema {
  return error.parentSchema ?? {};
}

/** The sentence for one (non-anyOf) ajv error. */
function sentence(error: ErrorObject): string {
  const schema = schemaOf(error);
  const custom = schema['x-message'];
  const secret = schema['x-secret'] === true;
  const got = secret ? '' : `, got ${shown(error.data)}`;
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type': return `must be ${typeWords(p.type)}${got}`;
    case 'enum': {
      const allowed = (p.allowedValues as unknown[]).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
      return `must be one of ${allowed.join(', ')}${got}${typeof error.data === 'string' ? didYouMean(error.data, allowed) : ''}`;
    }
    case 'pattern':
    case 'format': return `${typeof custom === 'string' ? custom : `must match ${String(p.pattern ?? p.format)}`}${got}`;
    case 'minimum': case 'maximum': case 'exclusiveMinimum': case 'exclusiveMaximum': {
      const op = { minimum: '≥', maximum: '≤', exclusiveMinimum: '>', exclusiveMaximum: '<' }[error.keyword];
      return `must be ${op} ${String(p.limit)}${got}`;
    }
    case 'minLength': return p.limit === 1 ? 'must not be empty' : `must be at least ${String(p.limit)} characters long`;
    case 'maxLength': return `must be at most ${String(p.limit)} characters long`;
    case 'minItems': return `must list at least ${String(p.limit)} item${p.limit === 1 ? '' : 's'}`;
    case 'maxItems': return `must list at most ${String(p.limit)} items`;
    case 'uniqueItems': return `lists the same value twice (items ${String(p.j)} and ${String(p.i)})`;
    default: return typeof custom === 'string' ? custom : error.message ?? error.keyword;
  }
}

function translate(error: ErrorObject): ConfigError {
  const path = pointerToPath(error.instancePath);
  const p = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return configError('CONFIG_INVALID', join(path, String(p.missingProperty)), 'is required');
  if (error.keyword === 'additionalProperties') {
    const key = String(p.additionalProperty);
    const known = Object.keys(schemaOf(error).properties ?? {});
    const hint = didYouMean(key, known);
    const list = hint === '' ? ` (known keys: ${known.join(', ')})` : hint;
    return configError('CONFIG_UNKNOWN_KEY', join(path, key), `unknown key${list}`);
  }
  return configError('CONFIG_INVALID', path, sentence(error));
}

/**
 * A failed `anyOf` makes ajv report every branch's complaint plus its own. If exactly one branch has the
 * value's type (it failed on something else: a minimum, a pattern), that branch's errors are the real ones;
 * otherwise the value is of no allowed type and one sentence says which forms are allowed.
 */
function collapseAnyOf(errors: readonly ErrorObject[]): ErrorObject[] {
  const anyOfs = errors.filter((e) => e.keyword === 'anyOf');
  if (anyOfs.length === 0) return [...errors];
  const drop = new Set<ErrorObject>();
  const keep: ErrorObject[] = [];
  for (const a of anyOfs) {
    const inside = errors.filter((e) => e !== a && e.schemaPath.startsWith(`${a.schemaPath}/`));
    inside.forEach((e) => drop.add(e));
    const branches = new Map<string, ErrorObject[]>();
    for (const e of inside) {
      const branch = e.schemaPath.slice(a.schemaPath.length + 1).split('/')[0] ?? '';
      branches.set(branch, [...(branches.get(branch) ?? []), e]);
    }
    const typed = [...branches.values()].filter((list) => !list.some((e) => e.instancePath === a.instancePath && (e.keyword === 'type' || e.keyword === 'const')));
    if (typed.length === 1 && typed[0]) {
      keep.push(...typed[0]);
      drop.add(a);
    }
  }
  return [...errors.filter((e) => !drop.has(e)), ...keep];
}

function anyOfSentence(error: ErrorObject): string {
  const schema = schemaOf(error);
  const custom = schema['x-message'];
  const got = schema['x-secret'] === true ? '' : `, got ${shown(error.data)}`;
  return `${typeof custom === 'string' ? custom : 'does not match any allowed form'}${got}`;
}

/** ajv errors → configuration errors, one per mistake, in document order. */
export function fromAjvErrors(errors: readonly ErrorObject[]): ConfigError[] {
  const out: ConfigError[] = [];
  const seen = new Set<string>();
  const collapsed = collapseAnyOf(errors);
  // A value of the wrong type gets one error: 1.5 for a whole number ≥ 1200 is "must be a whole number".
  const mistyped = new Set(collapsed.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  const relevant = collapsed.filter((e) => e.keyword === 'type' || !mistyped.has(e.instancePath) || e.keyword === 'required'
    || e.keyword === 'additionalProperties');
  for (const e of relevant) {
    const error = e.keyword === 'anyOf' ? configError('CONFIG_INVALID', pointerToPath(e.instancePath), anyOfSentence(e)) : translate(e);
    const key = `${error.path}\u0000${error.message}`;
    if (!seen.has(key)) out.push(error);
    seen.add(key);
  }
  return out;
}

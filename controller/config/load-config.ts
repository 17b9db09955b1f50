/**
 * Start-up: find the file, parse it, apply the environment, validate once, resolve relative paths, read the
 * broker TLS files (tls-files.ts) and fill in missing secrets. The only part of the config layer that does I/O
 * (it reads the file and the TLS files it names, and asks node:crypto for randomness); the rest is pure.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Invalid } from '../kernel/result.ts';
import { CONFIG_FILE_ENV, DEFAULT_CONFIG_FILE } from './defaults.ts';
import { applyEnvOverrides, type Env } from './env-overrides.ts';
import { configError, type ConfigError } from './errors.ts';
import { interpolateEnv } from './interpolate.ts';
import { isRecord } from './loose.ts';
import type { ZaptableConfig } from './schema.ts';
import { generateSecrets, type GeneratedSecret } from './secrets.ts';
import { validateConfig } from './validate.ts';
import { brokerTlsOf, type BrokerTls } from './tls-files.ts';
import { parseYaml, type Position } from './yaml-source.ts';

export interface LoadOptions {
  /** The file to read. A file named here (or by `ZAPTABLE_CONFIG`) must exist; the default one may be absent. */
  readonly file?: string;
  /** Environment (default `process.env`). */
  readonly env?: Env;
  /** Where relative paths start when no file is read (default `process.cwd()`). */
  readonly cwd?: string;
  /** Fill missing passwords and the dashboard token (default true; `config check` only reports them). */
  readonly generateSecrets?: boolean;
  /** Source of generated secrets (default: 24 random bytes, base64url). */
  readonly randomSecret?: () => string;
  /**
   * Read the TLS files of the brokers in use (default true): one that cannot be read is an error. False for a
   * file written for another machine, whose paths are that machine's (`zaptable venue acl` on the venue laptop).
   */
  readonly tlsFiles?: boolean;
}

export type LoadResult =
  | {
    readonly ok: true;
    readonly config: ZaptableConfig;
    /** What people should know: no file found, overrides applied, secrets generated (never their values). */
    readonly notes: string[];
    /** Secrets generated for this run, with values, for the composition root to print once. */
    readonly generated: GeneratedSecret[];
    /** The PEM text of the brokers' TLS files, read once here for every connection (empty with `tlsFiles: false`). */
    readonly tls: BrokerTls;
    /** The file read, or undefined when the built-in defaults were used. */
    readonly file: string | undefined;
  }
  | (Invalid<ConfigError> & { readonly file: string | undefined });

export const randomSecret = (): string => randomBytes(24).toString('base64url');

type Source = { text: string; file: string | undefined; notes: string[] } | { errors: ConfigError[]; file: string };

function readSource(options: LoadOptions, env: Env, cwd: string): Source {
  const named = options.file ?? env[CONFIG_FILE_ENV];
  const file = path.resolve(cwd, named ?? DEFAULT_CONFIG_FILE);
  try {
    return { text: readFileSync(file, 'utf8'), file, notes: [] };
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    if (e.code === 'ENOENT' && named === undefined) {
      const note = `no ${DEFAULT_CONFIG_FILE} in ${cwd}: running the built-in demo (one simulated Zapp Zerapp table, four bot seats)`;
      return { text: '', file: undefined, notes: [note] };
    }
    const why = e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'is a directory' : e.message;
    return { errors: [configError('CONFIG_UNREADABLE', '', `cannot read ${file}: ${why}`)], file };
  }
}

/** Relative storage and TLS paths start at the config file's folder, so the file works from any directory. */
function resolvePaths(config: ZaptableConfig, base: string): void {
  const s = config.storage;
  s.directory = path.resolve(base, s.directory);
  s.database = path.resolve(s.directory, s.database);
  s.registry = path.resolve(s.directory, s.registry);
  s.calibration = path.resolve(s.directory, s.calibration);
  for (const tls of [config.mqtt.external.tls, config.mqtt.venue.tls]) {
    for (const key of ['ca', 'cert', 'key'] as const) {
      const value = tls[key];
      if (value !== undefined) tls[key] = path.resolve(base, value);
    }
  }
}

/** Adds the line of the key in the file, or the variable that set the value, to each error. */
function place(
  errors: readonly ConfigError[], locate: (p: string) => Position | undefined, origins: ReadonlyMap<string, string>,
): ConfigError[] {
  return errors.map((e) => {
    if (e.env !== undefined) return e;
    const origin = [...origins].find(([p]) => e.path === p || e.path.startsWith(`${p}.`));
    if (origin) return { ...e, env: origin[1] };
    const pos = e.path === '' ? undefined : locate(e.path);
    return pos ? { ...e, line: pos.line, column: pos.column } : e;
  });
}

/** Loads the configuration for this run. Never throws for a bad file: every problem is in `errors`. */
export function loadConfig(options: LoadOptions = {}): LoadResult {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const source = readSource(options, env, cwd);
  if ('errors' in source) return { ok: false, errors: source.errors, file: source.file };
  const parsed = parseYaml(source.text);
  if (!parsed.ok) return { ok: false, errors: parsed.errors, file: source.file };
  const doc = parsed.value ?? {};
  const early: ConfigError[] = interpolateEnv(doc, env);
  // A document that is not a mapping has nowhere to put overrides; the schema reports it.
  const overrides = isRecord(doc) ? applyEnvOverrides(doc, env) : { origins: new Map<string, string>(), errors: [] };
  const { origins, errors: envErrors } = overrides;
  const result = validateConfig(doc);
  // A value whose variable is missing would only fail validation again: one error for one mistake.
  const later = result.ok ? [] : result.errors.filter((e) => !early.some((x) => x.path === e.path));
  const errors = [...early, ...envErrors, ...later];
  if (!result.ok || errors.length > 0) return { ok: false, errors: place(errors, parsed.locate, origins), file: source.file };
  const config = result.config;
  resolvePaths(config, source.file === undefined ? cwd : path.dirname(source.file));
  const read = options.tlsFiles === false ? { ok: true as const, tls: {} } : brokerTlsOf(config);
  if (!read.ok) return { ok: false, errors: place(read.errors, parsed.locate, origins), file: source.file };
  const { tls } = read;
  const notes = [...source.notes, ...[...origins].map(([p, variable]) => `${p} set by ${variable}`)];
  if (options.generateSecrets === false) {
    return { ok: true, config, notes: [...notes, ...result.notes], generated: [], tls, file: source.file };
  }
  const generated = generateSecrets(config, options.randomSecret ?? randomSecret);
  notes.push(...generated.map((g) => `${g.path} generated for this run (set ${g.variable} to keep one)`));
  return { ok: true, config, notes, generated, tls, file: source.file };
}

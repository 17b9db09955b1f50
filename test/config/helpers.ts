/** Shared by the config tests: temporary files and loading with an explicit environment. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig, type ConfigError, type LoadOptions, type LoadResult } from '../../controller/config/index.ts';

export const root = path.resolve(import.meta.dirname, '..', '..');
export const examplesDir = path.join(root, 'docs', 'config-examples');

const tmp = mkdtempSync(path.join(tmpdir(), 'zaptable-config-'));
let count = 0;

/** Writes `text` to a fresh file and returns its path. */
export function writeConfig(text: string): string {
  const file = path.join(tmp, `config-${++count}.yaml`);
  writeFileSync(file, text);
  return file;
}

/** Loads YAML text with the given environment only (never the test runner's). */
export function load(text: string, env: Record<string, string> = {}, options: Partial<LoadOptions> = {}): LoadResult {
  return loadConfig({ file: writeConfig(text), env, ...options });
}

/** The errors of a load that must fail. */
export function errorsOf(result: LoadResult): readonly ConfigError[] {
  if (result.ok) throw new Error(`expected errors, got a valid config`);
  return result.errors;
}

/** The config of a load that must succeed (the errors are shown if not). */
export function configOf(result: LoadResult) {
  if (!result.ok) throw new Error(`expected a valid config, got:\n${result.errors.map((e) => `${e.path}: ${e.message}`).join('\n')}`);
  return result;
}

/** A deterministic secret source for tests. */
export function counterSecrets(): () => string {
  let n = 0;
  return () => `generated-secret-${++n}`;
}

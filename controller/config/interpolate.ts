/**
 * `${NAME}` inside a string value of the file is replaced by the environment variable NAME, so a file can
 * say where a secret comes from (`password: ${ZAPTABLE_MQTT_PASSWORD}`) and still be committed. `$${` writes a
 * literal `${`. A variable that is not set is an error: silently using an empty password would be worse.
 */
import { configError, type ConfigError } from './errors.ts';
import type { Env } from './env-overrides.ts';
import { isRecord } from './loose.ts';

const REFERENCE = /\$(\$?)\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

function substitute(value: string, env: Env, path: string, errors: ConfigError[]): string {
  return value.replace(REFERENCE, (whole, escape: string, name: string) => {
    if (escape === '$') return whole.slice(1);
    const found = env[name];
    if (found === undefined) {
      errors.push(configError('CONFIG_INVALID', path, `refers to \${${name}}, but the environment variable ${name} is not set`));
      return whole;
    }
    return found;
  });
}

/** Replaces `${NAME}` references in every string of `doc` (in place); returns one error per unset variable. */
export function interpolateEnv(doc: unknown, env: Env): ConfigError[] {
  const errors: ConfigError[] = [];
  const walk = (node: unknown, path: string): void => {
    const entries: [string | number, unknown][] = Array.isArray(node)
      ? node.map((v: unknown, i) => [i, v])
      : isRecord(node) ? Object.entries(node) : [];
    for (const [key, value] of entries) {
      const here = path === '' ? String(key) : `${path}.${key}`;
      if (typeof value === 'string' && value.includes('${')) {
        const replaced = substitute(value, env, here, errors);
        if (Array.isArray(node)) node[key as number] = replaced;
        else (node as Record<string, unknown>)[key] = replaced;
      } else walk(value, here);
    }
  };
  walk(doc, '');
  return errors;
}

/**
 * Secrets: masked in every printout, and generated when the embedded set-up has none (design principle 10:
 * the embedded broker never runs without authentication, referee controls never without a token). The
 * generator is injected so that validation stays pure and tests are repeatable.
 */
import { isRecord, rec } from './loose.ts';
import { ZaptableSchema, type ZaptableConfig } from './schema.ts';
import { asSchema, itemsOf, propertiesOf, type JsonSchema } from './schema-walk.ts';

export const MASK = '********';

/** A secret filled in at start-up. The composition root prints it once, so people can log in. */
export interface GeneratedSecret {
  /** Dotted path, e.g. `dashboard.token`. */
  readonly path: string;
  readonly value: string;
  /** The variable that would set it for the next start. */
  readonly variable: string;
}

/** `mqtts://user:pw@host` → `mqtts://user:********@host`. */
function maskUrl(value: string): string {
  return value.replace(/^([a-z]+:\/\/[^:/@\s]*):[^@/\s]*@/i, `$1:${MASK}@`);
}

function mask(value: unknown, schema: JsonSchema | undefined): unknown {
  if (schema?.['x-secret'] === true && value !== undefined) return MASK;
  if (Array.isArray(value)) {
    const items = schema ? itemsOf(schema) : undefined;
    return value.map((v) => mask(v, items));
  }
  if (isRecord(value)) {
    const props = schema ? propertiesOf(schema) : undefined;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mask(v, props?.[k])]));
  }
  if (typeof value === 'string' && /^[a-z]+:\/\//i.test(value)) return maskUrl(value);
  return value;
}

/** A copy of `config` with every secret replaced by `********` (and passwords in URLs too). */
export function maskSecrets(config: unknown): unknown {
  return mask(config, asSchema(ZaptableSchema));
}

/** The secrets start-up must generate for this configuration (none for what the file or environment set). */
export function missingSecrets(config: ZaptableConfig): { path: string; variable: string }[] {
  const missing: { path: string; variable: string }[] = [];
  const embedded = config.mqtt.broker === 'embedded';
  if (embedded && config.mqtt.controller.password === undefined) {
    missing.push({ path: 'mqtt.controller.password', variable: 'ZAPTABLE_MQTT_PASSWORD' });
  }
  // A read-only login to try the broker with, so nobody reaches for the controller's account, which may forge state.
  if (embedded && config.mqtt.viewer.password === undefined) {
    missing.push({ path: 'mqtt.viewer.password', variable: 'ZAPTABLE__MQTT__VIEWER__PASSWORD' });
  }
  if (config.dashboard.enabled && embedded && config.dashboard.mqtt.password === undefined) {
    missing.push({ path: 'dashboard.mqtt.password', variable: 'ZAPTABLE__DASHBOARD__MQTT__PASSWORD' });
  }
  if (config.dashboard.enabled && config.dashboard.token === undefined) {
    missing.push({ path: 'dashboard.token', variable: 'ZAPTABLE_DASHBOARD_TOKEN' });
  }
  return missing;
}

/** Fills every missing secret with `random()` (in place) and says which. */
export function generateSecrets(config: ZaptableConfig, random: () => string): GeneratedSecret[] {
  return missingSecrets(config).map(({ path, variable }) => {
    const value = random();
    const keys = path.split('.');
    const last = keys.pop() ?? '';
    const root = config as unknown as Record<string, unknown>;
    const parent = keys.reduce<Record<string, unknown>>((node, key) => rec(node[key]), root);
    parent[last] = value;
    return { path, value, variable };
  });
}

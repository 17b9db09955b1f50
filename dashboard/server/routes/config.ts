/**
 * `GET /api/config`: the controller's validated configuration, read-only, for the configuration page. Only with
 * the dashboard token: even with its secrets masked a configuration is not what a spectator at the table can
 * see (serial ports, hosts, broker logins, and a fixed `seed`, which decides every deal). Secrets are masked
 * before the dashboard ever holds the configuration (`maskSecrets`, by the command that starts it), so the
 * token holder never sees a password or token either: a page on a shared screen shows none. Fixed seeds are
 * hidden here too (`configView`).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { DashboardError } from '../errors.ts';
import { ErrorResponse } from '../schemas.ts';
import { bearer, tokenDigest, tokenMatches } from './requests.ts';

/** What stands for a fixed seed: anyone who knows the seed can compute the hands it deals. */
export const SEED_HIDDEN = 'fixed (hidden: the seed decides the deals)';

/** A copy with every fixed `tables[].seed` hidden (`auto` stays: it says the seeds are fresh). */
export function configView(masked: unknown): unknown {
  if (typeof masked !== 'object' || masked === null) return masked;
  const config = masked as { tables?: unknown };
  if (!Array.isArray(config.tables)) return masked;
  return {
    ...config,
    tables: config.tables.map((t: unknown) => {
      if (typeof t !== 'object' || t === null || !('seed' in t)) return t;
      const { seed } = t;
      return seed === 'auto' || seed === undefined ? t : { ...t, seed: SEED_HIDDEN };
    }),
  };
}

const ConfigResponse = Type.Object({
  /** The configuration as validated (defaults filled in), secrets as `********`. */
  config: Type.Object({}, { additionalProperties: true }),
});

export interface ConfigRoutesOptions {
  /** The configuration with its secrets already masked; undefined when the dashboard was started without one. */
  readonly config: unknown;
  readonly token: string;
}

export const configRoutes: FastifyPluginAsync<ConfigRoutesOptions> = async (fastify, { config, token }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const expected = tokenDigest(token);
  const view = config === undefined ? undefined : configView(config);
  app.get('/api/config', { schema: { response: { 200: ConfigResponse, 401: ErrorResponse, 404: ErrorResponse } } }, (req) => {
    if (!tokenMatches(bearer(req.headers.authorization), expected)) throw new DashboardError('UNAUTHORIZED');
    if (view === undefined) throw new DashboardError('CONFIG_UNAVAILABLE');
    return { config: view as Record<string, unknown> };
  });
  await Promise.resolve();
};

/**
 * `POST /api/tables/:table/requests/:name`: referee controls. The token is checked first, in constant time,
 * before anything else happens (a wrong or missing token is 401 UNAUTHORIZED and nothing reaches MQTT); then
 * the request is published to the table as this dashboard, with the configured token, and the table's
 * response is returned as it came (`{status, data, error, transaction}`, HTTP 200, also for the table's own
 * refusals such as a rules rejection).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { isKnownRequest } from '../../../controller/transport/requests.ts';
import { isRequestName } from '../../../controller/transport/topics.ts';
import { DashboardError } from '../errors.ts';
import type { MqttHub } from '../mqtt-hub.ts';
import { ControlBody, ControlResponse, ErrorResponse, RequestRouteParams, TokenCheckBody, TokenCheckResponse } from '../schemas.ts';

export interface RequestRoutesOptions {
  readonly hub: MqttHub;
  /** The dashboard token from the configuration: what the browser must present, and what goes to the table. */
  readonly token: string;
  /**
   * A venue dashboard: the token each controller accepts, by controller id (`dashboard.controllerTokens`). A
   * request goes with the token of the controller that runs the table; a controller not listed gets `token`.
   */
  readonly controllerTokens?: Readonly<Record<string, string>>;
}

export const tokenDigest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** Constant-time: both sides are hashed to equal-length digests first, so timing tells nothing of the token. */
export function tokenMatches(given: string | undefined, expected: Buffer): boolean {
  return timingSafeEqual(tokenDigest(given ?? ''), expected) && given !== undefined && given.length > 0;
}

export function bearer(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
  return match?.[1]?.trim();
}

export const requestRoutes: FastifyPluginAsync<RequestRoutesOptions> = async (fastify, { hub, token, controllerTokens = {} }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const expected = tokenDigest(token);
  app.post('/api/tables/:table/requests/*', {
    schema: {
      params: RequestRouteParams,
      body: ControlBody,
      response: {
        200: ControlResponse, 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 503: ErrorResponse, 504: ErrorResponse,
      },
    },
  }, async (req) => {
    const given = req.body.token ?? bearer(req.headers.authorization);
    if (!tokenMatches(given, expected)) throw new DashboardError('UNAUTHORIZED');
    const { table } = req.params;
    const name = req.params['*'];
    if (!isRequestName(name) || !isKnownRequest(name)) throw new DashboardError('UNKNOWN_REQUEST', JSON.stringify(name.slice(0, 80)));
    if (!hub.hasTable(table)) throw new DashboardError('TABLE_NOT_FOUND', table);
    // The envelope fields are the dashboard's, never the browser's.
    const { token: _t, transaction: _x, ...params }: Record<string, unknown> = req.body.params ?? {};
    const controller = hub.controllerOf(table);
    req.log.info({ table, controller, request: name }, 'relaying a referee request');
    return hub.request(table, name, params, (controller === undefined ? undefined : controllerTokens[controller]) ?? token);
  });
  // The token field checks the token here rather than trusting it: after a restart with a generated token the
  // old one is refused, and the page must say so before a control is refused. Publishes nothing.
  app.post('/api/token/check', {
    schema: { body: TokenCheckBody, response: { 200: TokenCheckResponse, 400: ErrorResponse, 401: ErrorResponse } },
  }, (req) => {
    if (!tokenMatches(req.body.token ?? bearer(req.headers.authorization), expected)) throw new DashboardError('UNAUTHORIZED');
    return { valid: true as const };
  });
  await Promise.resolve();
};

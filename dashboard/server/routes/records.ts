/**
 * The game record (docs/mqtt.md, "The game record"; dashboard/README.md): a table's games, a game's public
 * record and the public view after any step for everyone (they hold what a spectator saw), and the full action
 * log — hands, barrels and seed included, what `zaptable replay` reads — only with the dashboard token, checked
 * before anything reaches MQTT.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DashboardError } from '../errors.ts';
import type { MqttHub } from '../mqtt-hub.ts';
import { RecordRelay } from '../record-relay.ts';
import { ErrorResponse, GameParams, RecordAnswer, StepParams, TableParams } from '../schemas.ts';
import { bearer, tokenDigest, tokenMatches } from './requests.ts';

export interface RecordRoutesOptions {
  readonly hub: MqttHub;
  readonly token: string;
}

const errors = { 401: ErrorResponse, 404: ErrorResponse, 502: ErrorResponse, 503: ErrorResponse, 504: ErrorResponse };

export const recordRoutes: FastifyPluginAsync<RecordRoutesOptions> = async (fastify, { hub, token }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const relay = new RecordRelay(hub, token);
  const expected = tokenDigest(token);
  const known = (table: string): string => {
    if (!hub.hasTable(table)) throw new DashboardError('TABLE_NOT_FOUND', table);
    return table;
  };

  app.get('/api/tables/:table/games', { schema: { params: TableParams, response: { 200: RecordAnswer, ...errors } } }, async (req) => {
    const table = known(req.params.table);
    return { table, ...(await relay.games(table) as object) };
  });
  app.get('/api/tables/:table/games/:game/record', { schema: { params: GameParams, response: { 200: RecordAnswer, ...errors } } }, async (req) => {
    const table = known(req.params.table);
    return { table, ...(await relay.record(table, req.params.game) as object) };
  });
  app.get('/api/tables/:table/games/:game/steps/:step', { schema: { params: StepParams, response: { 200: RecordAnswer, ...errors } } }, async (req) => {
    const table = known(req.params.table);
    return { table, ...(await relay.state(table, req.params.game, req.params.step) as object) };
  });
  // A download: `Authorization: Bearer <token>` (the page fetches it and saves the file). Never cached.
  app.get('/api/tables/:table/games/:game/actions.json', { schema: { params: GameParams, response: { 200: RecordAnswer, ...errors } } }, async (req, reply) => {
    if (!tokenMatches(bearer(req.headers.authorization), expected)) throw new DashboardError('UNAUTHORIZED');
    const table = known(req.params.table);
    req.log.info({ table, game: req.params.game }, 'relaying an action log download');
    const log = await relay.actionLog(table, req.params.game);
    void reply.header('content-disposition', `attachment; filename="${table}-game-${req.params.game}.json"`).header('cache-control', 'no-store');
    return log as object;
  });
  await Promise.resolve();
};

/**
 * Read-only (no token, like the other table routes): a table's notices and a station's health over time, as
 * this dashboard kept them since it started (`history.ts`). Everything here was published on the public topics.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { DashboardError } from '../errors.ts';
import type { TableHistory } from '../history.ts';
import type { MqttHub } from '../mqtt-hub.ts';
import { ErrorResponse, TableParams } from '../schemas.ts';

const Open = { additionalProperties: true } as const;

const StationParams = Type.Object({
  table: TableParams.properties.table,
  station: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$' }),
});

const NoticesResponse = Type.Object({
  table: Type.String(),
  /** When this dashboard started keeping them (ms since 1970): nothing older is known here. */
  since: Type.Number(),
  notices: Type.Array(Type.Object({ type: Type.Literal('NOTICE'), code: Type.String(), seq: Type.Integer(), at: Type.Number() }, Open)),
});

const Sample = Type.Object({
  at: Type.Number(),
  online: Type.Boolean(),
  errors: Type.Record(Type.String(), Type.Number()),
  uncertaintyUs: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  driftPpm: Type.Optional(Type.Number()),
});

const StationHistoryResponse = Type.Object({
  table: Type.String(),
  station: Type.String(),
  since: Type.Number(),
  samples: Type.Array(Sample),
});

const HealthHistoryResponse = Type.Object({
  table: Type.String(),
  since: Type.Number(),
  stations: Type.Record(Type.String(), Type.Array(Sample)),
});

export interface HistoryRoutesOptions {
  readonly hub: MqttHub;
  readonly history: TableHistory;
  /** When the dashboard started keeping (ms since 1970). */
  readonly since: number;
}

export const historyRoutes: FastifyPluginAsync<HistoryRoutesOptions> = async (fastify, { hub, history, since }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const known = (table: string): string => {
    if (!hub.hasTable(table)) throw new DashboardError('TABLE_NOT_FOUND', table);
    return table;
  };
  app.get('/api/tables/:table/notices', { schema: { params: TableParams, response: { 200: NoticesResponse, 404: ErrorResponse } } }, (req) => {
    const table = known(req.params.table);
    return { table, since, notices: history.noticesOf(table) as never[] };
  });
  app.get('/api/tables/:table/health/history', { schema: { params: TableParams, response: { 200: HealthHistoryResponse, 404: ErrorResponse } } }, (req) => {
    const table = known(req.params.table);
    return { table, since, stations: Object.fromEntries(history.healthOf(table)) as never };
  });
  app.get('/api/tables/:table/stations/:station/history', {
    schema: { params: StationParams, response: { 200: StationHistoryResponse, 404: ErrorResponse } },
  }, (req) => {
    const table = known(req.params.table);
    const samples = history.healthOf(table).get(req.params.station);
    if (samples === undefined) throw new DashboardError('STATION_NOT_FOUND', `${req.params.station} on ${table}`);
    return { table, station: req.params.station, since, samples: [...samples] };
  });
  await Promise.resolve();
};

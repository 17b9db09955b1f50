/**
 * Read-only routes (no token: viewing needs no login): the table list, a table's state, its stations' health
 * and its recent events.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DashboardError } from '../errors.ts';
import type { MqttHub } from '../mqtt-hub.ts';
import {
  ErrorResponse, HealthResponse, HistoryQuery, HistoryResponse, InfoResponse, StateResponse, TableParams, TablesResponse,
} from '../schemas.ts';

export interface TableRoutesOptions {
  readonly hub: MqttHub;
  readonly simulated: boolean;
}

export const tableRoutes: FastifyPluginAsync<TableRoutesOptions> = async (fastify, { hub, simulated }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const known = (table: string): string => {
    if (!hub.hasTable(table)) throw new DashboardError('TABLE_NOT_FOUND', table);
    return table;
  };

  app.get('/api/info', { schema: { response: { 200: InfoResponse } } }, () => ({
    baseTopic: hub.topics.base, connected: hub.connected, simulated, version: '0.1.0',
  }));

  app.get('/api/tables', { schema: { response: { 200: TablesResponse } } }, () => ({
    tables: hub.tableIds().map((id) => hub.summary(id)),
  }));

  app.get('/api/tables/:table/state', { schema: { params: TableParams, response: { 200: StateResponse, 404: ErrorResponse } } }, (req) => {
    const table = known(req.params.table);
    return { table, status: hub.status(table), state: hub.state(table) ?? null };
  });

  app.get('/api/tables/:table/health', { schema: { params: TableParams, response: { 200: HealthResponse, 404: ErrorResponse } } }, (req) => {
    const table = known(req.params.table);
    return { table, stations: hub.health(table) };
  });

  app.get('/api/tables/:table/history', {
    schema: { params: TableParams, querystring: HistoryQuery, response: { 200: HistoryResponse, 404: ErrorResponse } },
  }, (req) => {
    const table = known(req.params.table);
    return { table, source: 'memory' as const, events: hub.history(table, req.query.limit) as never[] };
  });
  await Promise.resolve();
};

/**
 * The dashboard's HTTP API through `app.inject()`, against a real embedded broker and the fake controller:
 * tables, state, health and history; the error catalogue's codes; controls relayed as MQTT requests with a
 * transaction and the configured token, refused (401, nothing published) without the right token; timeouts;
 * security headers.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardApp } from '../../dashboard/server/app.ts';
import type { Assets } from '../../dashboard/server/assets.ts';
import { buildAssets } from '../../dashboard/server/assets-bundle.ts';
import { MqttHub } from '../../dashboard/server/mqtt-hub.ts';
import { FakeController } from './support/fake-controller.ts';
import { BASE, TOKEN, USERS, startBroker } from './support/harness.ts';
import { waitFor } from './support/wait.ts';
import type { EmbeddedBroker } from '../../controller/transport/embedded-broker.ts';

let broker: EmbeddedBroker;
let controller: FakeController;
let assets: Assets;
let app: FastifyInstance;

async function makeApp(options: { requestTimeoutMs?: number; url?: string } = {}): Promise<FastifyInstance> {
  const instance = Fastify({ logger: false });
  await instance.register(dashboardApp, {
    token: TOKEN, simulated: true, assets,
    mqtt: {
      url: options.url ?? broker.url, username: USERS.dashboard.username, password: USERS.dashboard.password, baseTopic: BASE,
    },
    ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
  });
  await instance.ready();
  return instance;
}

async function json(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await app.inject({ method: 'GET', url: path });
  return { status: r.statusCode, body: r.json() };
}

beforeAll(async () => {
  assets = await buildAssets();
  broker = await startBroker();
  controller = new FakeController({
    url: broker.url, baseTopic: BASE, username: USERS.controller.username, password: USERS.controller.password, token: TOKEN,
    tables: [
      { id: 't1', name: 'Table one', game: 'zapp-zerapp', players: ['ana', 'ben'], seed: 3 },
      { id: 't2', game: 'zip-zap', players: ['ana', 'ben', 'cy'], seed: 5 },
    ],
  });
  await controller.start();
  app = await makeApp();
  // Every retained message the tests read (tables, states, each station's health) must have reached the hub:
  // on a loaded 2-core machine they arrive over several turns.
  await waitFor(async () => {
    const tables = (await json('/api/tables')).body.tables as { stations: unknown[] }[];
    return tables.length === 2 && tables[0]?.stations.length === 2 && tables[1]?.stations.length === 3
      && (await json('/api/tables/t2/state')).body.state !== null;
  }, 'tables, states and stations');
});

afterAll(async () => {
  await app.close();
  await controller.stop();
  await broker.close();
});

describe('reading', () => {
  it('lists every table with its status, game and stations', async () => {
    const { status, body } = await json('/api/tables');
    expect(status).toBe(200);
    const tables = body.tables as { id: string; name: string; status: string; game: string; stations: unknown[] }[];
    expect(tables.map((t) => t.id)).toEqual(['t1', 't2']);
    expect(tables[0]).toMatchObject({ name: 'Table one', status: 'online', game: 'zapp-zerapp', simulated: true });
    expect(tables[0]?.stations).toHaveLength(2);
  });

  it('serves a table\'s retained state, as published', async () => {
    const { status, body } = await json('/api/tables/t1/state');
    expect(status).toBe(200);
    expect(body).toMatchObject({ table: 't1', status: 'online', state: { mode: 'game', game: 'zapp-zerapp', view: { phase: 'ROLL', placed: { ana: false } } } });
  });

  it('serves the health of every station', async () => {
    const { body } = await json('/api/tables/t1/health');
    const stations = body.stations as { station: string; online: boolean; firmware: string }[];
    expect(stations.map((s) => s.station)).toEqual(['seat-1', 'seat-2']);
    expect(stations[0]).toMatchObject({ online: true, firmware: 'sim-1.0.0' });
  });

  it('keeps the recent events in memory for the history', async () => {
    await controller.apply('t1', { type: 'roll' });
    const { body } = await waitFor(async () => {
      const r = await json('/api/tables/t1/history?limit=10');
      return (r.body.events as unknown[]).length > 0 ? r : undefined;
    }, 'events');
    expect(body.source).toBe('memory');
    expect((body.events as { type: string }[]).map((e) => e.type)).toContain('DICE_ROLLED');
  });

  it('answers unknown tables and routes with catalogue codes', async () => {
    expect(await json('/api/tables/nope/state')).toMatchObject({ status: 404, body: { code: 'TABLE_NOT_FOUND' } });
    expect(await json('/api/tables/nope/health')).toMatchObject({ status: 404, body: { code: 'TABLE_NOT_FOUND' } });
    expect(await json('/api/nothing')).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(await json('/api/tables/t1/history?limit=0')).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
    expect(await json('/api/tables/bad%20id/state')).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
  });
});

describe('controls', () => {
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const r = await app.inject({ method: 'POST', url: path, payload: body as Record<string, unknown>, headers });
    return { status: r.statusCode, body: r.json<Record<string, unknown>>() };
  };

  it('refuses a missing or wrong token with 401 and publishes nothing', async () => {
    const before = controller.received.length;
    expect(await post('/api/tables/t1/requests/roll', { params: {} })).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
    expect(await post('/api/tables/t1/requests/roll', { params: {}, token: `${TOKEN}x` })).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
    expect(await post('/api/tables/t1/requests/roll', { params: {} }, { authorization: 'Bearer wrong-token-wrong-token' }))
      .toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
    // Also before the table and the request name are looked at: nothing is revealed without a token.
    expect(await post('/api/tables/nope/requests/unknown', { params: {} })).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
    // A request that does reach the controller afterwards proves the channel was open all along.
    expect(await post('/api/tables/t1/requests/undo', { params: {} }, { authorization: `Bearer ${TOKEN}` })).toMatchObject({ status: 200 });
    await waitFor(() => controller.received.length > before, 'the control request');
    expect(controller.received.slice(before).map((r) => r.name)).toEqual(['undo']);
  });

  it('relays a request with a transaction and the configured token, and returns the response', async () => {
    const before = controller.received.length;
    const r = await post('/api/tables/t1/requests/roll', { params: { transaction: 'mine', token: 'injected' }, token: TOKEN });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'ok', error: null });
    expect(String(r.body.transaction)).toMatch(/^dash-/);
    const sent = controller.received[before];
    expect(sent).toMatchObject({ table: 't1', name: 'roll', body: { token: TOKEN, transaction: r.body.transaction } });
  });

  it('passes the table\'s own refusals through unchanged', async () => {
    const r = await post('/api/tables/t1/requests/roll', { params: {}, token: TOKEN });
    expect(r).toMatchObject({ status: 200, body: { status: 'error', error: { code: 'WRONG_PHASE' } } });
  });

  it('refuses unknown request names and malformed bodies', async () => {
    expect(await post('/api/tables/t1/requests/launch-rockets', { params: {}, token: TOKEN })).toMatchObject({ status: 404, body: { code: 'UNKNOWN_REQUEST' } });
    expect(await post('/api/tables/nope/requests/roll', { params: {}, token: TOKEN })).toMatchObject({ status: 404, body: { code: 'TABLE_NOT_FOUND' } });
    expect(await post('/api/tables/t1/requests/roll', { params: 3, token: TOKEN })).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
  });

  it('answers REQUEST_TIMEOUT when the table does not answer in time', async () => {
    const slow = await makeApp({ requestTimeoutMs: 200 });
    const other = new FakeController({
      url: broker.url, baseTopic: BASE, username: USERS.controller.username, password: USERS.controller.password, token: TOKEN,
      tables: [{ id: 'slow', game: 'zip-zap', players: ['a', 'b'] }], answerDelayMs: 1500,
    });
    await other.start();
    try {
      await waitFor(async () => (await slow.inject({ url: '/api/tables/slow/state' })).statusCode === 200, 'slow table');
      const r = await slow.inject({ method: 'POST', url: '/api/tables/slow/requests/next-round', payload: { token: TOKEN } });
      expect(r.statusCode).toBe(504);
      expect(r.json()).toMatchObject({ code: 'REQUEST_TIMEOUT' });
    } finally {
      await other.stop();
      await slow.close();
    }
  });

  it('answers MQTT_UNAVAILABLE while the broker is unreachable', async () => {
    const hub = new MqttHub({ url: 'mqtt://127.0.0.1:1', username: 'x', password: 'y', baseTopic: BASE, connectWaitMs: 50, reconnectPeriodMs: 60_000 });
    await hub.start();
    await expect(hub.request('t1', 'roll', {}, TOKEN)).rejects.toMatchObject({ code: 'MQTT_UNAVAILABLE' });
    await hub.stop();
  });
});

describe('pages and headers', () => {
  it('serves the page with security headers and a strict CSP', async () => {
    const r = await app.inject({ url: '/' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-security-policy']).toContain('default-src \'self\'');
    expect(r.headers['content-security-policy']).toContain('script-src \'self\'');
    expect(r.headers['content-security-policy']).toContain('frame-ancestors \'none\'');
    expect(r.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['referrer-policy']).toBe('no-referrer');
    expect(r.headers['cache-control']).toBe('no-cache');
    // A description for search results and link previews (issue 20, item 8).
    expect(r.body).toMatch(/<meta name="description" content="zaptable live: [^"]{40,}">/);
    const script = /src="(\/assets\/main\.[0-9A-Z]+\.js)"/.exec(r.body)?.[1];
    expect(script).toBeDefined();
    const asset = await app.inject({ url: script ?? '' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect(asset.headers['content-type']).toContain('javascript');
    expect((await app.inject({ url: '/assets/nope.js' })).json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('also sets the headers on API answers', async () => {
    const r = await app.inject({ url: '/api/tables' });
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['content-security-policy']).toBeDefined();
  });
});

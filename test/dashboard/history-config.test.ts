/**
 * The notices and station history the dashboard keeps (`server/history.ts`), their routes, the warnings read
 * from station health (`web/health-samples.ts`), and the read-only configuration (`GET /api/config`): against a
 * real embedded broker, with the controller's messages published by a client logged in as the controller.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardApp } from '../../dashboard/server/app.ts';
import type { Assets } from '../../dashboard/server/assets.ts';
import { buildAssets } from '../../dashboard/server/assets-bundle.ts';
import { SEED_HIDDEN } from '../../dashboard/server/routes/config.ts';
import { healthNotices, sampleOf, type HealthSample } from '../../dashboard/web/health-samples.ts';
import { MASK, maskSecrets, validateConfig } from '../../controller/config/index.ts';
import type { EmbeddedBroker } from '../../controller/transport/embedded-broker.ts';
import { BASE, TOKEN, USERS, startBroker } from './support/harness.ts';
import { waitFor } from './support/wait.ts';

const ERRORS = { badLines: 0, lostEvents: 0, timeouts: 0, commandErrors: 0, resets: 0, disconnects: 0 };
const CONTROLLER_PASSWORD = 'controller-secret-password-1';

let broker: EmbeddedBroker;
let assets: Assets;
let app: FastifyInstance;
let bare: FastifyInstance;
let client: MqttClient;

function configWithSecrets(): unknown {
  const result = validateConfig({
    tables: [{ id: 't9', mode: 'zip-zap', seed: 1234, seats: [{ id: 'ana' }, { id: 'ben' }] }, { id: 't8', mode: 'zip-zap', seats: [{ id: 'cy' }, { id: 'dee' }] }],
    mqtt: { controller: { username: 'ctl', password: CONTROLLER_PASSWORD } },
    dashboard: { token: TOKEN, mqtt: { username: 'dash', password: 'dashboard-secret-password' } },
  });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return maskSecrets(result.config);
}

async function makeApp(config: unknown): Promise<FastifyInstance> {
  const instance = Fastify({ logger: false });
  await instance.register(dashboardApp, {
    token: TOKEN, assets, ...(config === undefined ? {} : { config }),
    mqtt: { url: broker.url, username: USERS.dashboard.username, password: USERS.dashboard.password, baseTopic: BASE },
  });
  await instance.ready();
  return instance;
}

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

async function get(path: string, headers: Record<string, string> = {}, on = app): Promise<Answer> {
  const r = await on.inject({ method: 'GET', url: path, headers });
  return { status: r.statusCode, body: r.json() };
}

async function health(station: string, fields: Record<string, unknown>): Promise<void> {
  await client.publishAsync(`${BASE}/t9/health/${station}`, JSON.stringify({ station, kind: 'seat', online: true, errors: ERRORS, lastSeenMs: Date.now(), ...fields }), { qos: 1, retain: true });
}

beforeAll(async () => {
  assets = await buildAssets();
  broker = await startBroker();
  client = await connectAsync(broker.url, { username: USERS.controller.username, password: USERS.controller.password, clientId: `ctl-history-${process.pid}` });
  await client.publishAsync(`${BASE}/bridge/pi-9/tables`, JSON.stringify({ controller: 'pi-9', tables: [{ id: 't9', name: 'Nine' }] }), { qos: 1, retain: true });
  app = await makeApp(configWithSecrets());
  bare = await makeApp(undefined);
  await waitFor(async () => (await get('/api/tables')).body.tables !== undefined && ((await get('/api/tables')).body.tables as unknown[]).length === 1, 'the table');
});

afterAll(async () => {
  await app.close();
  await bare.close();
  await client.endAsync();
  await broker.close();
});

describe('notices and station history', () => {
  it('keeps NOTICE events newest first, once each, and nothing else', async () => {
    const event = (seq: number, type: string, code?: string): string => JSON.stringify({ type, code, message: `m${seq}`, station: 'seat-1', seq, at: 1760000000000 + seq, epoch: 7 });
    await client.publishAsync(`${BASE}/t9/events`, event(1, 'NOTICE', 'UNKNOWN_TAG'), { qos: 1 });
    await client.publishAsync(`${BASE}/t9/events`, event(2, 'CARD_PLAYED'), { qos: 1 });
    await client.publishAsync(`${BASE}/t9/events`, event(3, 'NOTICE', 'WEIGHT_MISMATCH'), { qos: 1 });
    // QoS 1 may deliver an event twice.
    await client.publishAsync(`${BASE}/t9/events`, event(3, 'NOTICE', 'WEIGHT_MISMATCH'), { qos: 1 });
    const notices = await waitFor(async () => {
      const list = (await get('/api/tables/t9/notices')).body.notices as { code: string; seq: number }[];
      return list.length >= 2 ? list : undefined;
    }, 'the notices');
    expect(notices.map((n) => [n.seq, n.code])).toEqual([[3, 'WEIGHT_MISMATCH'], [1, 'UNKNOWN_TAG']]);
    expect((await get('/api/tables/nope/notices')).body.code).toBe('TABLE_NOT_FOUND');
  });

  it('keeps a station\'s health as samples of what changed, and answers STATION_NOT_FOUND for one never heard', async () => {
    await health('seat-1', { clock: { offsetUs: 1, driftPpm: 10, uncertaintyUs: 300 } });
    await health('seat-1', { clock: { offsetUs: 1, driftPpm: 10, uncertaintyUs: 320 } }); // the same to 0.1 ms: not kept
    await health('seat-1', { clock: { offsetUs: 1, driftPpm: 10, uncertaintyUs: 9000 } });
    await health('seat-1', { online: false, errors: { ...ERRORS, disconnects: 1 }, clock: { offsetUs: 1, driftPpm: 10, uncertaintyUs: null } });
    const samples = await waitFor(async () => {
      const r = await get('/api/tables/t9/stations/seat-1/history');
      const list = r.body.samples as HealthSample[] | undefined;
      return list !== undefined && list.length >= 3 ? list : undefined;
    }, 'the samples');
    expect(samples.map((s) => [s.online, s.uncertaintyUs, s.errors.disconnects]))
      .toEqual([[true, 300, 0], [true, 9000, 0], [false, null, 1]]);
    const missing = await get('/api/tables/t9/stations/seat-7/history');
    expect([missing.status, missing.body.code]).toEqual([404, 'STATION_NOT_FOUND']);
    expect(Object.keys((await get('/api/tables/t9/health/history')).body.stations as object)).toEqual(['seat-1']);
  });
});

describe('warnings read from station health', () => {
  const at = (i: number): number => 1_000 + i;
  const sample = (i: number, fields: Record<string, unknown>): HealthSample => {
    const s = sampleOf({ online: true, errors: ERRORS, clock: { uncertaintyUs: 200 }, ...fields }, at(i));
    if (s === undefined) throw new Error('not a health payload');
    return s;
  };

  it('says when a station goes offline and back, a counter rises, and the clock would decide ties', () => {
    const lines = healthNotices('seat-2', [
      sample(0, {}),
      sample(1, { clock: { uncertaintyUs: 7000 } }),
      sample(2, { online: false }),
      sample(3, { errors: { ...ERRORS, badLines: 2, disconnects: 1 } }),
      sample(4, { errors: { ...ERRORS, badLines: 2, disconnects: 1 } }),
    ]);
    expect(lines.map((l) => [l.at, l.severity, l.code])).toEqual([
      [at(1), 'warning', 'CLOCK_UNCERTAIN'],
      [at(2), 'problem', 'STATION_OFFLINE'],
      [at(3), 'info', 'STATION_ONLINE'],
      [at(3), 'warning', 'ERROR_COUNTER'],
      [at(3), 'warning', 'ERROR_COUNTER'],
    ]);
    expect(lines.map((l) => l.text)).toContain('seat-2: badLines rose by 2 to 2');
    expect(lines[0]?.text).toContain('±7.0 ms');
  });

  it('says nothing for a station that stays well', () => {
    expect(healthNotices('seat-1', [sample(0, {}), sample(1, { clock: { uncertaintyUs: 900 } })])).toEqual([]);
  });

  it('counts a station without a clock mapping yet (null) as a clock that would decide ties', () => {
    expect(healthNotices('seat-1', [sample(0, { clock: { uncertaintyUs: null } })]).map((l) => l.code)).toEqual(['CLOCK_UNCERTAIN']);
  });
});

describe('the configuration (read-only, token only)', () => {
  it('refuses it without the dashboard token, or with a wrong one', async () => {
    expect((await get('/api/config')).status).toBe(401);
    const wrong = await get('/api/config', { authorization: 'Bearer not-the-token-at-all' });
    expect([wrong.status, wrong.body.code]).toEqual([401, 'UNAUTHORIZED']);
  });

  it('shows the validated configuration with every secret masked and a fixed seed hidden', async () => {
    const r = await app.inject({ method: 'GET', url: '/api/config', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(r.statusCode).toBe(200);
    interface Shown {
      dashboard: Record<string, unknown>;
      mqtt: { controller: Record<string, unknown> };
      tables: { seed: unknown }[];
    }
    const { config } = r.json<{ config: Shown }>();
    expect(config.dashboard.token).toBe(MASK);
    expect(config.mqtt.controller.password).toBe(MASK);
    expect(config.mqtt.controller.username).toBe('ctl');
    expect(config.tables.map((t) => t.seed)).toEqual([SEED_HIDDEN, 'auto']);
    // Nowhere in the answer, whatever the key.
    for (const secret of [TOKEN, CONTROLLER_PASSWORD, 'dashboard-secret-password', '1234']) expect(r.body).not.toContain(secret);
  });

  it('says CONFIG_UNAVAILABLE when the dashboard was started without one', async () => {
    const r = await get('/api/config', { authorization: `Bearer ${TOKEN}` }, bare);
    expect([r.status, r.body.code]).toEqual([404, 'CONFIG_UNAVAILABLE']);
  });
});

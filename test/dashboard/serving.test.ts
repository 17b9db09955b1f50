/**
 * How the dashboard is served: the page and its assets precompressed (gzip, brotli) by `Accept-Encoding`, the
 * token check the token field uses, and the addresses the start-up banner prints for phones.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardLines } from '../../controller/cli/commands/start.ts';
import { dashboardApp } from '../../dashboard/server/app.ts';
import type { Assets } from '../../dashboard/server/assets.ts';
import { buildAssets } from '../../dashboard/server/assets-bundle.ts';
import { pickEncoding } from '../../dashboard/server/encoding.ts';
import { dashboardAddresses, type Interfaces } from '../../dashboard/server/lan-addresses.ts';
import { startDashboard } from '../../dashboard/server/server.ts';
import type { EmbeddedBroker } from '../../controller/transport/embedded-broker.ts';
import { BASE, TOKEN, USERS, startBroker } from './support/harness.ts';

let broker: EmbeddedBroker;
let assets: Assets;
let app: FastifyInstance;

beforeAll(async () => {
  assets = await buildAssets();
  broker = await startBroker();
  app = Fastify({ logger: false });
  await app.register(dashboardApp, {
    token: TOKEN, assets,
    mqtt: { url: broker.url, username: USERS.dashboard.username, password: USERS.dashboard.password, baseTopic: BASE },
  });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await broker.close();
});

const script = (): string => {
  const name = [...assets.files.keys()].find((n) => n.endsWith('.js'));
  if (name === undefined) throw new Error('no script bundled');
  return `/assets/${name}`;
};

describe('the script split by route', () => {
  const text = (name: string): string => assets.files.get(name)?.body.toString('utf8') ?? '';
  const download = (module: string): string => (assets.pages.get(module) ?? []).map(text).join('\n');

  it('gives every page its own chunk, and the overview none of the health page\'s uPlot nor the games\' pages', () => {
    for (const module of ['pages/overview.ts', 'pages/health.ts', 'pages/notices.ts', 'pages/station.ts', 'pages/config.ts',
      'pages/game-route.ts', 'pages/referee-route.ts', 'pages/simulator.ts', 'games/registry.ts']) {
      expect(assets.pages.get(module), module).toBeDefined();
    }
    // A class name uPlot gives its plot area (kept by the minifier: a string).
    const uplot = 'u-over';
    expect(download('pages/health.ts')).toContain(uplot);
    expect(download('pages/overview.ts')).not.toContain(uplot);
    expect(download('pages/overview.ts').length).toBeLessThan(download('pages/health.ts').length);
    const router = assets.pages.get('main.ts') ?? [];
    // The router loads no page: each page's chunk is one the router does not.
    for (const [module, names] of assets.pages) {
      if (module !== 'main.ts') expect(names.some((n) => !router.includes(n)), module).toBe(true);
    }
  });

  it('serves every chunk the pages load', async () => {
    for (const name of new Set([...assets.pages.values()].flat())) {
      const r = await app.inject({ url: `/assets/${name}` });
      expect([name, r.statusCode]).toEqual([name, 200]);
    }
  });
});

describe('compressed assets', () => {
  it('serves the script gzipped to a browser that accepts gzip, and it unpacks to the same bytes', async () => {
    const plain = await app.inject({ method: 'GET', url: script() });
    const gz = await app.inject({ method: 'GET', url: script(), headers: { 'accept-encoding': 'gzip, deflate' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toContain('accept-encoding');
    expect(gz.headers['cache-control']).toContain('immutable');
    expect(gz.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(gunzipSync(gz.rawPayload).equals(plain.rawPayload)).toBe(true);
  });

  it('prefers brotli when offered, and the page and stylesheet are compressed too', async () => {
    const br = await app.inject({ method: 'GET', url: script(), headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe((await app.inject({ method: 'GET', url: script() })).body);
    const page = await app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip' } });
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(page.headers['content-type']).toContain('text/html');
    expect(gunzipSync(page.rawPayload).toString('utf8')).toBe(assets.html);
    const css = [...assets.files.keys()].find((n) => n.endsWith('.css'));
    const style = await app.inject({ method: 'GET', url: `/assets/${css ?? ''}`, headers: { 'accept-encoding': 'gzip' } });
    expect(style.headers['content-encoding']).toBe('gzip');
    expect(style.headers['content-type']).toContain('text/css');
  });

  it('sends identity when gzip is refused (q=0) or nothing is offered', async () => {
    for (const header of ['identity', 'gzip;q=0', 'br;q=0, gzip;q=0', '*;q=0']) {
      const r = await app.inject({ method: 'GET', url: script(), headers: { 'accept-encoding': header } });
      expect(r.headers['content-encoding'], header).toBeUndefined();
    }
  });

  it('negotiates by q-value', () => {
    expect(pickEncoding(undefined)).toBe('identity');
    expect(pickEncoding('gzip')).toBe('gzip');
    expect(pickEncoding('br;q=0.5, gzip;q=0.9')).toBe('gzip');
    expect(pickEncoding('gzip;q=0.5, br')).toBe('br');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('GZIP ; q=1')).toBe('gzip');
    expect(pickEncoding('deflate')).toBe('identity');
    expect(pickEncoding('gzip;q=bad')).toBe('identity');
  });
});

describe('token check', () => {
  it('says valid for the dashboard token and 401 UNAUTHORIZED for any other, in the body or as a bearer', async () => {
    const ok = await app.inject({ method: 'POST', url: '/api/token/check', payload: { token: TOKEN } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ valid: true });
    const bearer = await app.inject({ method: 'POST', url: '/api/token/check', payload: {}, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(bearer.statusCode).toBe(200);
    for (const token of ['', 'wrong-token-0123456789', `${TOKEN}x`]) {
      const r = await app.inject({ method: 'POST', url: '/api/token/check', payload: { token } });
      expect(r.statusCode, token).toBe(401);
      expect(r.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    }
    const bad = await app.inject({ method: 'POST', url: '/api/token/check', payload: { token: 'x'.repeat(2000) } });
    expect(bad.json()).toMatchObject({ code: 'BAD_REQUEST' });
  });
});

describe('addresses for the banner', () => {
  const interfaces: Interfaces = {
    lo: [{ address: '127.0.0.1', family: 'IPv4', internal: true, netmask: '255.0.0.0', mac: '00:00:00:00:00:00', cidr: null }],
    wlan0: [
      { address: '192.168.1.20', family: 'IPv4', internal: false, netmask: '255.255.255.0', mac: 'aa:bb:cc:dd:ee:ff', cidr: null },
      { address: 'fe80::1', family: 'IPv6', internal: false, netmask: 'ffff:ffff:ffff:ffff::', mac: 'aa:bb:cc:dd:ee:ff', cidr: null, scopeid: 2 },
    ],
    eth0: [{ address: '169.254.3.4', family: 'IPv4', internal: false, netmask: '255.255.0.0', mac: '11:22:33:44:55:66', cidr: null }],
    usb0: [{ address: '10.0.0.7', family: 'IPv4', internal: false, netmask: '255.0.0.0', mac: '11:22:33:44:55:67', cidr: null }],
  };

  it('lists every external IPv4 address for a wildcard host, and keeps localhost for this machine', () => {
    expect(dashboardAddresses('0.0.0.0', 8080, interfaces)).toEqual({
      local: 'http://127.0.0.1:8080', lan: ['http://192.168.1.20:8080', 'http://10.0.0.7:8080'],
    });
    expect(dashboardAddresses('::', 80, interfaces).lan).toEqual(['http://192.168.1.20:80', 'http://10.0.0.7:80']);
  });

  it('gives only the host itself when it listens on one address', () => {
    expect(dashboardAddresses('127.0.0.1', 8080, interfaces)).toEqual({ local: 'http://127.0.0.1:8080', lan: [] });
    expect(dashboardAddresses('::1', 8080, interfaces)).toEqual({ local: 'http://[::1]:8080', lan: [] });
  });

  it('prints this machine\'s address, then one line per LAN address', () => {
    expect(dashboardLines('http://127.0.0.1:8080', ['http://192.168.1.20:8080'])).toEqual([
      '  dashboard  http://127.0.0.1:8080  (this machine)',
      '             http://192.168.1.20:8080  (phones and tablets on this network)',
    ]);
    expect(dashboardLines('http://127.0.0.1:8080', [])).toEqual(['  dashboard  http://127.0.0.1:8080']);
    expect(dashboardLines(undefined, [])).toEqual([]);
  });

  it('a dashboard on 0.0.0.0 reports the machine\'s LAN addresses, and answers on them', async () => {
    const running = await startDashboard({
      host: '0.0.0.0', port: 0, token: TOKEN,
      mqtt: { url: broker.url, username: USERS.dashboard.username, password: USERS.dashboard.password, baseTopic: BASE },
    });
    try {
      expect(running.url).toBe(`http://127.0.0.1:${running.port}`);
      expect(running.lanUrls).toEqual(dashboardAddresses('0.0.0.0', running.port).lan);
      for (const url of [running.url, ...running.lanUrls]) {
        const r = await fetch(`${url}/api/info`);
        expect(r.status, url).toBe(200);
      }
    } finally {
      await running.close();
    }
  });
});

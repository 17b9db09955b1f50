/**
 * Brokers over TLS with a private CA (docs/venue.md, "TLS"), with real processes: a throw-away CA and server
 * certificate made with openssl, one Mosquitto with two TLS listeners (one also requiring a client
 * certificate), `zaptable start` and `zaptable dashboard` processes configured with `tls.ca` (a path relative to
 * the config file), `tls.cert` and `tls.key`. Checks:
 * - `broker: external` on `mqtts://` with `ca`: the controller runs, a viewer over mqtts sees its retained
 *   state, and its dashboard (`zaptable start`) and a `zaptable dashboard` both list the table online;
 * - without `ca`: `zaptable start` and `zaptable dashboard` exit 1 saying the broker's certificate does not
 *   verify and what to set;
 * - a `ca` file that does not exist: the coded configuration error, exit 1, nothing started (no event log);
 * - the venue link (`mqtt.venue.url: mqtts://…` with `tls.ca`) from a controller on its embedded broker, and
 *   without `ca` the controller runs its table and says why the venue does not see it;
 * - a broker requiring client certificates: with `cert` and `key` it connects; without, exit 1 and why.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort, mosquittoProblem, startMosquitto, type BenchBroker, type MosquittoUser } from '../../controller/bench/mosquitto.ts';
import {
  DASHBOARD_USER, VENUE_BASE, VIEWER_USER, VenueProcess, VenueWatcher, controllerUser, startVenueDashboard, until,
} from './support/venue.ts';
import { makeClientCert, makeTestPki, mosquittoTlsLines, type TestPki } from './support/tls.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const TOKEN = 'tls-referee-token-0123';

/** One controller of these tests: its id and its one table (each test has its own, so they share the broker). */
const CONTROLLERS = ['tls-ext', 'tls-noca', 'tls-nofile', 'tls-venue', 'tls-venue-noca', 'tls-cert', 'tls-nocert'] as const;
type ControllerId = typeof CONTROLLERS[number];
const tableOf = (id: ControllerId): string => `${id}-t`;

const skip = mosquittoProblem();
let broker: BenchBroker | undefined;
let pki: TestPki | undefined;
/** The listener with server TLS only, and the one that also requires a client certificate. */
let tlsUrl = '';
let clientCertUrl = '';
let viewer: VenueWatcher | undefined;
const dirs: string[] = [];
const processes: VenueProcess[] = [];

/**
 * A controller's folder with its config file and `certs/` (the CA and, for `clientCert`, its certificate and
 * key): `tls` is the YAML of its `tls:` section, with paths relative to the file.
 */
function controllerFolder(
  id: ControllerId, mqtt: (user: { username: string; password: string }) => string[], dashboardPort?: number,
): string {
  const dir = mkdtempSync(path.join(tmpdir(), `zaptable-${id}-`));
  dirs.push(dir);
  mkdirSync(path.join(dir, 'certs'));
  copyFileSync(pki?.ca ?? '', path.join(dir, 'certs', 'ca.pem'));
  const file = path.join(dir, 'zaptable.yaml');
  writeFileSync(file, [
    'tables:',
    `  - { id: ${tableOf(id)}, mode: zip-zap, seats: [{ id: ana }, { id: ben }] }`,
    'hardware: { kind: simulated, simulated: { speed: 1, bots: true } }',
    `controller: { id: ${id} }`,
    'mqtt:',
    `  baseTopic: ${VENUE_BASE}`,
    ...mqtt(controllerUser({ id })).map((line) => `  ${line}`),
    dashboardPort === undefined ? `dashboard: { enabled: false, token: ${TOKEN} }`
      : `dashboard: { host: 127.0.0.1, port: ${dashboardPort}, token: ${TOKEN}, mqtt: { username: ${DASHBOARD_USER.username}, password: ${DASHBOARD_USER.password} } }`,
    'log: { level: warn }',
    `storage: { directory: ${JSON.stringify(dir)} }`,
    '',
  ].join('\n'));
  return file;
}

/** The `mqtt:` lines of a controller on the external broker `url` with the `tls:` section `tls` (YAML flow). */
const externalBroker = (url: string, tls: string | undefined) => (user: { username: string; password: string }) => [
  'broker: external',
  `external: { url: "${url}"${tls === undefined ? '' : `, tls: ${tls}`} }`,
  `controller: { username: ${user.username}, password: ${user.password} }`,
];

/** Runs `zaptable start` (or `dashboard`) until it exits by itself (the failing starts); its exit code and output. */
async function startToExit(file: string, command = 'start'): Promise<{ readonly code: number | null; readonly output: string }> {
  return new Promise((resolve) => {
    const args = [path.join(root, 'bin', 'zaptable.mjs'), command, '--config', file];
    const child = execFile(process.execPath, args, { timeout: 30_000 }, (_error, stdout, stderr) => {
      resolve({ code: child.exitCode, output: `${stdout}${stderr}` });
    });
  });
}

async function start(id: ControllerId, file: string): Promise<VenueProcess> {
  const p = await VenueProcess.start(`controller ${id}`, ['start', '--config', file], 'Press Ctrl-C to stop.');
  processes.push(p);
  return p;
}

/** Resolves once the viewer (over mqtts) has the table's retained state. */
async function stateSeen(table: string): Promise<unknown> {
  return until(() => viewer?.json(`${VENUE_BASE}/${table}/state`), `${table}'s state on the TLS broker`);
}

async function overview(url: string): Promise<{ id: string; status: string }[]> {
  const r = await fetch(`${url}/api/tables`);
  return ((await r.json()) as { tables: { id: string; status: string }[] }).tables;
}

beforeAll(async () => {
  if (skip !== undefined) return;
  const pkiDir = mkdtempSync(path.join(tmpdir(), 'zaptable-pki-'));
  dirs.push(pkiDir);
  pki = makeTestPki(pkiDir);
  const users: MosquittoUser[] = [
    ...CONTROLLERS.map((id) => ({ ...controllerUser({ id }), role: 'controller' as const, venue: { controller: id, tables: [tableOf(id)] } })),
    { ...DASHBOARD_USER, role: 'referee' }, { ...VIEWER_USER, role: 'viewer' },
  ];
  const certPort = await freeLoopbackPort();
  broker = await startMosquitto(VENUE_BASE, users, [
    ...mosquittoTlsLines(pki), ...mosquittoTlsLines(pki, { port: certPort, clientCertificates: true }),
  ]);
  tlsUrl = broker.url.replace('mqtt://', 'mqtts://');
  clientCertUrl = `mqtts://127.0.0.1:${certPort}`;
  viewer = await VenueWatcher.connect(tlsUrl, VIEWER_USER, [`${VENUE_BASE}/+/state`], { ca: readFileSync(pki.ca, 'utf8') });
}, 30_000);

afterAll(async () => {
  await Promise.all(processes.map(async (p) => p.stop()));
  await viewer?.close();
  await broker?.dispose();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(skip !== undefined)('brokers over TLS with a private CA (Mosquitto)', () => {
  it('an external broker on mqtts:// with tls.ca (relative to the config file): the controller, its dashboard and zaptable dashboard connect', async () => {
    const [own, venueDashboard] = [await freeLoopbackPort(), await freeLoopbackPort()];
    const file = controllerFolder('tls-ext', externalBroker(tlsUrl, '{ ca: certs/ca.pem }'), own);
    await start('tls-ext', file);
    expect(await stateSeen(tableOf('tls-ext'))).toMatchObject({ mode: 'game', game: 'zip-zap' });
    // `zaptable start`'s dashboard follows the same broker with the same CA.
    await until(async () => ((await overview(`http://127.0.0.1:${own}`)).some((t) => t.id === tableOf('tls-ext') && t.status === 'online') ? true : undefined),
      'the table online on the controller\'s dashboard');
    // `zaptable dashboard` with that configuration (its own port).
    const dashboardFile = path.join(path.dirname(file), 'dashboard.yaml');
    writeFileSync(dashboardFile, readFileSync(file, 'utf8').replace(`port: ${own}`, `port: ${venueDashboard}`));
    processes.push(await startVenueDashboard(dashboardFile));
    await until(async () => ((await overview(`http://127.0.0.1:${venueDashboard}`)).some((t) => t.id === tableOf('tls-ext') && t.status === 'online') ? true : undefined),
      'the table online on zaptable dashboard');
  });

  it('without tls.ca: zaptable start and zaptable dashboard exit 1 and say the certificate does not verify and what to set', async () => {
    const file = controllerFolder('tls-noca', externalBroker(tlsUrl, undefined), await freeLoopbackPort());
    const dashboard = await startToExit(file, 'dashboard');
    expect(dashboard.code).toBe(1);
    expect(dashboard.output).toMatch(/^zaptable dashboard: the broker at mqtts:\/\/127\.0\.0\.1:\d+: TLS_CERT_UNTRUSTED: /m);
    const run = await startToExit(file);
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/zaptable start: .*TLS_CERT_UNTRUSTED: the broker's certificate does not verify \(.+\): /);
    expect(run.output).toContain('set mqtt.external.tls.ca to the CA certificate (PEM) that signed it');
  });

  it('a tls.ca file that does not exist: TLS_FILE_UNREADABLE with the key and the file, exit 1, nothing started', async () => {
    const file = controllerFolder('tls-nofile', externalBroker(tlsUrl, '{ ca: certs/lost.pem }'));
    const run = await startToExit(file);
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/mqtt\.external\.tls\.ca: cannot read \S*certs\/lost\.pem: no such file \[TLS_FILE_UNREADABLE\]/);
    expect(run.output).not.toContain('zaptable is running');
    expect(existsSync(path.join(path.dirname(file), 'zaptable.db'))).toBe(false);
  });

  it('the venue link (mqtt.venue.url mqtts:// with tls.ca) from a controller on its embedded broker: the venue sees the table', async () => {
    const port = await freeLoopbackPort();
    const file = controllerFolder('tls-venue', (user) => [
      `embedded: { port: ${port} }`,
      `venue: { url: "${tlsUrl}", username: ${user.username}, password: ${user.password}, tls: { ca: certs/ca.pem } }`,
    ]);
    await start('tls-venue', file);
    expect(await stateSeen(tableOf('tls-venue'))).toMatchObject({ mode: 'game', game: 'zip-zap' });
  });

  it('a venue link without its ca: the table plays on its own broker and the terminal says why it is not on the venue', async () => {
    const port = await freeLoopbackPort();
    const proc = await start('tls-venue-noca', controllerFolder('tls-venue-noca', (user) => [
      `embedded: { port: ${port} }`,
      `venue: { url: "${tlsUrl}", username: ${user.username}, password: ${user.password} }`,
    ]));
    await proc.waitForOutput('the venue broker refused the controller (');
    await proc.waitForOutput('the venue broker refused the controller; this table is not on the venue');
    const said = proc.output();
    expect(said).toContain('set mqtt.venue.tls.ca to the CA certificate (PEM) that signed it');
    // Said once per connection (the bridge's and the table's), not again by the socket of the client given up.
    expect(said.match(/TLS_CERT_UNTRUSTED/g)).toHaveLength(2);
    expect(viewer?.latest.has(`${VENUE_BASE}/${tableOf('tls-venue-noca')}/state`)).toBe(false);
  });

  it('a broker that requires client certificates: with tls.cert and tls.key it connects; without, exit 1 and why', async () => {
    if (pki === undefined) throw new Error('no PKI');
    const file = controllerFolder('tls-cert', externalBroker(clientCertUrl, '{ ca: certs/ca.pem, cert: certs/pi.pem, key: certs/pi.key }'));
    const client = makeClientCert(pki, 'tls-cert');
    copyFileSync(client.cert, path.join(path.dirname(file), 'certs', 'pi.pem'));
    copyFileSync(client.key, path.join(path.dirname(file), 'certs', 'pi.key'));
    await start('tls-cert', file);
    expect(await stateSeen(tableOf('tls-cert'))).toMatchObject({ mode: 'game', game: 'zip-zap' });
    const run = await startToExit(controllerFolder('tls-nocert', externalBroker(clientCertUrl, '{ ca: certs/ca.pem }')));
    expect(run.code).toBe(1);
    expect(run.output).toContain('TLS_HANDSHAKE_FAILED: the TLS handshake with the broker failed (tlsv13 alert certificate required); '
      + 'a broker that requires a client certificate needs mqtt.external.tls.cert and mqtt.external.tls.key');
  });
});

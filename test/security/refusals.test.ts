/**
 * Item 8 of issue 10: refused logins, publishes, subscriptions and UNAUTHORIZED requests are counted on
 * `<base>/bridge/health` (retained) and logged, rate-limited so a flood of them cannot flood the log. Provoked
 * from outside by clients with wrong passwords, a viewer overstepping its role and requests without a token.
 */
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import type { BridgeHealthPayload } from '../../controller/transport/payloads.ts';
import { BASE, BROKERS, RIG_CONTROLLER, Inbox, Referee, VIEWER, client, startRig, type Rig } from './support/rig.ts';

let rig: Rig | undefined;
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await rig?.dispose();
  rig = undefined;
});

async function badLogin(url: string): Promise<void> {
  await new Promise<void>((resolve) => {
    const c = mqtt.connect(url, { protocolVersion: 4, username: VIEWER.username, password: 'not-the-password', reconnectPeriod: 0 });
    c.once('error', () => {
      c.end(true);
      resolve();
    });
    c.once('connect', () => {
      c.end(true);
      resolve();
    });
  });
}

describe.each(BROKERS)('refusals on %s', (broker) => {
  it('are counted on bridge/health and logged at a bounded rate', async () => {
    rig = await startRig({ broker, tables: [{ id: 't1', mode: 'zip-zap', seats: ['ana', 'ben'] }] });
    for (let i = 0; i < 40; i++) await badLogin(rig.brokerUrl);
    const rogue = await client(rig.brokerUrl, VIEWER);
    closers.push(async () => rogue.endAsync(true));
    await rogue.subscribeAsync(`${BASE}/t1/request/#`, { qos: 1 }).catch(() => undefined);
    // aedes answers a forbidden publish by closing the connection, so no PUBACK may ever come.
    await Promise.race([
      rogue.publishAsync(`${BASE}/t1/state`, '{"forged":true}', { qos: 1 }).catch(() => undefined),
      new Promise((resolve) => setTimeout(resolve, 1000)),
    ]);
    const r = await Referee.connect(rig.brokerUrl);
    closers.push(async () => r.close());
    for (let i = 0; i < 30; i++) expect((await r.request('t1', 'next-round', {}, { token: null })).error?.code).toBe('UNAUTHORIZED');
    const watcherClient = await client(rig.brokerUrl, VIEWER);
    closers.push(async () => watcherClient.endAsync(true));
    const watcher = new Inbox(watcherClient);
    await watcherClient.subscribeAsync(`${BASE}/bridge/${RIG_CONTROLLER}/health`, { qos: 1 });
    const health = await watcher.waitFor(() => {
      const latest = watcher.json(`${BASE}/bridge/${RIG_CONTROLLER}/health`).at(-1) as BridgeHealthPayload | undefined;
      return latest !== undefined && (latest.requests.errors.UNAUTHORIZED ?? 0) >= 30 ? latest : undefined;
    }, 'bridge health with the refusals');
    expect(typeof health.epoch).toBe('number');
    if (broker === 'embedded') {
      expect(health.broker?.refusedConnections).toBeGreaterThanOrEqual(40);
      expect(health.broker?.deniedSubscriptions).toBeGreaterThanOrEqual(1);
      expect(health.broker?.deniedPublishes).toBeGreaterThanOrEqual(1);
    } else {
      // Mosquitto keeps its own counts (its log); the controller reports what reached it.
      expect(health.broker).toBeNull();
    }
    const logged = rig.lines.filter((l) => /refused|UNAUTHORIZED/.test(l));
    expect(logged.some((l) => /UNAUTHORIZED/.test(l))).toBe(true);
    if (broker === 'embedded') expect(logged.some((l) => /connection refused/.test(l))).toBe(true);
    // 70 refusals, but at most a handful of lines per kind within the window.
    expect(logged.length).toBeLessThanOrEqual(20);
  });
});

/**
 * The buzzer hub's host delay, measured on the running controller (issue 17): `<base>/bridge/health` carries
 * the rolling figures of the hub's probe (host-delay-monitor.ts), and a stall of the controller's event loop
 * shows in them. The controller runs in this process, so blocking this thread is blocking the controller.
 * The hub's port does not exist: the hub keeps retrying (offline), the monitor runs all the same.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import { afterEach, expect, it } from 'vitest';
import { ControllerApp } from '../../controller/app/controller-app.ts';
import { freeLoopbackPort } from '../../controller/bench/mosquitto.ts';
import { loadConfig } from '../../controller/config/index.ts';
import type { BridgeHealthPayload } from '../../controller/transport/payloads.ts';

const BASE = 'hubdelay';
const CONTROLLER = { username: 'hd-controller', password: 'controller-password-1' };
const VIEWER = { username: 'hd-viewer', password: 'viewer-password-123' };
const closers: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

it('publishes the hub\'s measured host delay on bridge/health, and a stall of the controller shows in it', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'zaptable-hub-delay-'));
  const file = path.join(dir, 'zaptable.yaml');
  writeFileSync(file, [
    'tables:',
    '  - { id: quiz, mode: buzzer, seats: [{ id: ana, station: buzzer-1 }, { id: ben, station: buzzer-2 }] }',
    'hardware:',
    '  kind: simulated',
    '  simulated: { bots: false, speed: 1 }',
    `  buzzerHub: { port: ${path.join(dir, 'no-such-tty')}, buttons: [{ id: buzzer-1, pin: 2 }, { id: buzzer-2, pin: 3 }], hostDelayMs: 40 }`,
    'controller: { id: hub }',
    'mqtt:',
    `  baseTopic: ${BASE}`,
    '  broker: embedded',
    `  embedded: { port: ${await freeLoopbackPort()} }`,
    `  controller: { username: ${CONTROLLER.username}, password: ${CONTROLLER.password} }`,
    `  clients: [{ username: ${VIEWER.username}, password: ${VIEWER.password}, role: viewer }]`,
    'dashboard: { enabled: false }',
    `storage: { directory: ${JSON.stringify(dir)} }`,
    '',
  ].join('\n'));
  const loaded = loadConfig({ file });
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
  const app = new ControllerApp({ config: loaded.config, say: () => undefined });
  closers.push(() => app.stop());
  const started = await app.start();
  const client = await mqtt.connectAsync(started.brokerUrl, { ...VIEWER, clientId: 'hd-viewer-1', reconnectPeriod: 0 });
  closers.push(() => client.endAsync(true));
  const healths: BridgeHealthPayload[] = [];
  client.on('message', (topic, payload) => {
    if (topic === `${BASE}/bridge/hub/health`) healths.push(JSON.parse(payload.toString()) as BridgeHealthPayload);
  });
  await client.subscribeAsync(`${BASE}/bridge/hub/health`, { qos: 1 });
  const until = async (predicate: (h: BridgeHealthPayload) => boolean, what: string): Promise<BridgeHealthPayload> => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const found = healths.findLast(predicate);
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`no bridge/health with ${what}: ${JSON.stringify(healths.at(-1))}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  const first = await until((h) => (h.hub?.hostDelay.samples ?? 0) >= 20, 'probe samples');
  expect(first.hub?.hostDelay).toMatchObject({ windowS: 60, allowanceMs: 40, edges: 0, edgesOver: 0 });
  // Stall the controller for 150 ms, as a long synchronous task or a starved CPU would.
  const t0 = performance.now();
  while (performance.now() - t0 < 150) { /* busy */ }
  const after = await until((h) => (h.hub?.hostDelay.maxMs ?? 0) >= 130, 'the stall');
  expect(after.hub?.hostDelay.maxMs).toBeLessThan(10_000);
  expect(after.hub?.hostDelay.p50Ms).toBeLessThan(after.hub?.hostDelay.maxMs ?? 0);
}, 40_000);

/**
 * Killer-21 end to end on the embedded broker: the controller (`ControllerApp`, as `zaptable start` runs it) on
 * the simulated table, with bots tapping cards on the pile station, racing for the Killer on their pads,
 * pressing ZAP to bust and taking chips off for lost lives, all through the real serial driver; a viewer
 * subscribes on MQTT. Checked: the game advances from sensor lines to published state and events, and no card
 * in a hand ever appears in a published state.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { ControllerApp } from '../../controller/app/controller-app.ts';
import { freeLoopbackPort } from '../../controller/bench/mosquitto.ts';
import { loadConfig } from '../../controller/config/index.ts';
import type { Killer21State } from '../../controller/rules/killer-21/index.ts';

const BASE = 'k21e2e';
const VIEWER = { username: 'k21-viewer', password: 'viewer-password-123' };

let cleanup: (() => Promise<void>) | undefined;

afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

async function until(condition: () => boolean, what: string, ms = 90_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('Killer-21 at the simulated table', () => {
  it('plays from cards on the pile and pads, publishes state and events, and never shows a hand', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'zaptable-k21-'));
    const port = await freeLoopbackPort();
    const file = path.join(dir, 'zaptable.yaml');
    writeFileSync(file, [
      'tables:',
      '  - id: t1',
      '    mode: killer-21',
      '    seats: [{ id: ana }, { id: ben }, { id: cy }]',
      // Short rounds and a short Killer window, so a busy machine still sees lives lost within the timeout.
      '    rules: { lives: 2, handSize: 4, killerWindowMs: 1500 }',
      '    seed: 7',
      'hardware: { kind: simulated, simulated: { speed: 10 } }',
      'mqtt:',
      `  baseTopic: ${BASE}`,
      '  broker: embedded',
      `  embedded: { port: ${port} }`,
      '  controller: { username: k21-controller, password: controller-password-1 }',
      `  clients: [{ username: ${VIEWER.username}, password: ${VIEWER.password}, role: viewer }]`,
      'dashboard: { enabled: false }',
      `storage: { directory: ${JSON.stringify(dir)} }`,
      '',
    ].join('\n'));
    const loaded = loadConfig({ file });
    if (!loaded.ok) throw new Error(loaded.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
    const app = new ControllerApp({ config: loaded.config, say: () => undefined });
    const started = await app.start();
    const client = await mqtt.connectAsync(started.brokerUrl, { ...VIEWER, clientId: 'k21-e2e-viewer' });
    cleanup = async () => {
      await client.endAsync();
      await app.stop();
    };
    const states: string[] = [];
    const events: { type: string; code?: string }[] = [];
    client.on('message', (topic, payload) => {
      if (topic === `${BASE}/t1/state`) states.push(payload.toString());
      if (topic === `${BASE}/t1/events`) events.push(JSON.parse(payload.toString()) as { type: string });
    });
    await client.subscribeAsync([`${BASE}/t1/state`, `${BASE}/t1/events`], { qos: 1 });

    await until(() => events.filter((e) => e.type === 'CARD_PLAYED').length >= 6 && events.some((e) => e.type === 'LIFE_LOST'), 'six plays and a lost life');
    const types = new Set(events.map((e) => e.type));
    // (The first round was dealt before the viewer subscribed: events are not retained.)
    for (const t of ['TURN_STARTED', 'CARD_PLAYED', 'LIFE_LOST']) expect(types).toContain(t);
    const last = JSON.parse(states.at(-1) ?? '{}') as { mode: string; game: string; view: Record<string, unknown> };
    expect(last).toMatchObject({ mode: 'game', game: 'killer-21' });
    expect(last.view.hands).toBeUndefined();
    // No card that is in a hand now appears in any published state.
    const state = app.tableState('t1')?.state as Killer21State;
    const held = Object.values(state.hands).flat();
    for (const text of states.slice(-5)) for (const card of held) expect(text).not.toContain(`"${card}"`);
    // Sensor-derived plays were accepted: the table read the cards (no unknown tags, no wrong items).
    expect(events.filter((e) => e.type === 'NOTICE' && (e.code === 'UNKNOWN_TAG' || e.code === 'WRONG_ITEM'))).toEqual([]);
  }, 120_000);
});

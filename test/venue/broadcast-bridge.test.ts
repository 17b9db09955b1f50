/**
 * The public broadcast through a real bridge (docs/venue-broadcast.md): two Mosquitto processes, the venue's
 * and the public one, configured with exactly what `zaptable mosquitto-config bridge|public` prints, and a
 * real `zaptable start` on the venue broker with three simulated tables (one of each game) played by bots.
 *
 * The audience's viewer (anonymous, on the public broker, subscribed to everything) must see every state and
 * event the venue's viewer sees, in the same order, and nothing else: no request (they carry tokens), no
 * response (a referee's `simulated-hand` answer holds a hand), no hidden field. An anonymous publish on the
 * public broker must reach nobody: neither the venue nor the audience.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startMosquitto } from '../../controller/bench/mosquitto.ts';
import { startPublicBroker } from '../../controller/bench/venue/brokers.ts';
import { filterCovers } from '../../controller/transport/acl.ts';
import { mosquittoPublicBridge, publicTopics } from '../../controller/transport/mosquitto-bridge.ts';
import {
  BASE, CONTROLLER, REFEREE, USERS, VIEWER, controllerConfig, record, startController, until, type Recorder,
} from './offline-support.ts';

const BRIDGE_USER = { username: 'venue-bridge', password: 'bridge-secret-1' };
const TOKEN = 'referee-token-0123456789';
const TABLES = [{ id: 't-zz', mode: 'zapp-zerapp' }, { id: 't-zip', mode: 'zip-zap' }, { id: 't-k21', mode: 'killer-21' }] as const;
/** Keys that only a non-public view or a request carries (omniscient views, player views, tokens). */
const HIDDEN_KEYS = new Set(['secret', 'barrels', 'hand', 'hands', 'token', 'cards']);

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

/** Every key of a JSON value, at any depth, whose value is not empty (an empty `cards: []` says nothing). */
function hiddenKeysIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) hiddenKeysIn(item, found);
  else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      const empty = Array.isArray(inner) && inner.length === 0;
      if (HIDDEN_KEYS.has(key) && !empty) found.push(key);
      hiddenKeysIn(inner, found);
    }
  }
  return found;
}

function onTopic(recorder: Recorder, topic: string): string[] {
  return recorder.messages.filter((m) => m.topic === topic).map((m) => m.text);
}

describe('a venue broker bridged to a public broker', () => {
  it('carries every public state and event to the audience and nothing else; the audience cannot publish', async () => {
    const publicBroker = await startPublicBroker(BASE, BRIDGE_USER, false);
    cleanups.push(async () => publicBroker.dispose());
    const bridge = mosquittoPublicBridge({
      baseTopic: BASE, address: `127.0.0.1:${new URL(publicBroker.url).port}`,
      remoteUsername: BRIDGE_USER.username, remotePassword: BRIDGE_USER.password, restartTimeoutS: 1,
    });
    const venue = await startMosquitto(BASE, USERS, bridge.split('\n'));
    cleanups.push(async () => venue.dispose());

    // The audience: anonymous, subscribed to everything the broker would give it.
    const audience = await record(publicBroker.url, ['#', `${BASE}/#`]);
    cleanups.push(async () => audience.close());
    const venueViewer = await record(venue.url, [`${BASE}/+/state`, `${BASE}/+/events`], VIEWER);
    cleanups.push(async () => venueViewer.close());
    // What reaches the venue broker at all (the controller's account reads everything under the base).
    const venueAll = await record(venue.url, [`${BASE}/#`], CONTROLLER);
    cleanups.push(async () => venueAll.close());

    const directory = mkdtempSync(path.join(tmpdir(), 'zaptable-broadcast-'));
    const config = path.join(directory, 'zaptable.yaml');
    const text = controllerConfig({ brokerUrl: venue.url, directory, tables: TABLES })
      .replace('dashboard: { enabled: false }', `dashboard: { enabled: false, token: ${TOKEN} }`)
      // One Zip-Zap seat is played by hand, so the referee may ask for its hand (a secret answer).
      .replace('[{ id: ada }, { id: ben }, { id: cy }]', '[{ id: ada }, { id: ben }, { id: cy, bot: false }]');
    writeFileSync(config, text);
    const controller = startController(config);
    cleanups.push(async () => controller.stop());
    await controller.running;

    // A referee on the venue asks for a hand: the answer (on the venue) holds cards.
    const asker = await record(venue.url, [`${BASE}/+/response/ref-1/#`], REFEREE, 'ref-1');
    cleanups.push(async () => asker.close());
    await asker.client.publishAsync(`${BASE}/t-zip/request/ref-1/simulated-hand`, JSON.stringify({ token: TOKEN, station: 't2-seat-3' }), { qos: 1 });
    await until(() => asker.messages.some((m) => m.topic.includes('/response/')), 10_000, () => 'the referee\'s answer');
    const answer = asker.messages.find((m) => m.topic.includes('/response/'))?.text ?? '';

    // The audience tries to publish: a request, a forged state.
    const forged = JSON.stringify({ mode: 'idle', seq: 0, at: 0, forged: 'by-the-audience' });
    await audience.client.publishAsync(`${BASE}/t-zip/state`, forged, { qos: 1, retain: true });
    await audience.client.publishAsync(`${BASE}/t-zip/request/anon/new-game`, JSON.stringify({ token: TOKEN, game: 'zip-zap', players: ['a', 'b'] }), { qos: 1 });

    // The Zip-Zap table waits for its hand-played seat now and then: a few events are enough there.
    const enough = (table: string): number => (table === 't-zip' ? 2 : 5);
    await until(() => TABLES.every((t) => onTopic(venueViewer, `${BASE}/${t.id}/events`).length >= enough(t.id)), 30_000,
      () => TABLES.map((t) => `${t.id}: ${onTopic(venueViewer, `${BASE}/${t.id}/events`).length} events`).join(', '));
    await new Promise((resolve) => setTimeout(resolve, 1500));

    // Nothing but public topics on the public broker; no request, response, token or hidden field.
    const allowed = publicTopics(BASE);
    expect(audience.messages.length).toBeGreaterThan(20);
    for (const m of audience.messages) {
      expect(allowed.some((filter) => filterCovers(filter, m.topic)), m.topic).toBe(true);
      expect(m.text).not.toContain(TOKEN);
      expect(m.text).not.toContain('forged');
      if (m.text.startsWith('{')) expect(hiddenKeysIn(JSON.parse(m.text)), m.topic).toEqual([]);
    }
    expect(answer).toContain('"status":"ok"');
    expect(audience.messages.some((m) => m.text === answer)).toBe(false);
    // Every state and event the venue's viewer saw, in the same order (bridged at QoS 1 on one connection).
    for (const table of TABLES) {
      for (const kind of ['state', 'events']) {
        const topic = `${BASE}/${table.id}/${kind}`;
        const atVenue = onTopic(venueViewer, topic);
        // The audience is one hop further (the bridge): let it catch up with what the venue had.
        await until(() => onTopic(audience, topic).length >= atVenue.length, 10_000, () => `${topic} on the public broker`);
        const inPublic = onTopic(audience, topic).slice(0, atVenue.length);
        expect(inPublic, `${table.id} ${kind}`).toEqual(atVenue);
      }
    }
    // The audience's publishes reached nobody: not the venue, not the audience itself.
    expect(venueAll.messages.some((m) => m.text.includes('forged') || m.topic.includes('/request/anon/'))).toBe(false);
    expect(venueAll.messages.some((m) => m.topic.includes('/response/anon/'))).toBe(false);
  }, 150_000);
});

/**
 * A Pi that loses the venue network keeps its table (docs/venue-offline.md). A real `zaptable start` runs two
 * simulated tables with bots on its embedded broker, linked (`mqtt.venue`) to a real Mosquitto, the venue
 * broker, through a TCP relay the test controls as the network. The link is cut for 30 s while the bots keep
 * playing, then restored.
 * - At the table, a viewer on the embedded broker keeps getting the events live through the cut.
 * - The venue's viewer, connected to the venue broker all along, sees the tables go offline at once, and ends
 *   up with every public event the controller's log holds, in order, byte for byte: the events of the cut
 *   arrive at the reconnection, from the log.
 * - A viewer that asks with the `history` request (no token) gets the same list.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort, startMosquitto, type BenchBroker } from '../../controller/bench/mosquitto.ts';
import { TcpProxy } from '../transport/support/tcp-proxy.ts';
import {
  BASE, LOCAL_VIEWER, USERS, VIEWER, controllerConfig, loggedEvents, record, startController, until,
  type ControllerProcess, type Recorder,
} from './offline-support.ts';

const CUT_MS = 30_000;
const TABLES = [{ id: 't-zz', mode: 'zapp-zerapp' }, { id: 't-zip', mode: 'zip-zap' }] as const;

interface EventMessage { readonly seq: number; readonly epoch: number; readonly at: number; readonly text: string }

function eventsOf(viewer: Recorder, table: string): EventMessage[] {
  return viewer.messages.filter((m) => m.topic === `${BASE}/${table}/events`).map((m) => {
    const e = JSON.parse(m.text) as { seq: number; epoch: number; at: number };
    return { seq: e.seq, epoch: e.epoch, at: e.at, text: m.text };
  });
}

function lastStatus(viewer: Recorder, table: string): string | undefined {
  return viewer.messages.filter((m) => m.topic === `${BASE}/${table}/status`).at(-1)?.text;
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

describe('a controller cut from the venue broker for 30 s', () => {
  it('lets the venue see every event it missed, in order, from the log', async () => {
    const venue: BenchBroker = await startMosquitto(BASE, USERS);
    cleanups.push(async () => venue.dispose());
    const link = new TcpProxy(Number(new URL(venue.url).port));
    const linkPort = await link.start();
    cleanups.push(async () => link.close());
    const directory = mkdtempSync(path.join(tmpdir(), 'zaptable-offline-'));
    const config = path.join(directory, 'zaptable.yaml');
    const embeddedPort = await freeLoopbackPort();
    writeFileSync(config, controllerConfig({ brokerUrl: `mqtt://127.0.0.1:${linkPort}`, directory, tables: TABLES, embeddedPort }));

    const viewer = await record(venue.url, [`${BASE}/+/events`, `${BASE}/+/status`], VIEWER);
    cleanups.push(async () => viewer.close());
    const controller: ControllerProcess = startController(config);
    cleanups.push(async () => controller.stop());
    await controller.running;
    const local = await record(`mqtt://127.0.0.1:${embeddedPort}`, [`${BASE}/+/events`], LOCAL_VIEWER);
    cleanups.push(async () => local.close());
    await until(() => TABLES.every((t) => eventsOf(viewer, t.id).length >= 3), 30_000, () => 'events before the cut');

    const cutAt = Date.now();
    link.breakLink();
    // The venue learns at once (the tables' last wills), while the bots play on at the table.
    await until(() => TABLES.every((t) => lastStatus(viewer, t.id) === 'offline'), 5000, () => 'offline on the venue');
    await new Promise((resolve) => setTimeout(resolve, CUT_MS - (Date.now() - cutAt)));
    link.restore();
    const restoredAt = Date.now();
    await until(() => TABLES.every((t) => lastStatus(viewer, t.id) === 'online'), 15_000, () => 'online again');
    await new Promise((resolve) => setTimeout(resolve, 1500));

    // At the table, the game went on live on the embedded broker during the cut.
    for (const table of TABLES) {
      const liveDuringCut = local.messages.filter((m) => m.topic === `${BASE}/${table.id}/events` && m.atMs > cutAt + 500 && m.atMs < restoredAt - 500);
      expect(liveDuringCut.length, `${table.id}: events live at the table during the cut`).toBeGreaterThan(0);
    }

    const database = path.join(directory, 'zaptable.db');
    for (const table of TABLES) {
      const epoch = eventsOf(viewer, table.id)[0]?.epoch ?? 0;
      const logged = loggedEvents(database, table.id, epoch);
      // The bots played on during the cut: those events exist only in the log until the reconnection.
      const duringCut = logged.filter((e) => {
        const at = (JSON.parse(e.payload) as { at: number }).at;
        return at > cutAt + 500 && at < restoredAt - 500;
      });
      expect(duringCut.length, `${table.id}: events played during the cut`).toBeGreaterThan(0);
      const last = logged.at(-1)?.seq ?? 0;
      await until(() => eventsOf(viewer, table.id).some((e) => e.seq >= last), 15_000, () => `${table.id}: event ${last} at the venue`);
      // Distinct events in arrival order (QoS 1 may repeat one; a repeat is identical), up to the log's last.
      const firsts = new Map<number, EventMessage>();
      for (const e of eventsOf(viewer, table.id)) if (e.epoch === epoch && !firsts.has(e.seq)) firsts.set(e.seq, e);
      const order = [...firsts.keys()].filter((seq) => seq <= last);
      expect(order, `${table.id}: 0 events missing, in order`).toEqual(logged.map((e) => e.seq));
      for (const e of logged) expect(firsts.get(e.seq)?.text).toBe(e.payload);
    }

    // A viewer that was away itself asks for the history, without a token, page by page.
    const clientId = viewer.client.options.clientId ?? '';
    await viewer.client.subscribeAsync(`${BASE}/+/response/${clientId}/#`, { qos: 1 });
    const table = TABLES[0].id;
    const epoch = eventsOf(viewer, table)[0]?.epoch ?? 0;
    const logged = loggedEvents(database, table, epoch).map((e) => JSON.parse(e.payload) as unknown);
    const fetched: unknown[] = [];
    let fromSeq: number | null = 1;
    for (let page = 0; fromSeq !== null && page < 100; page++) {
      const before = viewer.messages.length;
      await viewer.client.publishAsync(`${BASE}/${table}/request/${clientId}/history`, JSON.stringify({ fromSeq, epoch, limit: 50 }), { qos: 1 });
      await until(() => viewer.messages.slice(before).some((m) => m.topic.includes('/response/')), 10_000, () => 'history answer');
      const answer = JSON.parse(viewer.messages.slice(before).find((m) => m.topic.includes('/response/'))?.text ?? '{}') as {
        status: string; data: { events: unknown[]; next: number | null };
      };
      expect(answer.status).toBe('ok');
      fetched.push(...answer.data.events);
      fromSeq = answer.data.next;
    }
    expect(fetched.slice(0, logged.length)).toEqual(logged);
    // 30 s of cut, a start of the controller and a few seconds of play: ~45 s on 2 busy cores.
  }, 150_000);
});

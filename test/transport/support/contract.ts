/**
 * The MQTT contract (docs/mqtt.md), as one suite run against every broker zaptable supports: the embedded
 * aedes broker and a real Mosquitto. Each test gets its own table (so retained messages of other tests do not
 * interfere), a controller connected through a TCP relay (so the connection can be cut abruptly), and probes
 * logged in as the three roles. Nothing sleeps: every wait is for a message, with a fence message where the
 * test must prove that something did NOT arrive.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ControllerTransport } from '../../../controller/transport/controller-transport.ts';
import type { BrokerUser } from '../../../controller/transport/embedded-broker.ts';
import type { ResponsePayload } from '../../../controller/transport/payloads.ts';
import { idleStateOf, publicStateOf, tableEventOf } from '../../../controller/transport/public-view.ts';
import type { RequestName, RequestParams } from '../../../controller/transport/requests.ts';
import type { TableChannel } from '../../../controller/transport/table-channel.ts';
import { Topics } from '../../../controller/transport/topics.ts';
import { zipZapEngine } from '../../../controller/rules/zip-zap/index.ts';
import type { BrokerFactory, BrokerUnderTest } from './brokers.ts';
import { Probe, refusalOf } from './probe.ts';
import { TcpProxy } from './tcp-proxy.ts';

// A base topic with two levels, so nothing assumes a single one.
const BASE = 'club/zaptable';
const CONTROLLER = { username: 'zt-controller', password: 'controller-secret-1', role: 'controller' } as const;
const REFEREE = { username: 'dashboard', password: 'dashboard-secret-1', role: 'referee' } as const;
const VIEWER = { username: 'overlay', password: 'overlay-secret-1', role: 'viewer' } as const;
const USERS: readonly BrokerUser[] = [CONTROLLER, REFEREE, VIEWER];
const TOKEN = 'referee-token-0123456789';

interface Call {
  readonly name: RequestName;
  readonly params: unknown;
  readonly identity: string;
}

interface Rig {
  readonly table: string;
  readonly transport: ControllerTransport;
  readonly channel: TableChannel;
  readonly proxy: TcpProxy;
  readonly calls: Call[];
  readonly probe: (user: BrokerUser) => Promise<Probe>;
}

const topics = new Topics(BASE);

function parse(text: string): unknown {
  return JSON.parse(text) as unknown;
}

function responseOf(text: string): ResponsePayload {
  return JSON.parse(text) as ResponsePayload;
}

function rollParams(player: string): RequestParams<'roll'> {
  return { player };
}

export function describeMqttContract(factory: BrokerFactory): void {
  describe(`MQTT contract on ${factory.name}`, () => {
    let broker: BrokerUnderTest;
    let cleanups: (() => Promise<void>)[] = [];
    let tables = 0;

    beforeAll(async () => {
      broker = await factory.start({ baseTopic: BASE, users: USERS });
    });

    afterAll(async () => {
      await broker.dispose();
    });

    afterEach(async () => {
      const pending = cleanups.reverse();
      cleanups = [];
      for (const cleanup of pending) await cleanup();
    });

    async function rig(): Promise<Rig> {
      const table = `t${++tables}`;
      const proxy = new TcpProxy(Number(new URL(broker.url).port));
      const proxyPort = await proxy.start();
      cleanups.push(async () => proxy.close());
      const transport = new ControllerTransport({
        url: `mqtt://127.0.0.1:${proxyPort}`, username: CONTROLLER.username, password: CONTROLLER.password, baseTopic: BASE,
        tables: [table], tokens: [{ id: 'head-referee', token: TOKEN, role: 'referee' }],
        clientIdPrefix: `contract-${table}`, controllerId: `pi-${table}`, reconnectPeriodMs: 100, requestTimeoutMs: 5000,
      });
      const calls: Call[] = [];
      transport.onRequest('roll', async (params, context) => {
        calls.push({ name: 'roll', params, identity: context.identity.id });
        return Promise.resolve({ ok: true, data: { seq: calls.length, d1: 3, d2: 4 } });
      });
      await transport.start();
      cleanups.push(async () => transport.stop());
      return {
        table, transport, channel: transport.table(table), proxy, calls,
        probe: async (user) => {
          const probe = await Probe.connect(broker.url, user.username, user.password);
          cleanups.push(async () => probe.close());
          return probe;
        },
      };
    }

    /** Sends a request as the referee and resolves with its response (the probe must read responses). */
    async function request(
      referee: Probe, table: string, name: string, body: string, transaction: string,
    ): Promise<ResponsePayload> {
      await referee.publish(`${BASE}/${table}/request/${referee.clientId}/${name}`, body);
      const isAnswer = (text: string): boolean => responseOf(text).transaction === transaction;
      const message = await referee.waitOn(`${BASE}/${table}/response/${referee.clientId}/${name}`, isAnswer, `response ${transaction}`);
      return responseOf(message.text);
    }

    describe('retained topics', () => {
      it('announces the controller and the table online and lists the table, retained', async () => {
        const { table, probe } = await rig();
        const viewer = await probe(VIEWER);
        await viewer.subscribe(topics.status(table));
        // Every controller's bridge topics carry its id (several controllers share a venue's broker).
        await viewer.subscribe(topics.bridgeFilter('tables'));
        await viewer.subscribe(topics.bridgeFilter('status'));
        const status = await viewer.waitOn(topics.status(table), (t) => t === 'online', 'table online');
        expect(status.retained).toBe(true);
        await viewer.waitOn(topics.bridgeStatus(`pi-${table}`), (t) => t === 'online', 'bridge online');
        const listed = await viewer.waitFor((m) => m.topic === topics.bridgeTables(`pi-${table}`) && m.retained, 'the table list');
        expect(parse(listed.text)).toEqual({ tables: [{ id: table }], controller: `pi-${table}` });
      });

      it('serves the public state to a late subscriber, without any hidden card', async () => {
        const { table, channel, probe } = await rig();
        const setup = zipZapEngine.setup({ players: ['ana', 'ben', 'cy'] }, 7);
        if (!setup.ok) throw new Error(setup.message);
        const state = publicStateOf(zipZapEngine, setup.state, { seq: 3, at: 1_700_000_000_000 });
        await channel.publishState(state);
        const late = await probe(VIEWER);
        expect(await late.subscribe(topics.state(table))).toBe(1);
        const message = await late.waitOn(topics.state(table), () => true, 'the retained state');
        expect(message.retained).toBe(true);
        expect(parse(message.text)).toEqual(JSON.parse(JSON.stringify(state)));
        const hands = (setup.state as unknown as { hands: Record<string, string[]> }).hands;
        const hidden = Object.values(hands).flat();
        expect(hidden.length).toBeGreaterThan(30);
        for (const card of hidden) expect(message.text).not.toContain(JSON.stringify(card));
      });

      it('keeps health per station, retained, and clears it', async () => {
        const { table, channel, probe } = await rig();
        const health = (station: string) => ({
          station, kind: 'seat' as const, online: true, firmware: '1.0.0', protocol: 1,
          errors: { badLines: 0, lostEvents: 0, timeouts: 0, commandErrors: 0, resets: 0, disconnects: 0 },
        });
        await channel.publishHealth(health('seat-1'));
        const first = await probe(VIEWER);
        await first.subscribe(`${BASE}/${table}/health/+`);
        const seen = await first.waitOn(topics.health(table, 'seat-1'), () => true, 'seat-1 health');
        expect(seen.retained).toBe(true);
        expect(parse(seen.text)).toEqual(health('seat-1'));
        await channel.clearHealth('seat-1');
        const second = await probe(VIEWER);
        await second.subscribe(`${BASE}/${table}/health/+`);
        await channel.publishHealth(health('seat-2')); // the fence: arrives after anything retained
        await second.waitOn(topics.health(table, 'seat-2'), () => true, 'seat-2 health');
        expect(second.received.filter((m) => m.topic === topics.health(table, 'seat-1'))).toEqual([]);
      });
    });

    describe('events', () => {
      it('streams events in order and does not retain them', async () => {
        const { table, channel, probe } = await rig();
        const live = await probe(VIEWER);
        await live.subscribe(topics.events(table));
        for (let seq = 1; seq <= 3; seq++) {
          await channel.publishEvent(tableEventOf({ type: 'STATION_REMOVED', station: `s${seq}` }, { seq, at: 1000 + seq }));
        }
        await live.waitOn(topics.events(table), (t) => (parse(t) as { seq: number }).seq === 3, 'event 3');
        expect(live.json(topics.events(table))).toEqual([1, 2, 3].map((seq) => ({ type: 'STATION_REMOVED', station: `s${seq}`, seq, at: 1000 + seq })));
        const late = await probe(VIEWER);
        await late.subscribe(topics.events(table));
        await channel.publishEvent(tableEventOf({ type: 'STATION_REMOVED', station: 's4' }, { seq: 4, at: 1004 }));
        await late.waitOn(topics.events(table), (t) => (parse(t) as { seq: number }).seq === 4, 'event 4');
        expect(late.json(topics.events(table)).map((e) => (e as { seq: number }).seq)).toEqual([4]);
      });
    });

    describe('availability and reconnection', () => {
      it('goes offline by last will when the connection dies abruptly, and online again after reconnecting', async () => {
        const { table, proxy, probe } = await rig();
        const viewer = await probe(VIEWER);
        await viewer.subscribe(topics.status(table));
        await viewer.waitOn(topics.status(table), (t) => t === 'online', 'online');
        proxy.cutAll();
        await viewer.waitOn(topics.status(table), (t) => t === 'offline', 'offline by last will');
        const offlineAt = viewer.received.findIndex((m) => m.topic === topics.status(table) && m.text === 'offline');
        await viewer.waitFor((m) => m.topic === topics.status(table) && m.text === 'online' && viewer.received.indexOf(m) > offlineAt, 'online again');
      });

      it('announces offline when stopped cleanly', async () => {
        const { table, transport, probe } = await rig();
        const viewer = await probe(VIEWER);
        await viewer.subscribe(topics.status(table));
        await viewer.waitOn(topics.status(table), (t) => t === 'online', 'online');
        await transport.stop();
        await viewer.waitOn(topics.status(table), (t) => t === 'offline', 'offline');
      });

      it('republishes every retained value after a broker restart', async () => {
        const { table, channel, probe } = await rig();
        const state = idleStateOf({ seq: 42, at: 1_700_000_000_000 });
        await channel.publishState(state);
        await broker.stop();
        await broker.restart();
        const watcher = await probe(VIEWER);
        await watcher.subscribe(topics.status(table));
        // `online` is published after the republishing has been acknowledged.
        await watcher.waitOn(topics.status(table), (t) => t === 'online', 'online after the restart');
        const late = await probe(VIEWER);
        await late.subscribe(topics.state(table));
        const message = await late.waitOn(topics.state(table), () => true, 'the state after the restart');
        expect(message.retained).toBe(true);
        expect(parse(message.text)).toEqual(state);
      });
    });

    describe('requests', () => {
      it('answers a request exactly once, with its transaction, and passes the identity', async () => {
        const { table, calls, probe } = await rig();
        const referee = await probe(REFEREE);
        expect(await referee.subscribe(topics.responseFilter(referee.clientId))).toBe(1);
        const response = await request(referee, table, 'roll', JSON.stringify({ transaction: 'tx-1', token: TOKEN, player: 'ana' }), 'tx-1');
        expect(response).toEqual({ status: 'ok', data: { seq: 1, d1: 3, d2: 4 }, error: null, transaction: 'tx-1' });
        expect(calls).toEqual([{ name: 'roll', params: rollParams('ana'), identity: 'head-referee' }]);
        await request(referee, table, 'roll', JSON.stringify({ transaction: 'fence', token: TOKEN }), 'fence');
        expect(referee.json(topics.response(table, referee.clientId, 'roll')).filter((r) => (r as ResponsePayload).transaction === 'tx-1')).toHaveLength(1);
      });

      it('answers bad and unauthorised requests with error codes and calls no handler', async () => {
        const { table, calls, probe } = await rig();
        const referee = await probe(REFEREE);
        await referee.subscribe(topics.responseFilter(referee.clientId));
        const cases: readonly (readonly [string, string, string, string])[] = [
          ['roll', JSON.stringify({ transaction: 'no-token', player: 'ana' }), 'no-token', 'UNAUTHORIZED'],
          ['roll', JSON.stringify({ transaction: 'bad-token', token: 'referee-token-wrong-guess', player: 'ana' }), 'bad-token', 'UNAUTHORIZED'],
          ['roll', JSON.stringify({ transaction: 'invalid', token: TOKEN, player: 42 }), 'invalid', 'INVALID_REQUEST'],
          ['roll', JSON.stringify({ transaction: 'extra', token: TOKEN, dice: 12 }), 'extra', 'INVALID_REQUEST'],
          ['launch-rocket', JSON.stringify({ transaction: 'unknown', token: TOKEN }), 'unknown', 'UNKNOWN_REQUEST'],
          ['new-game', JSON.stringify({ transaction: 'no-handler', token: TOKEN, game: 'zip-zap', players: ['a', 'b'] }), 'no-handler', 'NOT_AVAILABLE'],
        ];
        for (const [name, body, transaction, code] of cases) {
          const response = await request(referee, table, name, body, transaction);
          expect(response).toMatchObject({ status: 'error', data: null, error: { code }, transaction });
        }
        await referee.publish(topics.request(table, referee.clientId, 'roll'), '{"transaction": "broken"');
        const bad = await referee.waitOn(topics.response(table, referee.clientId, 'roll'), (t) => responseOf(t).error?.code === 'BAD_JSON', 'BAD_JSON');
        expect(responseOf(bad.text)).toMatchObject({ status: 'error', transaction: null });
        await request(referee, table, 'roll', JSON.stringify({ transaction: 'fence', token: TOKEN }), 'fence');
        expect(calls.map((c) => c.params)).toEqual([{}]);
        const responses = referee.received.filter((m) => m.topic.startsWith(`${BASE}/${table}/response/`)).map((m) => responseOf(m.text));
        expect(responses).toHaveLength(cases.length + 2);
        expect(JSON.stringify(responses)).not.toContain(TOKEN);
      });

      it('replays the answer to a repeated transaction instead of running it again', async () => {
        const { table, calls, probe } = await rig();
        const referee = await probe(REFEREE);
        await referee.subscribe(topics.responseFilter(referee.clientId));
        const body = JSON.stringify({ transaction: 'once', token: TOKEN, player: 'ben' });
        await referee.publish(topics.request(table, referee.clientId, 'roll'), body);
        await referee.publish(topics.request(table, referee.clientId, 'roll'), body);
        await referee.waitFor(() => referee.json(topics.response(table, referee.clientId, 'roll')).length === 2, 'two responses');
        const [first, second] = referee.json(topics.response(table, referee.clientId, 'roll'));
        expect(second).toEqual(first);
        expect(calls).toHaveLength(1);
      });

      it('runs a request published with the retain flag once, and never again from the broker\'s store', async () => {
        const { table, calls, proxy, probe, transport } = await rig();
        const referee = await probe(REFEREE);
        await referee.subscribe(topics.responseFilter(referee.clientId));
        const watcher = await probe(VIEWER);
        await watcher.subscribe(topics.status(table));
        await referee.publish(topics.request(table, referee.clientId, 'roll'), JSON.stringify({ transaction: 'kept', token: TOKEN }), true);
        await referee.waitOn(topics.response(table, referee.clientId, 'roll'), (t) => responseOf(t).transaction === 'kept', 'the response');
        proxy.cutAll();
        await watcher.waitOn(topics.status(table), (t) => t === 'offline', 'offline');
        // `online` comes after the controller re-subscribed, i.e. after the broker handed it the stored request.
        await watcher.waitFor((m) => m.text === 'online' && watcher.received.indexOf(m) > 0, 'online again');
        await request(referee, table, 'roll', JSON.stringify({ transaction: 'fence', token: TOKEN }), 'fence');
        expect(calls).toHaveLength(2);
        // The stored copy never reached the dispatcher (not even to be replayed from the transaction cache).
        expect(transport.stats().requests.received).toBe(2);
      });

      it('does not let a viewer send requests', async () => {
        const { table, calls, probe } = await rig();
        const viewer = await probe(VIEWER);
        expect(await viewer.publish(topics.request(table, viewer.clientId, 'roll'), JSON.stringify({ transaction: 'sneaky', token: TOKEN }))).toMatch(/acked|closed/);
        const referee = await probe(REFEREE);
        await referee.subscribe(topics.responseFilter(referee.clientId));
        await request(referee, table, 'roll', JSON.stringify({ transaction: 'fence', token: TOKEN }), 'fence');
        expect(calls).toHaveLength(1);
        expect(referee.json(topics.response(table, referee.clientId, 'roll'))).toEqual([expect.objectContaining({ transaction: 'fence' })]);
      });

      it('does not let referees or viewers read requests (they carry tokens) nor other clients\' responses', async () => {
        const { table, probe } = await rig();
        const viewer = await probe(VIEWER);
        const spy = await probe(REFEREE);
        // Refused in the SUBACK (aedes) or granted with every message withheld (Mosquitto): either way, nothing arrives.
        expect([1, 128]).toContain(await viewer.subscribe(`${BASE}/${table}/request/#`));
        expect([1, 128]).toContain(await spy.subscribe(`${BASE}/+/request/+`));
        expect([1, 128]).toContain(await viewer.subscribe(`${BASE}/${table}/response/#`));
        expect([1, 128]).toContain(await spy.subscribe(`${BASE}/+/response/#`));
        await spy.subscribe(topics.responseFilter(spy.clientId));
        const referee = await probe(REFEREE);
        await referee.subscribe(topics.responseFilter(referee.clientId));
        await request(referee, table, 'roll', JSON.stringify({ transaction: 'secret', token: TOKEN }), 'secret');
        // The spy's own answer is the fence: it comes after the referee's.
        await request(spy, table, 'roll', JSON.stringify({ transaction: 'own', token: TOKEN }), 'own');
        for (const p of [viewer, spy]) expect(p.received.filter((m) => m.topic.includes('/request/'))).toEqual([]);
        expect(viewer.received.filter((m) => m.topic.includes('/response/'))).toEqual([]);
        expect(spy.received.map((m) => responseOf(m.text).transaction)).toEqual(['own']);
      });
    });

    describe('authorisation', () => {
      it('refuses a referee publishing state: no subscriber sees it, the retained state stays', async () => {
        const { table, channel, probe } = await rig();
        const genuine = idleStateOf({ seq: 1, at: 1 });
        await channel.publishState(genuine);
        const viewer = await probe(VIEWER);
        await viewer.subscribe(topics.state(table));
        await viewer.waitOn(topics.state(table), () => true, 'the genuine state');
        const forger = await probe(REFEREE);
        const forged = JSON.stringify({ mode: 'idle', seq: 999, at: 2, forged: true });
        expect(await forger.publish(topics.state(table), forged, true)).toMatch(/acked|closed/);
        const impostor = await probe(VIEWER);
        expect(await impostor.publish(topics.status(table), 'offline', true)).toMatch(/acked|closed/);
        const fence = idleStateOf({ seq: 2, at: 3 });
        await channel.publishState(fence);
        await viewer.waitOn(topics.state(table), (t) => (parse(t) as { seq: number }).seq === 2, 'the fence state');
        expect(viewer.received.map((m) => m.text).join('\n')).not.toContain('forged');
        const late = await probe(VIEWER);
        await late.subscribe(topics.state(table));
        await late.subscribe(topics.status(table));
        const state = await late.waitOn(topics.state(table), () => true, 'the retained state');
        expect(parse(state.text)).toEqual(fence);
        await late.waitOn(topics.status(table), (t) => t === 'online', 'status still online');
      });

      it('refuses anonymous clients, wrong passwords and unknown users', async () => {
        expect([4, 5]).toContain(await refusalOf(broker.url));
        expect([4, 5]).toContain(await refusalOf(broker.url, REFEREE.username, 'not-the-password'));
        expect([4, 5]).toContain(await refusalOf(broker.url, 'mallory', REFEREE.password));
      });

      it('makes the controller fail to start with wrong credentials', async () => {
        const transport = new ControllerTransport({
          url: broker.url, username: CONTROLLER.username, password: 'wrong', baseTopic: BASE, tables: ['nope'], tokens: [],
          reconnectPeriodMs: 100,
        });
        await expect(transport.start()).rejects.toThrow(/refused zt-controller/);
      });
    });
  });
}

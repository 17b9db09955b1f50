/**
 * Item 3 of issue 10: a viewer must not knock the controller (or the dashboard) offline by connecting with its
 * client id. The embedded broker reserves every client id that starts with an account's username to that
 * account; the controller's and the dashboard's ids carry a random part, so on Mosquitto (which cannot reserve
 * ids per account) they cannot be guessed. Checked from outside: the ids a viewer would try are refused (aedes)
 * or harmless (both), the table stays online and every request is answered.
 *
 * Issue 18 item 6: on aedes every client id belongs to one login — an account's namespace (`<username>-…`) to
 * that account, any other id (mqtt.js's default `mqttjs_…`) to the first login that used it, for as long as the
 * broker runs — so a viewer cannot throw off a referee that kept mqtt.js's default id, not even while the
 * referee is reconnecting.
 */
import { randomBytes } from 'node:crypto';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientIdOwners } from '../../controller/transport/client-id-owners.ts';
import { BASE, BROKERS, RIG_CONTROLLER, CONTROLLER, Inbox, REFEREE, Referee, TOKEN, VIEWER, client, startRig, type Rig } from './support/rig.ts';

let rig: Rig | undefined;
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await rig?.dispose();
  rig = undefined;
});

/** Connects and reports the CONNACK refusal code, or 0 when accepted (the connection is then kept open). */
async function tryConnect(url: string, clientId: string): Promise<number> {
  return new Promise((resolve) => {
    const c = mqtt.connect(url, {
      protocolVersion: 4, username: VIEWER.username, password: VIEWER.password, clientId,
      reconnectPeriod: 500, connectTimeout: 5000,
    });
    closers.push(async () => c.endAsync(true));
    c.once('connect', () => {
      resolve(0);
    });
    c.once('error', (error) => {
      const code = (error as { code?: unknown }).code;
      c.end(true);
      resolve(typeof code === 'number' ? code : -1);
    });
  });
}

describe.each(BROKERS)('client ids on %s', (broker) => {
  it('a viewer using the controller\'s or the dashboard\'s client ids does not take a connection over', async () => {
    rig = await startRig({ broker, tables: [{ id: 't1', mode: 'zip-zap', seats: ['ana', 'ben'] }] });
    const watcherClient = await client(rig.brokerUrl, VIEWER);
    closers.push(async () => watcherClient.endAsync(true));
    const watcher = new Inbox(watcherClient);
    await watcherClient.subscribeAsync([`${BASE}/t1/status`, `${BASE}/bridge/${RIG_CONTROLLER}/status`], { qos: 1 });
    await watcher.waitFor(() => watcher.messages.find((m) => m.topic === `${BASE}/t1/status` && m.text === 'online'), 'online');
    const referee = await Referee.connect(rig.brokerUrl, `${REFEREE.username}-${randomBytes(8).toString('hex')}`);
    closers.push(async () => referee.close());
    // What a viewer would try: the old predictable ids, and ids in the controller's and the referee's namespaces.
    // (On Mosquitto, which cannot reserve ids per account, the referee's random id is its protection: a viewer
    // cannot learn it, so only the guessable ones are tried there.)
    const guessable = [`zaptable-${BASE}`, `zaptable-${BASE}-t1`, CONTROLLER.username, `${CONTROLLER.username}-t1`];
    const tries = broker === 'embedded' ? [...guessable, referee.clientId] : guessable;
    const codes: number[] = [];
    for (const id of tries) codes.push(await tryConnect(rig.brokerUrl, id));
    if (broker === 'embedded') {
      // Old predictable ids are no longer anybody's; the rest are reserved: CONNACK 2, identifier rejected.
      expect(codes).toEqual([0, 0, 2, 2, 2]);
    }
    // Let a takeover (and its reconnect loop) play out for longer than the reported 2.5 s flapping period.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    let answered = 0;
    for (let i = 0; i < 7; i++) if ((await referee.request('t1', 'next-round')).error?.code === 'ROUND_NOT_OVER') answered++;
    expect(answered).toBe(7);
    expect(watcher.messages.filter((m) => m.text === 'offline')).toEqual([]);
  });
});

describe('client ids on embedded: every id belongs to one login', () => {
  it('a viewer cannot take the id of a referee that kept mqtt.js\'s default, while it is connected or after it left', async () => {
    rig = await startRig({ broker: 'embedded', tables: [{ id: 't1', mode: 'zip-zap', seats: ['ana', 'ben'] }] });
    const url = rig.brokerUrl;
    // A referee tool written the plain way: no client id given, so mqtt.js picks `mqttjs_<random>`.
    const connectReferee = async (clientId?: string): Promise<{ c: mqtt.MqttClient; id: string; inbox: Inbox }> => {
      const c = await mqtt.connectAsync(url, {
        protocolVersion: 4, username: REFEREE.username, password: REFEREE.password, reconnectPeriod: 0,
        ...(clientId === undefined ? {} : { clientId }),
      });
      closers.push(async () => c.endAsync(true));
      const id = c.options.clientId ?? '';
      const inbox = new Inbox(c);
      await c.subscribeAsync(`${BASE}/t1/response/${id}/#`, { qos: 1 });
      return { c, id, inbox };
    };
    let n = 0;
    const ask = async (r: { c: mqtt.MqttClient; id: string; inbox: Inbox }): Promise<unknown> => {
      const transaction = `probe-${++n}`;
      await r.c.publishAsync(`${BASE}/t1/request/${r.id}/next-round`, JSON.stringify({ token: TOKEN, transaction }), { qos: 1 });
      const answer = await r.inbox.waitFor(() => r.inbox.json(`${BASE}/t1/response/`)
        .find((m) => (m as { transaction?: unknown }).transaction === transaction), transaction);
      return (answer as { error?: { code?: unknown } }).error?.code;
    };
    const referee = await connectReferee();
    expect(referee.id).toMatch(/^mqttjs_/);
    let closes = 0;
    referee.c.on('close', () => {
      closes++;
    });
    expect(await tryConnect(url, referee.id)).toBe(2);
    expect(await ask(referee)).toBe('ROUND_NOT_OVER');
    expect(closes).toBe(0);
    expect(referee.c.connected).toBe(true);
    // The referee's network drops: its id is still its own, so the viewer cannot slip in before it reconnects.
    await referee.c.endAsync(true);
    expect(await tryConnect(url, referee.id)).toBe(2);
    const again = await connectReferee(referee.id);
    expect(await ask(again)).toBe('ROUND_NOT_OVER');
  });

  it('a login still replaces its own stale connection, as MQTT intends', async () => {
    rig = await startRig({ broker: 'embedded', tables: [{ id: 't1', mode: 'zip-zap', seats: ['ana', 'ben'] }] });
    const id = `overlay-${randomBytes(4).toString('hex')}`;
    const first = await client(rig.brokerUrl, VIEWER, id);
    closers.push(async () => first.endAsync(true));
    const firstClosed = new Promise<void>((resolve) => first.once('close', () => {
      resolve();
    }));
    const second = await client(rig.brokerUrl, VIEWER, id);
    closers.push(async () => second.endAsync(true));
    await firstClosed;
    expect(second.connected).toBe(true);
  });

  it('remembers a bounded number of first-use ids, forgetting the oldest one without a connection', () => {
    const owners = new ClientIdOwners(['sec-referee', 'sec-viewer'], 2);
    expect(owners.claim('sec-referee-1', 'sec-viewer')).toEqual({ ok: false, owner: 'sec-referee', why: 'reserved' });
    expect(owners.claim('a', 'sec-referee')).toEqual({ ok: true });
    owners.connected('a');
    expect(owners.claim('b', 'sec-referee')).toEqual({ ok: true });
    expect(owners.claim('c', 'sec-viewer')).toEqual({ ok: true });
    expect(owners.size).toBe(2);
    // `b` had no connection and was forgotten; `a`, in use, was kept.
    expect(owners.claim('a', 'sec-viewer')).toEqual({ ok: false, owner: 'sec-referee', why: 'claimed' });
    owners.disconnected('a');
    expect(owners.claim('b', 'sec-viewer')).toEqual({ ok: true });
  });
});

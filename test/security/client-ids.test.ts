/**
 * Item 3 of issue 10: a viewer must not knock the controller (or the dashboard) offline by connecting with its
 * client id. The embedded broker reserves every client id that starts with an account's username to that
 * account; the controller's and the dashboard's ids carry a random part, so on Mosquitto (which cannot reserve
 * ids per account) they cannot be guessed. Checked from outside: the ids a viewer would try are refused (aedes)
 * or harmless (both), the table stays online and every request is answered.
 */
import { randomBytes } from 'node:crypto';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { BASE, BROKERS, CONTROLLER, Inbox, REFEREE, Referee, VIEWER, client, startRig, type Rig } from './support/rig.ts';

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
    await watcherClient.subscribeAsync([`${BASE}/t1/status`, `${BASE}/bridge/status`], { qos: 1 });
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

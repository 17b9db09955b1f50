/**
 * Item 6 of issue 10, from outside: every request message gets exactly one response (also to an unknown table,
 * `bridge` as a table, empty topic levels, and under a flood of 10,000 malformed requests, which change
 * nothing); a transaction is answered once even across a restart and under a flood; two clients using the same
 * transaction id each get their own answer; game requests on the wrong game answer NOT_AVAILABLE;
 * `remove-station` validates its station.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BASE, BROKERS, Inbox, Referee, VIEWER, client, startRig, type Rig, type TableSpec } from './support/rig.ts';

let rig: Rig | undefined;
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await rig?.dispose();
  rig = undefined;
});

const ZIP: TableSpec = { id: 't1', mode: 'zip-zap', seats: ['ana', 'ben'] };
const ZAPP: TableSpec = { id: 'z1', mode: 'zapp-zerapp', seats: ['red', 'green'] };
const QUIZ: TableSpec = { id: 'quiz', mode: 'buzzer', seats: ['ana', 'ben'] };

async function referee(url: string, id?: string): Promise<Referee> {
  const r = await Referee.connect(url, id);
  closers.push(async () => r.close());
  return r;
}

describe.each(BROKERS)('requests on %s', (broker) => {
  it('get exactly one response each, also to unknown tables, `bridge` and empty levels', async () => {
    rig = await startRig({ broker, tables: [ZIP] });
    const r = await referee(rig.brokerUrl);
    const body = (transaction: string): string => JSON.stringify({ transaction, token: 'security-referee-token-0123' });
    const cases: readonly (readonly [string, string, string])[] = [
      [`${BASE}/nope/request/${r.clientId}/roll`, 'unknown', 'UNKNOWN_TABLE'],
      [`${BASE}/bridge/request/${r.clientId}/roll`, 'bridge', 'UNKNOWN_TABLE'],
      [`${BASE}//request/${r.clientId}/roll`, 'empty-table', 'UNKNOWN_TABLE'],
      [`${BASE}/t1/request/${r.clientId}//next-round`, 'empty-name-level', 'UNKNOWN_REQUEST'],
      [`${BASE}/t1/request/${r.clientId}/next-round/`, 'trailing-level', 'UNKNOWN_REQUEST'],
      [`${BASE}/t1/request/${r.clientId}`, 'no-name', 'UNKNOWN_REQUEST'],
    ];
    for (const [topic, transaction] of cases) await r.publishRaw(topic, body(transaction));
    const fence = await r.request('t1', 'next-round');
    expect(fence.error?.code).toBe('ROUND_NOT_OVER');
    await r.inbox.waitFor(() => (r.responses().length === cases.length + 1 ? true : undefined), 'every response');
    for (const [topic, transaction, code] of cases) {
      const answers = r.inbox.messages.filter((m) => m.text.includes(`"${transaction}"`));
      expect(answers.map((m) => m.topic)).toEqual([topic.replace('/request/', '/response/')]);
      expect(JSON.parse(answers[0]?.text ?? '{}')).toMatchObject({ status: 'error', error: { code }, transaction });
    }
  });

  it('answer 10,000 malformed requests exactly 10,000 times and change nothing', async () => {
    rig = await startRig({ broker, tables: [ZIP] });
    const r = await referee(rig.brokerUrl);
    const before = JSON.stringify(rig.app.tableState('t1'));
    const viewerClient = await client(rig.brokerUrl, VIEWER);
    closers.push(async () => viewerClient.endAsync(true));
    const viewer = new Inbox(viewerClient);
    await viewerClient.subscribeAsync([`${BASE}/t1/state`, `${BASE}/t1/events`], { qos: 1 });
    await viewer.waitFor(() => viewer.messages.find((m) => m.topic.endsWith('/state')), 'the retained state');
    const seen = viewer.messages.length;
    const bad = [
      '{', 'null', '[]', '42', '"text"', '{"transaction": {}}', '{"token": 7}', '{"transaction": "x", "token": "wrong-token-wrong-token"}',
      '{"transaction": 1, "token": "security-referee-token-0123", "action": {"type": "play"}}', '\u00ff\u00fe', '',
    ];
    const names = ['action', 'roll', 'new-game', 'launch', 'undo/x', 'remove-station', 'simulate'];
    const total = 10_000;
    const answered = (): number => r.inbox.messages.length;
    // No window on either broker: the generated Mosquitto configuration queues enough for the controller's
    // connection (MOSQUITTO_QUEUE_LIMITS) that a burst of 10,000 is not dropped before the controller answers it.
    for (let i = 0; i < total; i++) {
      const text = bad[i % bad.length] ?? '';
      const name = names[i % names.length] ?? 'roll';
      // Sent without waiting for each PUBACK: a flood, as an attacker would send it.
      r.mqttClient.publish(r.requestTopic('t1', name), Buffer.from(text, 'latin1'), { qos: 1 });
    }
    // The embedded broker reads a referee's requests at 500 a second once its burst is spent: 20 s or more.
    await r.inbox.waitFor(() => (answered() >= total ? true : undefined), `${total} responses`, 150_000);
    await r.request('t1', 'next-round');
    expect(answered()).toBe(total + 1);
    expect(r.responses().filter((x) => x.status === 'ok')).toEqual([]);
    expect(JSON.stringify(rig.app.tableState('t1'))).toBe(before);
    expect(viewer.messages.slice(seen).filter((m) => !m.text.includes('ACTION_REFUSED'))).toEqual([]);
  }, 240_000);

  it('run a transaction once, across a restart and under a flood of other transactions', async () => {
    // The per-client limit raised: the flood must reach the transaction store to test that it keeps the first.
    const unlimited = ['  requests: { ratePerSecond: 1000000, burst: 1000000, queuePerClient: 2000, queueTotal: 2000 }'];
    rig = await startRig({ broker, tables: [QUIZ, ZIP], mqttExtra: unlimited });
    const id = 'referee-fixed-id';
    let r = await referee(rig.brokerUrl, id);
    const first = await r.request('quiz', 'buzzer/score', { entrant: 'ana', delta: 1000 }, { transaction: 'bonus' });
    expect(first).toMatchObject({ status: 'ok', data: { total: 1000 } });
    // A flood of other transactions, on this table and on another one, must not push the first out.
    for (let i = 0; i < 1500; i++) {
      void r.publishRaw(r.requestTopic(i % 2 === 0 ? 'quiz' : 't1', i % 2 === 0 ? 'buzzer/mark' : 'next-round'),
        JSON.stringify({ transaction: `flood-${i}`, token: 'security-referee-token-0123', ...(i % 2 === 0 ? { correct: true } : {}) }));
    }
    await r.inbox.waitFor(() => (r.responses().length >= 1501 ? true : undefined), 'the flood answered', 60_000);
    expect(await r.request('quiz', 'buzzer/score', { entrant: 'ana', delta: 1000 }, { transaction: 'bonus' })).toEqual(first);
    // Restart the controller on the same event log (and the same external broker, when there is one).
    const { directory, external, port } = rig;
    await r.close();
    await rig.stop();
    rig = await startRig({
      broker, tables: [QUIZ, ZIP], directory, embeddedPort: port, mqttExtra: unlimited, ...(external ? { external } : {}),
    });
    r = await referee(rig.brokerUrl, id);
    expect(await r.request('quiz', 'buzzer/score', { entrant: 'ana', delta: 1000 }, { transaction: 'bonus' })).toEqual(first);
    const check = await r.request('quiz', 'buzzer/score', { entrant: 'ana', delta: 0 });
    expect(check).toMatchObject({ status: 'ok', data: { total: 1000 } });
  }, 90_000);

  it('give two clients using the same transaction id each their own answer', async () => {
    rig = await startRig({ broker, tables: [QUIZ] });
    const a = await referee(rig.brokerUrl);
    const b = await referee(rig.brokerUrl);
    const fromA = await a.request('quiz', 'buzzer/score', { entrant: 'ana', delta: 5 }, { transaction: 'same' });
    const fromB = await b.request('quiz', 'buzzer/score', { entrant: 'ben', delta: 7 }, { transaction: 'same' });
    expect(fromA).toMatchObject({ status: 'ok', data: { total: 5 } });
    expect(fromB).toMatchObject({ status: 'ok', data: { total: 7 } });
    expect(a.responses()).toHaveLength(1);
    expect(b.responses()).toHaveLength(1);
  });

  it('answer game requests on the wrong game NOT_AVAILABLE and validate remove-station', async () => {
    rig = await startRig({ broker, tables: [ZIP, ZAPP] });
    const r = await referee(rig.brokerUrl);
    const before = JSON.stringify([rig.app.tableState('t1'), rig.app.tableState('z1')]);
    for (const [table, name, params] of [
      ['t1', 'roll', {}], ['t1', 'enter-dice', { d1: 2, d2: 3 }], ['t1', 'move', { player: 'ana', piece: 'RED1' }],
      ['z1', 'declare-stuck', {}], ['z1', 'next-round', {}],
    ] as const) {
      expect((await r.request(table, name, params)).error?.code, `${name} on ${table}`).toBe('NOT_AVAILABLE');
    }
    expect((await r.request('t1', 'remove-station', { station: 'no-such-station' })).error?.code).toBe('UNKNOWN_STATION');
    expect((await r.request('t1', 'remove-station', { station: 'seat-9' })).error?.code).toBe('UNKNOWN_STATION');
    expect(JSON.stringify([rig.app.tableState('t1'), rig.app.tableState('z1')])).toBe(before);
  });
});

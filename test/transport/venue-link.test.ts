/**
 * A controller's link to a venue broker besides its own (`ControllerTransportOptions.venue`, docs/venue-offline.md),
 * on two real embedded brokers, the venue one behind a TCP relay the test controls: a venue unreachable at
 * start-up does not hold the table back; once reachable it gets the events it missed, in order, then the
 * state; a request sent on the venue is answered on the venue.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ControllerTransport } from '../../controller/transport/controller-transport.ts';
import { EmbeddedBroker, type BrokerUser } from '../../controller/transport/embedded-broker.ts';
import type { EventHistory, RecordedEvent } from '../../controller/transport/event-history.ts';
import { idleStateOf, tableEventOf } from '../../controller/transport/public-view.ts';
import { Topics } from '../../controller/transport/topics.ts';
import { Probe } from './support/probe.ts';
import { TcpProxy } from './support/tcp-proxy.ts';

const BASE = 'zt';
const CONTROLLER: BrokerUser = { username: 'zt-controller', password: 'controller-pw-1', role: 'controller' };
const VIEWER: BrokerUser = { username: 'viewer', password: 'viewer-pw-123', role: 'viewer' };
const topics = new Topics(BASE);

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  cleanups.length = 0;
});

function memoryHistory(): EventHistory {
  const rows: RecordedEvent[] = [];
  return {
    record: (_table, _epoch, seq, _at, payload) => {
      rows.push({ seq, payload });
    },
    read: (_table, _epoch, fromSeq, limit) => rows.filter((r) => r.seq >= fromSeq).slice(0, limit),
    lastSeq: () => rows.at(-1)?.seq ?? 0,
  };
}

async function broker(): Promise<EmbeddedBroker> {
  const b = new EmbeddedBroker({ baseTopic: BASE, users: [CONTROLLER, VIEWER], port: 0 });
  await b.start();
  cleanups.push(async () => b.close());
  return b;
}

describe('a controller linked to a venue broker', () => {
  it('plays on its own broker while the venue is unreachable, then gives the venue every event in order', async () => {
    const own = await broker();
    const venue = await broker();
    const link = new TcpProxy(Number(new URL(venue.url).port));
    const linkPort = await link.start();
    cleanups.push(async () => link.close());
    link.breakLink();

    const epoch = 1_760_000_000_000;
    const history = memoryHistory();
    const transport = new ControllerTransport({
      url: own.url, username: CONTROLLER.username, password: CONTROLLER.password, baseTopic: BASE, tables: ['t1'], tokens: [],
      epoch, history, reconnectPeriodMs: 100,
      venueLink: { url: `mqtt://127.0.0.1:${linkPort}`, username: CONTROLLER.username, password: CONTROLLER.password },
    });
    // Resolves on its own broker alone: the venue is down.
    await transport.start();
    cleanups.push(async () => transport.stop());

    const local = await Probe.connect(own.url, VIEWER.username, VIEWER.password);
    cleanups.push(async () => local.close());
    await local.subscribe(topics.events('t1'));
    const channel = transport.table('t1');
    for (let seq = 1; seq <= 5; seq++) {
      void channel.publishEvent(tableEventOf({ type: 'NOTICE', code: 'X', message: `event ${seq}` }, { seq, at: epoch + seq, epoch }));
    }
    void channel.publishState(idleStateOf({ seq: 5, at: epoch + 5, epoch }));
    await local.waitFor((m) => m.text.includes('event 5'), 'the events at the table');

    const viewer = await Probe.connect(venue.url, VIEWER.username, VIEWER.password);
    cleanups.push(async () => viewer.close());
    await viewer.subscribe(topics.events('t1'));
    await viewer.subscribe(topics.state('t1'));
    await viewer.subscribe(topics.status('t1'));
    link.restore();
    await viewer.waitOn(topics.status('t1'), (t) => t === 'online', 'online on the venue');
    void channel.publishEvent(tableEventOf({ type: 'NOTICE', code: 'X', message: 'event 6' }, { seq: 6, at: epoch + 6, epoch }));
    await viewer.waitFor((m) => m.text.includes('event 6'), 'the live event after the reconnection');
    expect(viewer.json(topics.events('t1')).map((e) => (e as { seq: number }).seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(viewer.json(topics.state('t1'))).toEqual([{ mode: 'idle', seq: 5, at: epoch + 5, epoch }]);

    // A viewer on the venue asks for history: answered on the venue.
    const asker = await Probe.connect(venue.url, VIEWER.username, VIEWER.password);
    cleanups.push(async () => asker.close());
    await asker.subscribe(topics.responseFilter(asker.clientId));
    await asker.publish(topics.request('t1', asker.clientId, 'history'), JSON.stringify({ fromSeq: 4 }));
    const answer = await asker.waitFor((m) => m.topic === topics.response('t1', asker.clientId, 'history'), 'the history answer');
    expect(JSON.parse(answer.text)).toMatchObject({ status: 'ok', data: { lastSeq: 6, next: null, events: [{ seq: 4 }, { seq: 5 }, { seq: 6 }] } });
  });
});

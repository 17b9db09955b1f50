/**
 * `/live`'s backpressure over a real WebSocket (dashboard/server/live.ts): a viewer that stops reading falls
 * more than 1 MB behind; from then on the retained topics it is sent are coalesced (only the newest value per
 * topic is kept), and once it reads again it gets that newest value. A big screen on a starved laptop must end
 * on the truth, not on a backlog, and the dashboard's memory must not grow with the backlog.
 */
import mqtt from 'mqtt';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { BASE, USERS, startHarness, type Harness } from './support/harness.ts';
import { waitFor } from './support/wait.ts';

const UPDATES = 400;
/** ~48 KB a value: 400 of them (~19 MB) are more than loopback's socket buffers can hold for a paused reader. */
const FILLER = 'x'.repeat(48_000);
const TOPIC = `${BASE}/t1/health/seat-9`;

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ tables: [{ id: 't1', game: 'zapp-zerapp', players: ['ana', 'ben'], seed: 3 }] });
});

afterAll(async () => {
  await harness.stop();
});

it('coalesces a stalled viewer\'s retained topics and, once it reads again, sends it the newest value', async () => {
  const socket = new WebSocket(`${harness.dashboardUrl.replace('http', 'ws')}/live`);
  const received: number[] = [];
  let ended = false;
  socket.on('message', (data: Buffer) => {
    const envelope = JSON.parse(data.toString('utf8')) as { topic: string; payload: { n?: number } | string };
    if (envelope.topic === `${BASE}/$snapshot`) ended = true;
    if (envelope.topic === TOPIC && typeof envelope.payload === 'object') received.push(envelope.payload.n ?? -1);
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  await waitFor(() => ended, 'the snapshot');
  socket.pause();

  const controller = await mqtt.connectAsync(harness.brokerUrl, {
    username: USERS.controller.username, password: USERS.controller.password, reconnectPeriod: 0,
  });
  const before = harness.live.coalesced;
  for (let n = 0; n < UPDATES; n++) {
    const health = { station: 'seat-9', online: true, n, filler: FILLER };
    await controller.publishAsync(TOPIC, JSON.stringify(health), { retain: true, qos: 1 });
  }
  await waitFor(() => harness.live.coalesced > before, 'the stalled viewer\'s values coalesced', 20_000);

  socket.resume();
  await waitFor(() => received.at(-1) === UPDATES - 1, 'the newest value after the viewer reads again', 20_000);
  expect(received.length).toBeLessThan(UPDATES);
  // In the order they were published: coalescing keeps the newest, it never reorders.
  expect(received).toEqual([...received].sort((a, b) => a - b));
  expect(socket.readyState).toBe(WebSocket.OPEN);
  socket.close();
  await controller.endAsync();
}, 60_000);

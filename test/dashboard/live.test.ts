/**
 * `/live` over a real WebSocket against a running dashboard: the snapshot of the retained state on connect,
 * then every change, all as `{topic, payload}` envelopes; the `tables` filter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { BASE, startHarness, type Harness } from './support/harness.ts';
import { waitFor } from './support/wait.ts';

interface Envelope {
  readonly topic: string;
  readonly payload: unknown;
}

let harness: Harness;

async function open(query = ''): Promise<{ socket: WebSocket; messages: Envelope[] }> {
  const socket = new WebSocket(`${harness.dashboardUrl.replace('http', 'ws')}/live${query}`);
  const messages: Envelope[] = [];
  socket.on('message', (data: Buffer) => {
    messages.push(JSON.parse(data.toString('utf8')) as Envelope);
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return { socket, messages };
}

beforeAll(async () => {
  harness = await startHarness({
    tables: [
      { id: 't1', game: 'zapp-zerapp', players: ['ana', 'ben'], seed: 3 },
      { id: 't2', game: 'zip-zap', players: ['ana', 'ben'], seed: 4 },
    ],
  });
  // The dashboard has the retained state once the table list answers with both states.
  await waitFor(async () => {
    const r = await fetch(`${harness.dashboardUrl}/api/tables`);
    const body = await r.json() as { tables: { mode: string }[] };
    return body.tables.length === 2 && body.tables.every((t) => t.mode === 'game');
  }, 'retained state');
});

afterAll(async () => {
  await harness.stop();
});

describe('/live', () => {
  it('sends the snapshot of the retained topics first, then each change', async () => {
    const { socket, messages } = await open();
    await waitFor(() => messages.some((m) => m.topic === `${BASE}/t2/state`), 'snapshot');
    const topics = messages.map((m) => m.topic);
    expect(topics[0]).toBe(`${BASE}/bridge/fake/status`);
    expect(topics).toContain(`${BASE}/bridge/fake/tables`);
    for (const t of ['t1', 't2']) {
      expect(topics).toContain(`${BASE}/${t}/status`);
      expect(topics).toContain(`${BASE}/${t}/health/seat-1`);
    }
    const state = messages.find((m) => m.topic === `${BASE}/t1/state`)?.payload as { seq: number; view: { phase: string } };
    expect(state.view.phase).toBe('ROLL');
    expect(messages.find((m) => m.topic === `${BASE}/t1/status`)?.payload).toBe('online');

    const count = messages.length;
    await harness.controller.apply('t1', { type: 'roll' });
    await waitFor(() => messages.slice(count).some((m) => m.topic === `${BASE}/t1/state`), 'the new state');
    const changes = messages.slice(count);
    const rolled = changes.find((m) => m.topic === `${BASE}/t1/events`)?.payload as { type: string; seq: number };
    expect(rolled.type).toBe('DICE_ROLLED');
    const after = changes.find((m) => m.topic === `${BASE}/t1/state`)?.payload as { seq: number; view: { phase: string } };
    expect(after.view.phase).toBe('SELECT');
    // Events come before the state that follows them, and the state's seq names the last event.
    expect(changes.findIndex((m) => m.topic.endsWith('/events'))).toBeLessThan(changes.findIndex((m) => m.topic.endsWith('/state')));
    expect(after.seq).toBeGreaterThanOrEqual(rolled.seq);
    socket.close();
  });

  it('writes a turn\'s frames to a viewer in one go: the whole snapshot in one write, and all of it arrives', async () => {
    const before = { sent: harness.live.sent, flushes: harness.live.flushes };
    const { socket, messages } = await open();
    await waitFor(() => messages.some((m) => m.topic === `${BASE}/$snapshot`), 'the end of the snapshot');
    const sent = harness.live.sent - before.sent;
    const flushes = harness.live.flushes - before.flushes;
    expect(sent).toBe(messages.length);
    expect(sent).toBeGreaterThan(10);
    // One corked write for the snapshot (a second if a turn boundary fell inside it); none means ws no longer
    // exposes its socket and every frame is a syscall of its own again (dashboard/server/live.ts, TurnCork).
    expect(flushes).toBeGreaterThanOrEqual(1);
    expect(flushes).toBeLessThanOrEqual(2);
    socket.close();
  });

  it('includes the recent events of each table in the snapshot', async () => {
    const { socket, messages } = await open();
    await waitFor(() => messages.some((m) => m.topic === `${BASE}/t1/events`), 'events in the snapshot');
    socket.close();
  });

  it('limits the stream to the tables asked for', async () => {
    const { socket, messages } = await open('?tables=t2');
    await waitFor(() => messages.some((m) => m.topic === `${BASE}/t2/state`), 't2 snapshot');
    await harness.controller.apply('t1', { type: 'place', player: 'ana', barrel: 5 } as never);
    // A batch is always applied (a refused card is recorded), so t2 changes: once that arrives, t1's would have.
    const count = messages.length;
    await harness.controller.apply('t2', { type: 'plays', plays: [{ player: 'ana', card: 'W1', at: 5 }] } as never);
    await waitFor(() => messages.slice(count).some((m) => m.topic === `${BASE}/t2/state`), 't2 change');
    expect(messages.some((m) => m.topic.startsWith(`${BASE}/t1/`))).toBe(false);
    expect(messages.some((m) => m.topic === `${BASE}/bridge/fake/tables`)).toBe(true);
    socket.close();
  });

  it('forwards a cleared health topic as a null payload', async () => {
    const { socket, messages } = await open();
    await waitFor(() => messages.some((m) => m.topic === `${BASE}/t1/health/seat-2`), 'health');
    const r = await fetch(`${harness.dashboardUrl}/api/tables/t1/requests/remove-station`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: harness.token, params: { station: 'seat-2' } }),
    });
    expect(await r.json()).toMatchObject({ status: 'ok' });
    await waitFor(() => messages.some((m) => m.topic === `${BASE}/t1/health/seat-2` && m.payload === null), 'the cleared health');
    socket.close();
  });
});

/**
 * Item 7 of issue 10: `seq` starts again after a restart, so states and events carry the controller's `epoch`
 * (a new, larger number at every start): a subscriber told to drop repeated `(epoch, seq)` pairs drops nothing
 * new after a restart. Watched from outside by a viewer across a restart on Mosquitto (which outlives the
 * controller, so the same viewer connection sees both runs).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BASE, Inbox, Referee, VIEWER, client, startRig, type Rig } from './support/rig.ts';

let rig: Rig | undefined;
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await rig?.dispose();
  rig = undefined;
});

describe('epoch', () => {
  it('tells the events and states of two runs apart although seq starts again', async () => {
    const table = { id: 't1', mode: 'zip-zap' as const, seats: ['ana', 'ben'] };
    rig = await startRig({ broker: 'mosquitto', tables: [table] });
    const viewerClient = await client(rig.brokerUrl, VIEWER);
    closers.push(async () => viewerClient.endAsync(true));
    const viewer = new Inbox(viewerClient);
    await viewerClient.subscribeAsync([`${BASE}/t1/events`, `${BASE}/t1/state`], { qos: 1 });
    const events = (): { seq: number; epoch?: unknown }[] => viewer.json(`${BASE}/t1/events`) as { seq: number; epoch?: unknown }[];
    let r = await Referee.connect(rig.brokerUrl);
    await r.request('t1', 'new-game', { game: 'zip-zap', players: ['ana', 'ben'], seed: 3 });
    await viewer.waitFor(() => (events().length > 0 ? true : undefined), 'events of the first run');
    const firstRun = events().length;
    await r.close();
    const { directory, external } = rig;
    await rig.stop();
    rig = await startRig({ broker: 'mosquitto', tables: [table], directory, ...(external ? { external } : {}) });
    r = await Referee.connect(rig.brokerUrl);
    closers.push(async () => r.close());
    // Two games, so this run's seq numbers reach those the viewer saw in the first run.
    await r.request('t1', 'new-game', { game: 'zip-zap', players: ['ana', 'ben'], seed: 4 });
    await r.request('t1', 'new-game', { game: 'zip-zap', players: ['ana', 'ben'], seed: 5 });
    await viewer.waitFor(() => (events().length >= 3 * firstRun ? true : undefined), 'events of the second run');
    const all = events();
    for (const e of all) expect(typeof e.epoch).toBe('number');
    const epochs = [...new Set(all.map((e) => e.epoch as number))];
    expect(epochs).toHaveLength(2);
    expect(epochs[1]).toBeGreaterThan(epochs[0] as number);
    // seq started again, and yet no (epoch, seq) pair repeats.
    const [first, second] = [all.slice(0, firstRun), all.slice(firstRun)];
    expect(second.some((e) => first.some((f) => f.seq === e.seq))).toBe(true);
    expect(new Set(all.map((e) => `${String(e.epoch)}:${e.seq}`)).size).toBe(all.length);
    for (const state of viewer.json(`${BASE}/t1/state`) as { epoch?: unknown }[]) expect(epochs).toContain(state.epoch);
  });
});

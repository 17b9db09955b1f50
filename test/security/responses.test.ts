/**
 * Item 1 of issue 10: responses reach only the requester, and a refusal never names hidden facts. Probed from
 * outside with plain mqtt.js clients, on the embedded broker and on a real Mosquitto: a viewer and a second
 * referee subscribe to every response topic they may; a referee probes a Zip-Zap hand card by card and a
 * Zapp Zerapp barrel chosen by another seat.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { OMNISCIENT } from '../../controller/rules/common/viewer.ts';
import { getEngine } from '../../controller/rules/games.ts';
import { follows } from '../../controller/rules/zip-zap/cards.ts';
import type { ZipZapOmniscientView } from '../../controller/rules/zip-zap/index.ts';
import { BASE, BROKERS, Inbox, Referee, VIEWER, client, startRig, type Rig } from './support/rig.ts';

let rig: Rig | undefined;
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await rig?.dispose();
  rig = undefined;
});

async function referee(url: string): Promise<Referee> {
  const r = await Referee.connect(url);
  closers.push(async () => r.close());
  return r;
}

describe.each(BROKERS)('responses on %s', (broker) => {
  it('go only to the requester: a viewer and another referee read none of them', async () => {
    rig = await startRig({ broker, tables: [{ id: 't1', mode: 'zip-zap', seats: ['ana', 'ben'] }] });
    const viewerClient = await client(rig.brokerUrl, VIEWER);
    closers.push(async () => viewerClient.endAsync(true));
    const viewer = new Inbox(viewerClient);
    const other = await referee(rig.brokerUrl);
    const asker = await referee(rig.brokerUrl);
    // Every filter that could match somebody else's response; refused or withheld, none may deliver one.
    for (const filter of [`${BASE}/+/response/#`, `${BASE}/t1/response/${asker.clientId}/#`, `${BASE}/#`]) {
      await viewerClient.subscribeAsync(filter, { qos: 1 }).catch(() => undefined);
      await other.mqttClient.subscribeAsync(filter, { qos: 1 }).catch(() => undefined);
    }
    await viewerClient.subscribeAsync(`${BASE}/t1/events`, { qos: 1 });
    const answer = await asker.request('t1', 'next-round');
    expect(answer.status).toBe('error');
    // Fences: the other referee's own answer, and an event the viewer can read, both after the first answer.
    await other.request('t1', 'next-round');
    await asker.request('t1', 'new-game', { game: 'zip-zap', players: ['ana', 'ben'], seed: 1 });
    await viewer.waitFor(() => viewer.messages.find((m) => m.text.includes('NEW_GAME')), 'the NEW_GAME event');
    expect(viewer.messages.filter((m) => m.topic.includes('/response/'))).toEqual([]);
    expect(other.responses().map((r) => r.transaction)).toEqual([`${other.clientId}-1`]);
  });
});

describe.each(BROKERS)('refusals on %s', (broker) => {
  it('do not tell whether a Zip-Zap seat holds a card', async () => {
    rig = await startRig({ broker, tables: [{ id: 't1', mode: 'zip-zap', seats: ['ana', 'ben'] }] });
    const r = await referee(rig.brokerUrl);
    const engine = getEngine('zip-zap');
    const truth = rig.app.tableState('t1');
    if (!truth) throw new Error('no game on t1');
    const view = engine.view(truth.state, OMNISCIENT) as ZipZapOmniscientView;
    const hand = new Set(view.hands.ana ?? []);
    // Every card of the game that ana could name and that the engine refuses now, whether she holds it or not.
    const all = [...new Set([...Object.values(view.hands).flat(), ...view.reserve])].filter((card) => !card.startsWith('Z'));
    const refused = all.filter((card) => !engine.apply(truth.state, { type: 'play', player: 'ana', card } as never).ok);
    const held = refused.filter((card) => hand.has(card));
    const notHeld = refused.filter((card) => !hand.has(card));
    expect(held.length).toBeGreaterThan(3);
    expect(notHeld.length).toBeGreaterThan(3);
    const answers = new Map<string, string>();
    for (const card of refused) {
      const response = await r.request('t1', 'action', { action: { type: 'play', player: 'ana', card } });
      expect(response.status).toBe('error');
      answers.set(card, JSON.stringify(response.error));
    }
    // Each answer follows from the card and the public top card alone (docs/mqtt.md, "What is public"): a card
    // that does not follow is DOES_NOT_FOLLOW whether or not ana holds it; any other refusal is the one
    // HIDDEN_REASON. Only accepted-or-refused depends on the hand, and that is what the audit trail lists.
    const top = view.top?.card ?? '';
    const expected = (card: string): string => (follows(top, card) ? 'HIDDEN_REASON' : `DOES_NOT_FOLLOW ${card}`);
    const shown = (card: string): string => {
      const error = JSON.parse(answers.get(card) ?? '{}') as { code?: string; message?: string };
      return error.code === 'HIDDEN_REASON' ? 'HIDDEN_REASON' : `${error.code ?? ''} ${(error.message ?? '').split(' ')[0] ?? ''}`;
    };
    for (const card of refused) expect(shown(card), card).toBe(expected(card));
    expect(held.some((c) => !follows(top, c)) && notHeld.some((c) => !follows(top, c))).toBe(true);
    // Every refused card that follows gets the same answer, word for word. (The deal is random: ana may hold every
    // card that follows, and then none is refused.)
    const following = refused.filter((c) => follows(top, c));
    expect(new Set(following.map((c) => answers.get(c))).size).toBe(following.length > 0 ? 1 : 0);
    expect(rig.app.tableState('t1')?.state).toEqual(truth.state);
  });

  it('do not name the barrel another seat chose before the reveal, in the response or on the events topic', async () => {
    rig = await startRig({ broker, tables: [{ id: 'z1', mode: 'zapp-zerapp', seats: ['red', 'green'] }] });
    const viewerClient = await client(rig.brokerUrl, VIEWER);
    closers.push(async () => viewerClient.endAsync(true));
    const viewer = new Inbox(viewerClient);
    await viewerClient.subscribeAsync(`${BASE}/z1/events`, { qos: 1 });
    const r = await referee(rig.brokerUrl);
    expect((await r.request('z1', 'roll', { player: 'red' })).status).toBe('ok');
    expect((await r.request('z1', 'action', { action: { type: 'place', player: 'red', barrel: 4 } })).status).toBe('ok');
    const taken = await r.request('z1', 'action', { action: { type: 'place', player: 'green', barrel: 4 } });
    const held = await r.request('z1', 'action', { action: { type: 'put-back', player: 'green', barrel: 9 } });
    expect(taken.status).toBe('error');
    // A barrel chosen by red and a barrel green simply does not hold are refused alike: nothing to tell them apart.
    expect(taken.error?.code).toBe(held.error?.code);
    expect(taken.error?.message.replace('place', 'put-back')).toBe(held.error?.message);
    const text = JSON.stringify(taken);
    expect(text).not.toMatch(/\bred\b|\b4\b|BARREL_PLACED_BY_OTHER/);
    await r.request('z1', 'action', { action: { type: 'place', player: 'green', barrel: 7 } });
    await viewer.waitFor(() => viewer.messages.find((m) => m.text.includes('BARRELS_REVEALED')), 'the reveal');
    const beforeReveal = viewer.messages.slice(0, viewer.messages.findIndex((m) => m.text.includes('BARRELS_REVEALED')));
    expect(beforeReveal.map((m) => m.text).join('\n')).not.toMatch(/BARREL_PLACED_BY_OTHER|NOT_HOLDING/);
  });
});

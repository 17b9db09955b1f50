/**
 * Killer-21 dealt at the table (`rules: {dealing: TABLE}`, docs/rules/killer-21.md C-K.3) on the whole
 * controller: `ControllerApp` on the embedded broker, the simulated table read through the real serial driver,
 * bots off; a referee tool and a viewer on MQTT. People "deal" real cards: the test lays two dealt hands on
 * their seat pads card by card (`simulate place`), the referee skips the third seat's registration, the skipped
 * player plays a card nobody has seen from the pile (accepted by the counts), and a registered player's card
 * tapped by another player is refused publicly without saying why. Every published state carries `dealing`,
 * `registering` and `unseenCount`, and never a card of a hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Killer21PublicView, Killer21State } from '../../controller/rules/killer-21/index.ts';
import { CARD_KINDS } from '../../controller/rules/killer-21/index.ts';
import type { ResponsePayload } from '../../controller/transport/payloads.ts';
import { BASE, Inbox, Referee, VIEWER, client, startRig, type Rig } from '../security/support/rig.ts';

const TABLE = 'kt';
const PLAYERS = ['ana', 'ben', 'cy'];
const STATION: Readonly<Record<string, string>> = { ana: 'seat-1', ben: 'seat-2', cy: 'seat-3' };
/** The physical deal: three cards each (handSize 3), nobody's known to the controller until laid on a pad. */
const DEALT: Readonly<Record<string, readonly string[]>> = {
  ana: ['R1-1', 'R2-1', 'SKIP-1'], ben: ['R1-2', 'R3-1', 'PASS-1'], cy: ['R4-1', 'R5-1', 'R6-1'],
};
const CARD_ID = new RegExp(`\\b(${CARD_KINDS.join('|')})-\\d+\\b`, 'g');

let rig: Rig;
let referee: Referee;
let viewer: Inbox;
const closers: (() => Promise<void>)[] = [];

const state = (): Killer21State => rig.app.tableState(TABLE)?.state as Killer21State;
const views = (): Killer21PublicView[] =>
  viewer.json(`${BASE}/${TABLE}/state`).map((s) => (s as { view: Killer21PublicView }).view);
const events = (): Record<string, unknown>[] => viewer.json(`${BASE}/${TABLE}/events`) as Record<string, unknown>[];
const dataOf = (r: ResponsePayload): Record<string, unknown> => r.data as Record<string, unknown>;

beforeAll(async () => {
  rig = await startRig({
    broker: 'embedded',
    tables: [{ id: TABLE, mode: 'killer-21', seats: PLAYERS, extra: ['    rules: { dealing: TABLE, handSize: 3 }', '    seed: 5'] }],
  });
  referee = await Referee.connect(rig.brokerUrl);
  const c = await client(rig.brokerUrl, VIEWER);
  closers.push(async () => c.endAsync(true));
  viewer = new Inbox(c);
  await c.subscribeAsync([`${BASE}/${TABLE}/state`, `${BASE}/${TABLE}/events`, `${BASE}/${TABLE}/health/+`], { qos: 1 });
  // The stations boot (bootloader, banner, handshake) before a tag can be read.
  const online = (s: string): boolean => viewer.messages.some((m) => m.topic === `${BASE}/${TABLE}/health/${s}` && m.text.includes('"online":true'));
  await viewer.waitFor(() => (['seat-1', 'seat-2', 'seat-3', 'pile-1'].every(online) ? true : undefined), 'the stations online', 60_000);
}, 90_000);

afterAll(async () => {
  for (const close of closers) await close();
  await referee.close();
  await rig.dispose();
});

describe('Killer-21 dealt at the table, on the real controller', () => {
  /** Who plays first (after the dealer): the seat the referee skips, so that it plays from an unseen hand. */
  let first = '';
  let registered: string[] = [];

  it('starts the round in DEALING: every hand unseen, every seat still to register', async () => {
    expect(state().phase).toBe('DEALING');
    first = state().turn ?? '';
    registered = PLAYERS.filter((p) => p !== first);
    const v = await viewer.waitFor(() => views().at(-1), 'the retained state');
    expect(v).toMatchObject({ dealing: 'TABLE', phase: 'DEALING', registering: PLAYERS });
    expect(v.players.map((p) => [p.id, p.handCount, p.unseenCount])).toEqual(PLAYERS.map((p) => [p, 3, 3]));
  });

  it('registers a hand laid on its pad card by card once the third card lies there', async () => {
    for (const p of registered) {
      const answers: ResponsePayload[] = [];
      for (const card of DEALT[p] ?? []) {
        answers.push(await referee.request(TABLE, 'simulate', { station: STATION[p], op: 'place', item: { kind: 'k21', card } }));
      }
      // The first two cards are read and do nothing; the third completes the count and registers the hand.
      expect(answers.slice(0, 2).map((a) => dataOf(a).outcome)).toEqual(['unchanged', 'unchanged']);
      expect(dataOf(answers[2] as ResponsePayload)).toMatchObject({ outcome: 'applied', events: ['HAND_REGISTERED'] });
      expect(state().hands[p]).toEqual(DEALT[p]);
    }
    expect(events().filter((e) => e.type === 'HAND_REGISTERED').map((e) => [e.player, e.count])).toEqual(registered.map((p) => [p, 3]));
    const v = await viewer.waitFor(() => views().find((x) => x.registering.length === 1), 'one seat left to register');
    expect(v.registering).toEqual([first]);
    expect(v.players.map((p) => p.unseenCount)).toEqual(PLAYERS.map((p) => (p === first ? 3 : 0)));
    // The players pick their hands up again: nothing happens.
    for (const p of registered) expect(dataOf(await referee.request(TABLE, 'simulate', { station: STATION[p], op: 'lift' })).outcome).not.toBe('applied');
    // The seat whose hand is registered shows it in the simulator panel; the other one knows none of it.
    const shown = await referee.request(TABLE, 'simulated-hand', { station: STATION[registered[0] ?? ''] });
    expect(shown.data).toMatchObject({ known: true, cards: DEALT[registered[0] ?? ''] });
    expect((await referee.request(TABLE, 'simulated-hand', { station: STATION[first] })).data).toMatchObject({ known: false, cards: [] });
  });

  it('plays on when the referee skips the last seat, and accepts its play of a card nobody has seen', async () => {
    const skipped = await referee.request(TABLE, 'action', { action: { type: 'skip-registration' } });
    expect(skipped.status).toBe('ok');
    expect(state().phase).toBe('TURN');
    expect(events()).toContainEqual(expect.objectContaining({ type: 'REGISTRATION_SKIPPED', players: [first] }));
    const card = DEALT[first]?.[0] ?? '';
    const played = await referee.request(TABLE, 'simulate', { station: 'pile-1', op: 'tap', item: { kind: 'k21', card } });
    expect(dataOf(played)).toMatchObject({ outcome: 'applied', events: expect.arrayContaining(['CARD_PLAYED']) as unknown });
    expect(state().pile.at(-1)).toMatchObject({ card, by: first });
    const v = await viewer.waitFor(() => views().find((x) => x.top?.card === card), 'the play in the published state');
    expect(v.players.find((p) => p.id === first)).toMatchObject({ handCount: 2, unseenCount: 2 });
  });

  it('refuses a card the table has seen in another hand, publicly, without saying whose it is', async () => {
    const onTurn = state().turn ?? '';
    const other = registered.find((p) => p !== onTurn) ?? '';
    expect(registered).toContain(onTurn);
    const theirs = DEALT[other]?.[0] ?? '';
    const before = state();
    const r = await referee.request(TABLE, 'simulate', { station: 'pile-1', op: 'tap', item: { kind: 'k21', card: theirs } });
    expect(r.error?.code).toBe('HIDDEN_REASON');
    expect(r.error?.message.match(CARD_ID) ?? []).toEqual([]);
    expect(state().hands).toEqual(before.hands);
    await viewer.waitFor(() => events().find((e) => e.type === 'ACTION_REFUSED'), 'the public refusal');
    const refused = events().filter((e) => e.type === 'ACTION_REFUSED');
    expect(refused).toEqual([expect.objectContaining({ action: 'play', code: 'HIDDEN_REASON' })]);
    expect(JSON.stringify(refused).match(CARD_ID) ?? []).toEqual([]);
  });

  it('never publishes a card of a hand: states and events carry counts only', () => {
    const inHands = new Set([...Object.values(state().hands).flat(), ...registered.flatMap((p) => DEALT[p] ?? [])]);
    const onPile = new Set(state().pile.map((r) => r.card));
    const published = viewer.messages.filter((m) => m.topic === `${BASE}/${TABLE}/state` || m.topic === `${BASE}/${TABLE}/events`);
    expect(published.length).toBeGreaterThan(4);
    for (const m of published) {
      for (const id of m.text.match(CARD_ID) ?? []) expect(inHands.has(id) && !onPile.has(id), `${id} in ${m.text}`).toBe(false);
      expect((JSON.parse(m.text) as { view?: { hands?: unknown } }).view?.hands).toBeUndefined();
    }
    for (const v of views()) {
      expect(v.dealing).toBe('TABLE');
      expect(Array.isArray(v.registering)).toBe(true);
      for (const p of v.players) expect(typeof p.unseenCount).toBe('number');
    }
  });
});

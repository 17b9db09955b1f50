/**
 * The simulator's requests on the whole controller (`ControllerApp` on the simulated table, the embedded
 * broker, a referee tool over MQTT; bots off): a ZAP card tapped in either spelling reaches the game (it used to
 * read as UNKNOWN_TAG and be answered "ok"), the answer is the table's verdict with public codes only,
 * `simulated-hand` gives a seat's hand, and "nobody can play" (`declare-stuck`) works on an ORACLE table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getEngine } from '../../controller/rules/games.ts';
import type { ZipZapState } from '../../controller/rules/zip-zap/index.ts';
import type { ResponsePayload } from '../../controller/transport/payloads.ts';
import { BASE, Inbox, Referee, VIEWER, client, startRig, type Rig } from '../security/support/rig.ts';

let rig: Rig;
let referee: Referee;
let viewer: Inbox;
const closers: (() => Promise<void>)[] = [];

const ZIP = { id: 'zz', mode: 'zip-zap' as const, seats: ['ana', 'ben'], extra: ['    seed: 4', '    rules: { stuckAnnounceDelayMs: 3600000 }'] };
const state = (): ZipZapState => rig.app.tableState('zz')?.state as ZipZapState;
const legal = (): { type: string; player?: string; card?: string }[] => getEngine('zip-zap').legalActions(state());
const dataOf = (r: ResponsePayload): Record<string, unknown> => r.data as Record<string, unknown>;

beforeAll(async () => {
  rig = await startRig({ broker: 'embedded', tables: [ZIP] });
  referee = await Referee.connect(rig.brokerUrl);
  const c = await client(rig.brokerUrl, VIEWER);
  closers.push(async () => c.endAsync(true));
  viewer = new Inbox(c);
  await c.subscribeAsync([`${BASE}/zz/events`], { qos: 1 });
  // The stations boot (bootloader, banner, handshake) before a tag can be read: wait until the controller
  // reports both online (an empty pad's lift answers "unchanged" even while its station boots).
  await c.subscribeAsync([`${BASE}/zz/health/+`], { qos: 1 });
  const online = (s: string): boolean => viewer.messages.some((m) => m.topic === `${BASE}/zz/health/${s}` && m.text.includes('"online":true'));
  await viewer.waitFor(() => (online('seat-1') && online('seat-2') ? true : undefined), 'both seats online', 60_000);
});

afterAll(async () => {
  for (const close of closers) await close();
  await referee.close();
  await rig.dispose();
});

describe('the simulator\'s requests on the real controller', () => {
  it('gives a seat\'s hand with the token', async () => {
    const r = await referee.request('zz', 'simulated-hand', { station: 'seat-2' });
    expect(r.status).toBe('ok');
    expect(r.data).toEqual({ station: 'seat-2', player: 'ben', known: true, cards: state().hands.ben });
    expect((await referee.request('zz', 'simulated-hand', { station: 'seat-9' })).error?.code).toBe('NOT_A_SEAT');
    expect((await referee.request('zz', 'simulated-hand', { station: 'seat-1' }, { token: null })).error?.code).toBe('UNAUTHORIZED');
  });

  it('reads a ZAP card tapped as kind card or kind zap, and answers with the table\'s verdict', async () => {
    const zap = state().zapOf.ana ?? '';
    const allowed = legal().some((a) => a.type === 'zap' && a.player === 'ana');
    const before = state();
    const r = await referee.request('zz', 'simulate', { station: 'seat-1', op: 'tap', item: { kind: 'card', card: zap } });
    // Answered after the table applied the play: the state has moved on, whatever the verdict.
    expect(state()).not.toBe(before);
    if (allowed) expect(dataOf(r)).toMatchObject({ outcome: 'applied', events: expect.arrayContaining(['ZAP_PLAYED']) as unknown });
    else expect(r.error?.code).toBe('HIDDEN_REASON');
    expect(r.error?.code).not.toBe('UNKNOWN_TAG');
    expect(viewer.messages.map((m) => m.text).join('\n')).not.toContain('UNKNOWN_TAG');
    // Another seat's ZAP tapped on ana's pad: refused, and the reason (whose ZAP it is) stays hidden.
    await new Promise((resolve) => setTimeout(resolve, 500)); // the first tap's card leaves the pad
    const other = await referee.request('zz', 'simulate', { station: 'seat-1', op: 'tap', item: { kind: 'zap', card: state().zapOf.ben ?? '' } });
    expect(other.error?.code).toBe('HIDDEN_REASON');
    expect(other.error?.message).not.toContain('Z');
  });

  it('keeps a public refusal\'s code: the ZAP of a seat nobody sits at is not a card of this game', async () => {
    const absent = ['Z1', 'Z2', 'Z3', 'Z4', 'Z5', 'Z6'].find((z) => !Object.values(state().zapOf).includes(z)) ?? '';
    const r = await referee.request('zz', 'simulate', { station: 'seat-2', op: 'tap', item: { kind: 'zap', card: absent } });
    expect(r.error?.code).toBe('UNKNOWN_CARD');
  });

  it('refuses what cannot happen before anything does', async () => {
    expect((await referee.request('zz', 'simulate', { station: 'seat-1', op: 'tap' })).error?.code).toBe('ITEM_REQUIRED');
    expect((await referee.request('zz', 'simulate', { station: 'seat-1', op: 'tap', item: { kind: 'zap', card: 'R4' } })).error?.code).toBe('INVALID_REQUEST');
    expect((await referee.request('zz', 'simulate', { station: 'seat-7', op: 'press' })).error?.code).toBe('UNKNOWN_STATION');
  });

  it('answers "nobody can play" on an ORACLE table with the engine\'s announce-stuck, not WRONG_STUCK_DETECTION', async () => {
    const r = await referee.request('zz', 'declare-stuck', {});
    // The engine's announce-stuck decides: accepted when stuck, else its own public gate (a flipped top card has
    // no controller) or HIDDEN_REASON (someone can follow, which only the hands tell). Before, every answer was
    // WRONG_STUCK_DETECTION.
    if (state().stuck) expect(r.status).toBe('ok');
    else expect(['NO_CONTROLLER', 'NOT_IN_RACE', 'HIDDEN_REASON']).toContain(r.error?.code);
  });
});

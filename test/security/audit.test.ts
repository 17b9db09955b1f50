/**
 * Issue 18, item 2, from outside, on both brokers: a referee's requests on hidden facts (a play naming a card,
 * an undo, …) are listed on the public retained topic `<base>/<table>/audit` — who, from which client, what,
 * when — without the card or the outcome, and are limited per token holder (a burst of 20, then one a second)
 * so a referee cannot probe a hand in bulk. Requests that tell nothing hidden are not listed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditPayload } from '../../controller/transport/audit-log.ts';
import { OMNISCIENT } from '../../controller/rules/common/viewer.ts';
import { getEngine } from '../../controller/rules/games.ts';
import type { ZipZapOmniscientView } from '../../controller/rules/zip-zap/index.ts';
import { BASE, BROKERS, Inbox, Referee, VIEWER, client, startRig, type Rig } from './support/rig.ts';

let rig: Rig | undefined;
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await rig?.dispose();
  rig = undefined;
});

describe.each(BROKERS)('the audit trail on %s', (broker) => {
  it('lists requests on hidden facts for every viewer, without the card or the outcome, and limits them', async () => {
    rig = await startRig({ broker, tables: [{ id: 't1', mode: 'zip-zap', seats: ['ana', 'ben'] }] });
    const viewerClient = await client(rig.brokerUrl, VIEWER);
    closers.push(async () => viewerClient.endAsync(true));
    const viewer = new Inbox(viewerClient);
    await viewerClient.subscribeAsync(`${BASE}/t1/audit`, { qos: 1 });
    const r = await Referee.connect(rig.brokerUrl);
    closers.push(async () => r.close());
    const latest = (): AuditPayload | undefined => viewer.json(`${BASE}/t1/audit`).at(-1) as AuditPayload | undefined;

    // A card in ben's hand, named by the referee: the probe the issue describes (play, then undo).
    const truth = rig.app.tableState('t1');
    if (!truth) throw new Error('no game on t1');
    const view = getEngine('zip-zap').view(truth.state, OMNISCIENT) as ZipZapOmniscientView;
    const card = (view.hands.ben ?? []).find((c) => !c.startsWith('Z'));
    if (card === undefined) throw new Error('ben holds no card');
    // Not listed: a request that tells nothing hidden.
    await r.request('t1', 'next-round');
    const probe = await r.request('t1', 'action', { action: { type: 'play', player: 'ben', card } });
    await r.request('t1', 'undo', { reason: 'checking' });
    const two = await viewer.waitFor(() => (latest()?.total === 2 ? latest() : undefined), 'two audit entries');
    expect(two.entries).toMatchObject([
      { by: 'dashboard', client: r.clientId, request: 'action', action: 'play', player: 'ben', admitted: 'run' },
      { by: 'dashboard', client: r.clientId, request: 'undo', admitted: 'run' },
    ]);
    for (const entry of two.entries) expect(Math.abs(entry.at - Date.now())).toBeLessThan(60_000);
    // Neither the card nor the outcome nor the reason text is on the public topic.
    const published = viewer.messages.filter((m) => m.topic.endsWith('/audit')).map((m) => m.text).join('\n');
    expect(published).not.toContain(card);
    expect(published).not.toMatch(/HIDDEN_REASON|checking|"status"|"ok"/);
    expect(probe.status === 'ok' || probe.error.code !== 'RATE_LIMITED').toBe(true);

    // In bulk: beyond the burst, requests on hidden facts are refused (and listed as refused), whoever asks.
    const answers = [];
    for (let i = 0; i < 25; i++) {
      answers.push(await r.request('t1', 'action', { action: { type: 'play', player: 'ana', card } }, { retryLimited: false }));
    }
    const limited = answers.filter((a) => a.status === 'error' && a.error.code === 'RATE_LIMITED');
    expect(limited.length).toBeGreaterThanOrEqual(3);
    for (const a of limited) expect(a.error?.retryAfterMs).toBeGreaterThan(0);
    const after = await viewer.waitFor(() => (latest()?.total === 27 ? latest() : undefined), '27 audit entries');
    expect(after.entries.filter((e) => e.admitted === 'refused')).toHaveLength(limited.length);
    // A new viewer reads the trail at once (retained).
    const late = await client(rig.brokerUrl, VIEWER);
    closers.push(async () => late.endAsync(true));
    const lateInbox = new Inbox(late);
    await late.subscribeAsync(`${BASE}/t1/audit`, { qos: 1 });
    await lateInbox.waitFor(() => lateInbox.messages.find((m) => m.retained && m.text.includes('"total":27')), 'the retained trail');
  }, 120_000);
});

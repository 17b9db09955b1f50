/**
 * The game record requests over MQTT, against the real controller on the embedded broker (docs/mqtt.md, "The
 * game record"): a long finished Zapp Zerapp game already in the log (113 KB of steps: more than one page, and a
 * single answer would pass the broker's 256 KiB packet limit with the action log) is listed by `games`, read
 * page by page by `record` and `action-log` to exactly what the log holds, stepped back by `record-state`; the
 * running Zip-Zap game's record holds no card of a hand; `action-log` is listed on the audit topic and `record`
 * is not; bad input answers with a code.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PAGE_BYTES } from '../../controller/app/record-handlers.ts';
import { playGame } from '../../controller/bots/play-game.ts';
import { EventLog, GameRecords, exportActionLog } from '../../controller/persistence/index.ts';
import { OMNISCIENT } from '../../controller/rules/common/viewer.ts';
import { getEngine } from '../../controller/rules/games.ts';
import type { ZipZapOmniscientView } from '../../controller/rules/zip-zap/index.ts';
import type { ResponsePayload } from '../../controller/transport/payloads.ts';
import { BASE, Inbox, Referee, VIEWER, client, startRig, type Rig } from '../security/support/rig.ts';

const players = ['ana', 'ben', 'cy', 'dee'];
let rig: Rig | undefined;
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await rig?.dispose();
  rig = undefined;
});

/** An ok answer's data, read as the test expects it (a failure says the table's code). */
function data(answer: ResponsePayload): Record<string, unknown> {
  if (answer.status !== 'ok') throw new Error(`${answer.error.code}: ${answer.error.message}`);
  return answer.data as Record<string, unknown>;
}

interface Page {
  readonly next: number | null;
  readonly steps: unknown[];
  readonly actions: unknown[];
  readonly [key: string]: unknown;
}

describe('game record requests over MQTT', () => {
  it('pages a long game from the log, steps back, keeps hands out, audits the action log', async () => {
    // A long finished game of table t1, logged before the controller starts (it then starts a new one on t1).
    const directory = mkdtempSync(path.join(tmpdir(), 'zaptable-record-mqtt-'));
    const opened = EventLog.open(path.join(directory, 'zaptable.db'));
    if (!opened.ok) throw new Error(opened.message);
    const played = playGame(getEngine('zapp-zerapp'), { players }, 3);
    const old = opened.log.startGame({ tableId: 'z1', game: 'zapp-zerapp', config: { players }, seed: 3 });
    for (const action of played.actions) opened.log.appendAction('z1', old, action);
    opened.log.endGame(old, played.result);
    opened.log.commit();
    const expected = new GameRecords(opened.log).record('z1', old);
    const expectedLog = exportActionLog(opened.log, old);
    opened.log.close();
    if (!expected.ok) throw new Error(expected.message);

    rig = await startRig({
      broker: 'embedded', directory,
      tables: [{ id: 'z1', mode: 'zapp-zerapp', seats: players }, { id: 't2', mode: 'zip-zap', seats: ['kim', 'lou'] }],
    });
    const r = await Referee.connect(rig.brokerUrl);
    closers.push(async () => r.close());
    const viewerClient = await client(rig.brokerUrl, VIEWER);
    closers.push(async () => viewerClient.endAsync(true));
    const viewer = new Inbox(viewerClient);
    await viewerClient.subscribeAsync(`${BASE}/z1/audit`, { qos: 1 });

    const games = data(await r.request('z1', 'games')) as { games: { id: number; endedAtMs: number | null }[] };
    expect(games.games.map((g) => g.id)).toContain(old);
    expect(games.games.find((g) => g.id === old)?.endedAtMs).not.toBeNull();
    expect(JSON.stringify(games)).not.toContain('"seed"');

    // The record in pages, each under the budget, joined to exactly the log's record.
    const steps: unknown[] = [];
    let pages = 0;
    for (let from: number | null = 0; from !== null; pages += 1) {
      const page = data(await r.request('z1', 'record', { game: old, from })) as Page;
      expect(JSON.stringify(page.steps).length).toBeLessThanOrEqual(PAGE_BYTES + 2);
      steps.push(...page.steps);
      from = page.next;
    }
    expect(pages).toBeGreaterThan(1);
    expect(steps).toEqual(expected.record.steps);

    const actions: unknown[] = [];
    let first: Record<string, unknown> | undefined;
    for (let from: number | null = 0; from !== null;) {
      const page: Page = data(await r.request('z1', 'action-log', { game: old, from })) as Page;
      first ??= page;
      actions.push(...page.actions);
      from = page.next;
    }
    expect({ game: first?.game, config: first?.config, seed: first?.seed, actions }).toEqual(expectedLog);

    // Stepping back: the public view after a step in the middle.
    const middle = Math.floor(played.actions.length / 2);
    const at = data(await r.request('z1', 'record-state', { game: old, step: middle })) as { view: unknown; step: { step: number } };
    expect(at.step.step).toBe(middle);
    const engine = getEngine('zapp-zerapp');
    let state = (engine.setup({ players }, 3) as { state: unknown }).state;
    for (const action of played.actions.slice(0, middle)) state = (engine.apply(state, action) as { state: unknown }).state;
    expect(at.view).toEqual(engine.view(state, { role: 'public' }));

    // The action log is on the audit topic (who asked, not what came back); the record is not.
    const audit = await viewer.waitFor(() => viewer.json(`${BASE}/z1/audit`).at(-1) as { entries: { request: string }[] } | undefined, 'the audit trail');
    expect(audit.entries.map((e) => e.request)).toContain('action-log');
    expect(audit.entries.map((e) => e.request)).not.toContain('record');

    // Bad input answers with a code and changes nothing.
    expect((await r.request('z1', 'record-state', { game: old, step: played.actions.length + 1 })).error?.code).toBe('NO_SUCH_STEP');
    expect((await r.request('t2', 'record', { game: old })).error?.code).toBe('NO_SUCH_GAME');
    expect((await r.request('t2', 'action-log', { game: old })).error?.code).toBe('NO_SUCH_GAME');
    expect((await r.request('z1', 'record', { game: 'x' })).error?.code).toBe('INVALID_REQUEST');

    // The running Zip-Zap game: its record and views carry no card of any hand.
    const truth = rig.app.tableState('t2');
    if (!truth) throw new Error('no game on t2');
    const hands = (getEngine('zip-zap').view(truth.state, OMNISCIENT) as ZipZapOmniscientView).hands;
    const record = data(await r.request('t2', 'record')) as { game: { id: number }; steps: unknown[] };
    const view = data(await r.request('t2', 'record-state', { game: record.game.id, step: record.steps.length - 1 })) as { view: unknown };
    const text = JSON.stringify([record, view]);
    const top = (view.view as { top?: { card: string } | null }).top?.card;
    const cards = Object.values(hands).flat();
    expect(cards.length).toBeGreaterThan(0);
    for (const card of cards) if (card !== top) expect(text).not.toContain(`"${card}"`);
  }, 120_000);
});

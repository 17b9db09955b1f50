/**
 * The game record page (`#/table/<id>/record`) against the real controller and its SQLite log: the Zapp Zerapp
 * table played to its first move through the simulated stations, then read back from the log — the move list in
 * words with times and intervals, stepping back to a state before the reveal, the summary, the chart with its
 * numbers as text, a round replay, past games after a new game; the action log downloaded with the token and
 * replayed by `zaptable replay` to the table's own public state; a viewer cannot download it; a Zip-Zap record
 * holds no card of any hand; axe-core finds no serious or critical violation.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_TABLES, startPagesHarness, type PagesHarness } from '../support/pages-harness.ts';
import { DESKTOP, PHONE, pageSize, runAxe, serious } from './page-checks.ts';
import { launchBrowser, openPage, screenshot } from './support.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..', '..', '..');
const zz = PAGE_TABLES.zapp.id;

let harness: PagesHarness;
let browser: Browser;
let downloads: string;

interface Games { readonly games: readonly { readonly id: number; readonly endedAtMs: number | null }[] }
interface RecordStepJson {
  readonly step: number;
  readonly action: string | null;
  readonly events: readonly Record<string, unknown>[];
}
interface RecordJson {
  readonly steps: readonly RecordStepJson[];
}

/** A dashboard route's status and JSON body, typed as the caller reads it. */
/** A dashboard route's status and JSON body. */
async function json(url: string, init?: RequestInit): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${harness.dashboardUrl}${url}`, init);
  return { status: response.status, body: await response.json() };
}

async function gamesOf(table: string): Promise<Games> {
  return (await json(`/api/tables/${table}/games`)).body as Games;
}

async function recordOf(table: string, game: number | undefined): Promise<RecordJson> {
  return (await json(`/api/tables/${table}/games/${game}/record`)).body as RecordJson;
}

/** The error code of a refused download, with its HTTP status. */
async function refusal(url: string, init?: RequestInit): Promise<[number, string]> {
  const { status, body } = await json(url, init);
  return [status, (body as { code: string }).code];
}

beforeAll(async () => {
  harness = await startPagesHarness();
  browser = await launchBrowser();
  downloads = mkdtempSync(path.join(tmpdir(), 'zaptable-record-'));
  await harness.playZappToMoves();
}, 180_000);

afterAll(async () => {
  await browser.close();
  await harness.stop();
  rmSync(downloads, { recursive: true, force: true });
});

describe('game record page', () => {
  it('shows the moves from the log, steps back before the reveal, sums up, charts and replays a round', async () => {
    const game = (await gamesOf(zz)).games[0];
    expect(game?.endedAtMs).toBeNull();
    const steps = (await recordOf(zz, game?.id)).steps;
    // Roll, three barrels, the reveal: every action the table applied, from the log.
    expect(steps.map((s) => s.action).slice(1)).toEqual(expect.arrayContaining(['roll', 'place', 'reveal']));
    const revealAt = steps.findIndex((s) => s.action === 'reveal');
    // Before the reveal no barrel number is public: the placed events carry none.
    expect(JSON.stringify(steps.slice(0, revealAt))).not.toMatch(/"barrel":/);

    const { page, errors } = await openPage(browser, `${harness.dashboardUrl}/#/table/${zz}/record`, DESKTOP);
    const moves = page.getByTestId('record-moves').locator('li');
    await expect.poll(async () => moves.count(), { timeout: 20_000 }).toBe(steps.length);
    const list = await page.getByTestId('record-moves').innerText();
    expect(list).toMatch(/ana|ben|cy/);
    expect(list).toContain('placed a barrel');
    expect(list).toMatch(/rolled \d \+ \d: magic number \d+/);
    expect(list).toMatch(/Reveal! Magic number/);
    // Times and the interval since the step before.
    expect(await moves.nth(1).innerText()).toMatch(/\d\d:\d\d:\d\d( [AP]M)? \(\+\d+(\.\d)? s\)/);
    // The page opens at the last step, and the summary says the game is running, with the standing.
    await expect.poll(async () => page.getByTestId('record-step').innerText()).toContain(`After move ${steps.length - 1}`);
    await expect.poll(async () => page.locator('h1').innerText()).toBe('Game record — Zapp Zerapp table');
    const summary = await page.getByTestId('record-summary').innerText();
    expect(summary).toContain('Still running.');
    expect(summary).toMatch(/pieces in the city/);
    expect(summary).toContain('ana');
    expect(await page.getByTestId('record-chart-words').innerText()).toContain('Positions over time');
    expect(await page.getByTestId('record-series').locator('tbody tr').count()).toBeGreaterThan(0);

    // Step back to the step before the reveal: its public view (no dice magic revealed barrels) and its events.
    for (let i = steps.length - 1; i > revealAt - 1; i -= 1) await page.getByRole('button', { name: '◀ Back' }).click();
    await expect.poll(async () => page.getByTestId('record-step').innerText()).toContain(`After move ${revealAt - 1},`);
    const before = await page.getByTestId('record-step').innerText();
    expect(before).toContain('placed a barrel');
    expect(before).toContain('Choose and place a barrel');
    expect(await page.locator('.record-moves li[aria-current=step]').getAttribute('data-step')).toBe(String(revealAt - 1));
    // Step 0: the setup.
    await page.getByRole('button', { name: '◀◀ Start' }).click();
    await expect.poll(async () => page.getByTestId('record-step').innerText()).toContain('The start');

    // A round replay at 8×: plays from the round's first step to its last one, then stops by itself.
    await page.locator('#record-speed').selectOption('8');
    await page.getByTestId('record-replay-round').click();
    await expect.poll(async () => page.locator('.record-moves li[aria-current=step]').getAttribute('data-step'), { timeout: 20_000 })
      .toBe(String(steps.length - 1));
    await expect.poll(async () => page.getByTestId('record-play').innerText()).toBe('Play');

    // The game goes on while the page is open: the move appears (from the log) without a reload, and the page,
    // standing at the last step, follows it.
    const view = await harness.view(zz) as { currentMover: string; moves: { piece: string; carryable: unknown[] }[] };
    const move = view.moves.find((m) => m.carryable.length === 0) ?? view.moves[0];
    expect((await harness.request(zz, 'move', { player: view.currentMover, piece: move?.piece })).status).toBe('ok');
    await expect.poll(async () => moves.count(), { timeout: 20_000 }).toBe(steps.length + 1);
    expect(await moves.last().innerText()).toContain('moved');
    await expect.poll(async () => page.getByTestId('record-step').innerText()).toContain(`After move ${steps.length},`);
    // The referee takes it back: gone from the steps, and the undo is in the list with its reason.
    expect((await harness.request(zz, 'undo', { reason: 'wrong piece' })).status).toBe('ok');
    await expect.poll(async () => moves.count(), { timeout: 20_000 }).toBe(steps.length);
    expect(await moves.last().innerText()).toContain('the referee took back a move: wrong piece');

    const violations = serious(await runAxe(page));
    await screenshot(page, 'record-zapp-desktop');
    expect(violations.map((v) => `${v.id}: ${v.targets.slice(0, 2).join(' | ')}`)).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('a viewer cannot download the action log; the referee downloads it and zaptable replay reaches the table\'s state', async () => {
    const id = (await gamesOf(zz)).games[0]?.id;
    // Without the token, or with a wrong one: refused before anything reaches the table.
    const url = `/api/tables/${zz}/games/${id}/actions.json`;
    expect(await refusal(url)).toEqual([401, 'UNAUTHORIZED']);
    expect(await refusal(url, { headers: { authorization: 'Bearer not-the-token-at-all' } })).toEqual([401, 'UNAUTHORIZED']);

    const viewer = await openPage(browser, `${harness.dashboardUrl}/#/table/${zz}/record`, PHONE);
    const button = viewer.page.getByTestId('record-download');
    await button.waitFor();
    await expect.poll(async () => button.isDisabled()).toBe(true);
    expect(await viewer.page.locator('.record').innerText()).toContain('needs the dashboard token');
    // One column on a phone: nothing scrolls sideways.
    const size = await pageSize(viewer.page);
    expect(size.scrollWidth).toBeLessThanOrEqual(size.innerWidth);
    const violations = serious(await runAxe(viewer.page));
    expect(violations.map((v) => v.id)).toEqual([]);
    await viewer.page.context().close();

    const referee = await openPage(browser, `${harness.dashboardUrl}/#/table/${zz}/record`, DESKTOP);
    await referee.page.locator('#token').fill(harness.token);
    await referee.page.getByRole('button', { name: 'Use token' }).click();
    await expect.poll(async () => referee.page.getByTestId('record-download').isEnabled()).toBe(true);
    await referee.page.getByTestId('record-moves').locator('li').first().waitFor();
    const [download] = await Promise.all([referee.page.waitForEvent('download'), referee.page.getByTestId('record-download').click()]);
    const file = path.join(downloads, download.suggestedFilename());
    await download.saveAs(file);
    expect(download.suggestedFilename()).toBe(`${zz}-game-${id}.json`);
    const log = JSON.parse(readFileSync(file, 'utf8')) as { game: string; seed: unknown; actions: { type: string; barrel?: number }[] };
    // The full log: the seed and the barrels' numbers, which the public record never has.
    expect(log.game).toBe('zapp-zerapp');
    expect(log.seed).toBeDefined();
    expect(log.actions.filter((a) => a.type === 'place').every((a) => typeof a.barrel === 'number')).toBe(true);
    const replayed = await run(process.execPath, [path.join(root, 'bin', 'zaptable.mjs'), 'replay', file, '--json'], { cwd: root });
    expect(JSON.parse(replayed.stdout)).toEqual(await harness.view(zz));
    expect(await referee.page.getByTestId('record-download-answer').innerText()).toContain('zaptable replay');
    expect(referee.errors).toEqual([]);
    await referee.page.context().close();
  }, 60_000);

  it('a Zip-Zap record holds no card of any hand', async () => {
    const zip = PAGE_TABLES.zip.id;
    const text = JSON.stringify(await recordOf(zip, (await gamesOf(zip)).games[0]?.id));
    const state = await harness.view(zip) as { top?: { card: string } | null } | undefined;
    let cards = 0;
    for (const [i] of PAGE_TABLES.zip.players.entries()) {
      const hand = await harness.request(zip, 'simulated-hand', { station: `t2-seat-${i + 1}` });
      for (const card of (hand.data as { cards: string[] }).cards) {
        cards += 1;
        if (card !== state?.top?.card) expect(text).not.toContain(`"${card}"`);
      }
    }
    expect(cards).toBeGreaterThan(0);
  });

  it('lists past games from the log after a new game, each with its own record', async () => {
    const before = (await gamesOf(zz)).games;
    expect((await harness.request(zz, 'new-game', { game: 'zapp-zerapp', players: [...PAGE_TABLES.zapp.players] })).status).toBe('ok');
    const after = (await gamesOf(zz)).games;
    expect(after).toHaveLength(before.length + 1);
    const old = after.find((g) => g.id === before[0]?.id);
    expect(old?.endedAtMs).not.toBeNull();
    const { page, errors } = await openPage(browser, `${harness.dashboardUrl}/#/table/${zz}/record/${old?.id}`, DESKTOP);
    await expect.poll(async () => page.getByTestId('record-games').locator('li').count()).toBe(after.length);
    // The record's sections are shown once the record is drawn (laid out hidden before: no layout shift).
    await expect.poll(async () => page.getByTestId('record-games').locator('[aria-current=page]').innerText()).toContain(`Game ${old?.id}`);
    await expect.poll(async () => page.getByTestId('record-winner').innerText()).toBe('Ended without a winner.');
    // An unknown game is a clear error with its code, not an empty page.
    await page.goto(`${harness.dashboardUrl}/#/table/${zz}/record/999999`);
    await expect.poll(async () => page.getByTestId('record-status').innerText()).toContain('RECORD_NOT_FOUND');
    expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
    await page.context().close();
  });
});

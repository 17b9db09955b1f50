/**
 * The pages added for issue 20 item 7, read as people read them, against the real controller (the pages
 * harness: a Zapp Zerapp table at its first move, a Zip-Zap table, a buzzer table): the overview's mini boards,
 * the notices page (a station unplugged and plugged back in, a card tapped on a barrel table, the severity
 * filter), a station's page with its history, and the configuration page (nothing without the token; with it,
 * every secret masked and the fixed seed hidden). axe-core on each, in the state shown.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_HIDDEN } from '../../../dashboard/server/routes/config.ts';
import { PAGE_TABLES, PAGES_TOKEN, startPagesHarness, type PagesHarness } from '../support/pages-harness.ts';
import { waitFor } from '../support/wait.ts';
import { DESKTOP, PHONE, runAxe, serious } from './page-checks.ts';
import { launchBrowser, openPage, screenshot } from './support.ts';

const { zapp, zip } = PAGE_TABLES;

let harness: PagesHarness;
let browser: Browser;
/** The table's answer to a card tapped on a barrel table: the NOTICE code it raised. */
let tapCode: string;

beforeAll(async () => {
  harness = await startPagesHarness();
  browser = await launchBrowser();
  await harness.playZappToMoves();
  // Something the referee should know: a station unplugged and plugged back in, a card on a Zapp Zerapp pad.
  expect((await harness.request(zapp.id, 'simulate', { station: 'seat-3', op: 'unplug' })).status).toBe('ok');
  await new Promise((r) => setTimeout(r, 600));
  expect((await harness.request(zapp.id, 'simulate', { station: 'seat-3', op: 'plug' })).status).toBe('ok');
  const tap = await harness.request(zapp.id, 'simulate', { station: 'seat-1', op: 'tap', item: { kind: 'card', card: 'R5' } });
  tapCode = tap.error?.code ?? (tap.data as { message?: string } | undefined)?.message ?? 'none';
}, 180_000);

afterAll(async () => {
  await browser.close();
  await harness.stop();
});

async function text(page: Page, selector: string): Promise<string> {
  return (await page.locator(selector).first().innerText()).replace(/\s+/g, ' ');
}

async function noSeriousViolations(page: Page): Promise<void> {
  expect(serious(await runAxe(page)).map((v) => `${v.id}: ${v.targets.join(' | ')}`)).toEqual([]);
}

describe('overview: a mini board per table', () => {
  it('draws each game table small, named in words, and keeps the card\'s size', async () => {
    const { page, errors } = await openPage(browser, `${harness.dashboardUrl}/#/`, PHONE);
    await page.locator(`[data-table="${zapp.id}"] [data-testid=mini-board] svg`).waitFor({ timeout: 20_000 });
    const zappLabel = await page.locator(`[data-table="${zapp.id}"] [data-testid=mini-board] svg`).getAttribute('aria-label');
    expect(zappLabel).toMatch(/^Board, round 1: ana 0 in the city, ben 0 in the city, cy 0 in the city$/);
    // Every piece is drawn on the mini board, as on the game page.
    expect(await page.locator(`[data-table="${zapp.id}"] [data-testid=mini-board] [data-piece]`).count()).toBeGreaterThan(0);
    const zipLabel = await page.locator(`[data-table="${zip.id}"] [data-testid=mini-board] svg`).getAttribute('aria-label');
    expect(zipLabel).toMatch(/^(No card on the pile yet|Top card .+, \d+ on the pile)$/);
    // The buzzer table has no board and no box; every box is the same size, drawn or not.
    expect(await page.locator(`[data-table="${PAGE_TABLES.buzzer.id}"] [data-testid=mini-board]`).count()).toBe(0);
    const boxes = await page.evaluate<number[][]>(`[...document.querySelectorAll('[data-testid=mini-board]')]
      .map((e) => [e.getBoundingClientRect().width, e.getBoundingClientRect().height])`);
    expect(boxes).toHaveLength(2);
    for (const box of boxes) expect(box).toEqual([160, 100]);
    await screenshot(page, 'overview-mini-boards-phone');
    await page.setViewportSize(DESKTOP);
    await screenshot(page, 'overview-mini-boards');
    await noSeriousViolations(page);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('notices', () => {
  it('lists what happened, newest first, in words, and filters by severity', async () => {
    const { page, errors } = await openPage(browser, `${harness.dashboardUrl}/#/table/${zapp.id}/notices`, DESKTOP);
    await page.locator('[data-testid=notice-list] li').first().waitFor({ timeout: 20_000 });
    expect(await page.locator('h1').innerText()).toBe('Notices — Zapp Zerapp table');
    const lines = await page.locator('[data-testid=notice-list] li').allInnerTexts();
    const offline = lines.findIndex((l) => l.includes('seat-3 went offline: its sensors are not heard'));
    const online = lines.findIndex((l) => l.includes('seat-3 is online again'));
    expect(offline).toBeGreaterThanOrEqual(0);
    // Newest first: back online is above gone offline.
    expect(online).toBeGreaterThanOrEqual(0);
    expect(online).toBeLessThan(offline);
    expect(lines[offline]).toMatch(/problem STATION_OFFLINE/);
    // The card on a barrel pad: the table's NOTICE with its code and sentence.
    expect(tapCode).toMatch(/^[A-Z_]+$/);
    const tapLine = page.locator(`[data-testid=notice-list] li[data-code="${tapCode}"]`);
    await tapLine.first().waitFor({ timeout: 10_000 });
    expect(await tapLine.first().innerText()).toMatch(new RegExp(`warning ${tapCode} .{10,}`));
    // The filter: problems off.
    const before = await page.locator('[data-testid=notice-list] li').count();
    await page.getByLabel('Problems').uncheck();
    await waitFor(async () => (await page.locator('[data-testid=notice-list] li[data-severity=problem]').count()) === 0, 'problems hidden');
    expect(await page.locator('[data-testid=notice-list] li').count()).toBeLessThan(before);
    expect(await text(page, '[data-testid=notice-summary]')).toMatch(new RegExp(`^\\d+ of ${before} notices shown, kept since`));
    await screenshot(page, 'notices');
    await noSeriousViolations(page);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('keeps notices from before the page opened (a page opened later lists them too)', async () => {
    const { page } = await openPage(browser, `${harness.dashboardUrl}/#/table/${zapp.id}/notices`, PHONE);
    await page.locator('[data-testid=notice-list] li').first().waitFor({ timeout: 20_000 });
    expect((await page.locator('[data-testid=notice-list]').innerText())).toContain('seat-3 went offline');
    await page.context().close();
  });
});

describe('a station\'s page', () => {
  it('shows its health now and over time, as charts and as a table', async () => {
    const { page, errors } = await openPage(browser, `${harness.dashboardUrl}/#/table/${zapp.id}/health`, DESKTOP);
    // Reached from the health page's station table.
    await page.getByRole('link', { name: 'seat-3', exact: true }).click();
    await page.locator('[data-testid=clock-chart] svg').waitFor({ timeout: 20_000 });
    expect(await page.title()).toBe('Station seat-3 — Zapp Zerapp table — zaptable');
    expect(await page.locator('h1').innerText()).toBe('Station seat-3 — Zapp Zerapp table');
    expect(await text(page, '[data-testid=station-now]')).toMatch(/status online .*clock uncertainty (±\d+\.\d+ ms \((good|ok|bad)\)|not synced \(bad\))/);
    expect(await page.locator('[data-testid=clock-chart] svg').getAttribute('aria-label')).toBe('Clock uncertainty of seat-3 over time, in ms');
    expect(await page.locator('[data-testid=clock-chart] path.chart-line').count()).toBe(1);
    // The table: the unplugging is in it, newest first.
    await page.getByText('The figures as a table').click();
    const rows = await page.locator('[data-testid=station-samples] tbody tr').allInnerTexts();
    expect(rows.some((r) => r.includes('offline'))).toBe(true);
    expect(rows[0]).toContain('online');
    expect(await text(page, '[data-testid=error-summary]')).toMatch(/^(Every counter has stayed at 0\.|Lines: .+)$/);
    await screenshot(page, 'station');
    await noSeriousViolations(page);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('the configuration page', () => {
  it('shows nothing without the token, and with it every setting, secrets masked and the seed hidden', async () => {
    const { page, errors, frames } = await openPage(browser, `${harness.dashboardUrl}/#/config`, DESKTOP);
    await page.locator('[data-testid=config-status]:not(:empty)').waitFor({ timeout: 20_000 });
    expect(await text(page, '[data-testid=config-status]')).toBe('Enter the dashboard token to see the configuration.');
    expect(await page.locator('[data-testid=config-body] table').count()).toBe(0);
    await page.locator('#token').fill('a-wrong-token-of-some-length');
    await page.getByRole('button', { name: 'Use token' }).click();
    await waitFor(async () => (await text(page, '[data-testid=config-status]')).includes('refused'), 'the refusal');
    expect(await text(page, '[data-testid=config-status]')).toBe('The token was refused: the configuration is shown to the referee only.');
    await page.locator('#token').fill(PAGES_TOKEN);
    await page.getByRole('button', { name: 'Use token' }).click();
    await page.locator('[data-testid=config-body] table').first().waitFor({ timeout: 10_000 });
    const value = async (path: string): Promise<string> => page.locator(`tr[data-path="${path}"] td`).innerText();
    expect(await value('dashboard.token')).toBe('********');
    expect(await value('mqtt.controller.password')).toBe('********');
    expect(await value('mqtt.controller.username')).toBe('pages-controller');
    expect(await value('tables[0].seed')).toBe(SEED_HIDDEN);
    expect(await value('tables[0].id')).toBe(zapp.id);
    const all = await page.locator('main').innerText();
    for (const secret of [PAGES_TOKEN, 'pages-controller-pass', 'pages-dashboard-pass']) expect(all).not.toContain(secret);
    // Nothing of it came over the live stream.
    expect(frames.some((f) => f.includes('pages-controller-pass'))).toBe(false);
    await screenshot(page, 'configuration');
    await noSeriousViolations(page);
    expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
    await page.context().close();
  });
});

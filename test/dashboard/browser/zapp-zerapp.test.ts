/**
 * A whole Zapp Zerapp round in a real browser: a new game from the referee page (refused without the token,
 * then accepted), the roll and the barrels through the simulator panel, the reveal, every move picked on the
 * referee page, and at each step what a viewer's page shows. Before the reveal neither the viewer's page nor
 * any WebSocket frame it received may hold a placed barrel's number (or its weight).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.ts';
import { waitFor } from '../support/wait.ts';
import { launchBrowser, openPage, screenshot, valuesOfKey, type WatchedPage } from './support.ts';

const TABLE = 'zz';
const PLAYERS = ['ana', 'ben', 'cy'] as const;

let harness: Harness;
let browser: Browser;
let viewer: WatchedPage;
let referee: WatchedPage;

interface Omniscient {
  phase: string;
  roller: string;
  magic: number | null;
  round: number;
  currentMover: string | null;
  pieces: Record<string, string | number>;
  reveal: { moveOrder: string[] } | null;
}

const omni = (): Omniscient => harness.controller.omniscient(TABLE) as unknown as Omniscient;

async function text(page: Page, selector: string): Promise<string> {
  return (await page.locator(selector).first().textContent({ timeout: 10_000 })) ?? '';
}

async function waitText(page: Page, selector: string, expected: string | RegExp): Promise<void> {
  await waitFor(async () => {
    const count = await page.locator(selector).count();
    if (count === 0) return false;
    const t = await text(page, selector);
    return typeof expected === 'string' ? t.includes(expected) : expected.test(t);
  }, `${selector} to show ${String(expected)}`);
}

async function answers(page: Page): Promise<number> {
  return Number(await page.locator('[data-testid=result]').getAttribute('data-answers'));
}

/** Does something that sends a control and waits for its answer, which must be ok. */
async function control(page: Page, what: string, act: () => Promise<void>): Promise<void> {
  const before = await answers(page);
  await act();
  await waitFor(async () => (await answers(page)) > before, `the answer to ${what}`);
  expect(await text(page, '[data-testid=result]')).toBe(`${what}: ok`);
}

/** Console errors other than the refused control (the browser logs the 401 of that fetch). */
const unexpected = (errors: readonly string[]): string[] => errors.filter((e) => !e.includes('401'));

/** Nothing the viewer has received or shows may tell a placed barrel's number before the reveal. */
async function expectNoBarrelValues(values: readonly number[]): Promise<void> {
  const html = await viewer.page.content();
  expect(html).not.toContain('data-testid="revealed-');
  for (const v of values) expect(html).not.toMatch(new RegExp(`barrel ${v}\\b`));
  expect(viewer.frames.length).toBeGreaterThan(0);
  for (const frame of viewer.frames) {
    const json = JSON.parse(frame) as unknown;
    expect(valuesOfKey(json, 'secret')).toEqual([]);
    expect(valuesOfKey(json, 'barrels')).toEqual([]);
    for (const reveal of valuesOfKey(json, 'reveal')) expect(reveal).toBeNull();
    for (const placed of valuesOfKey(json, 'placed')) for (const x of Object.values(placed as object)) expect(typeof x).toBe('boolean');
    for (const barrel of valuesOfKey(json, 'barrel')) expect(values).not.toContain(barrel);
    for (const pad of valuesOfKey(json, 'pad') as { grams: number | null; tag: { label: string } | null }[]) {
      for (const v of values) {
        expect(pad.grams).not.toBe(9 + v * 7.5);
        expect(pad.tag?.label ?? '').not.toBe(`barrel ${v}`);
      }
    }
  }
}

/** The board shows every piece where the game has it. */
async function expectBoardMatches(): Promise<void> {
  const pieces = omni().pieces;
  await waitFor(async () => {
    for (const [piece, loc] of Object.entries(pieces)) {
      if (await viewer.page.locator(`g[data-piece="${piece}"]`).getAttribute('data-loc') !== String(loc)) return false;
    }
    return true;
  }, 'the board to match the game');
}

beforeAll(async () => {
  harness = await startHarness({ tables: [{ id: TABLE, name: 'Zapp Zerapp table', game: 'zapp-zerapp', players: [...PLAYERS], startGame: false }] });
  browser = await launchBrowser();
  viewer = await openPage(browser, `${harness.dashboardUrl}/#/table/${TABLE}`);
  referee = await openPage(browser, `${harness.dashboardUrl}/#/table/${TABLE}/referee`);
});

afterAll(async () => {
  await browser.close();
  await harness.stop();
});

describe('a Zapp Zerapp round in the browser', () => {
  it('shows an idle table and refuses a new game without the token', async () => {
    await waitText(viewer.page, '[data-testid=no-game]', 'No game is running');
    const page = referee.page;
    await page.getByLabel('seat 3 player').fill('cy');
    await page.locator('#ng-variant').selectOption('PRO');
    await page.locator('#ng-seed').fill('11');
    await page.getByRole('button', { name: 'Start new game' }).click();
    await page.locator('#confirm-ok').click();
    await waitText(page, '[data-testid=result]', 'UNAUTHORIZED');
    expect(harness.controller.received.filter((r) => r.name === 'new-game')).toEqual([]);
  });

  it('starts the game with the token', async () => {
    const page = referee.page;
    await page.locator('#token').fill(harness.token);
    await page.getByRole('button', { name: 'Use token' }).click();
    await control(page, 'new game', async () => {
      await page.getByRole('button', { name: 'Start new game' }).click();
      await page.locator('#confirm-ok').click();
    });
    await waitText(viewer.page, '[data-testid=phase]', 'Roll the dice');
    expect(await text(viewer.page, '[data-testid=magic]')).toBe('—');
    await expectBoardMatches();
    await screenshot(referee.page, 'referee');
  });

  it('rolls from the simulator panel and shows the dice and the magic number', async () => {
    await referee.page.goto(`${harness.dashboardUrl}/#/table/${TABLE}/simulator`);
    const roller = omni().roller;
    await control(referee.page, `seat-${PLAYERS.indexOf(roller as never) + 1}: press`, async () => {
      await referee.page.locator(`section[data-seat="${roller}"] button[data-op="press"]`).click();
    });
    const magic = omni().magic;
    expect(magic).not.toBeNull();
    await waitText(viewer.page, '[data-testid=magic]', String(magic));
    await waitText(viewer.page, '[data-testid=phase]', 'Choose and place a barrel');
  });

  it('shows who has placed a barrel, never which, until the reveal', async () => {
    const magic = omni().magic ?? 0;
    // ana succeeds with exactly the magic number, ben with 1, cy fails with 13.
    const barrels: Record<string, number> = { ana: magic, ben: 1, cy: 13 };
    const placed: number[] = [];
    for (const [i, player] of PLAYERS.entries()) {
      const value = barrels[player] ?? 0;
      await referee.page.locator(`#barrel-seat-${i + 1}`).selectOption(String(value));
      await control(referee.page, `${player}: place a barrel`, async () => {
        await referee.page.locator(`section[data-seat="${player}"] button[data-op="place"]`).click();
      });
      placed.push(value);
      if (i < PLAYERS.length - 1) {
        await waitText(viewer.page, `[data-testid=placed-${player}]`, 'barrel placed');
        for (const other of PLAYERS.slice(i + 1)) expect(await text(viewer.page, `[data-testid=placed-${other}]`)).not.toContain('placed');
        await expectNoBarrelValues(placed);
      }
    }
    await screenshot(referee.page, 'simulator');
    // The last barrel triggers the reveal.
    await waitText(viewer.page, '[data-testid=revealed-ana]', `barrel ${magic} ✓ success`);
    expect(await text(viewer.page, '[data-testid=revealed-ben]')).toContain('barrel 1 ✓ success');
    expect(await text(viewer.page, '[data-testid=revealed-cy]')).toContain('barrel 13 ✗ failed');
    expect(await text(viewer.page, '[data-testid=move-order]')).toContain('ana → ben');
  });

  it('lists the legal moves and highlights the chosen one on the board', async () => {
    await waitText(viewer.page, '[data-testid=move-list]', ':');
    const first = viewer.page.locator('[data-testid=move-list] button.move').first();
    await first.click();
    expect(await viewer.page.locator('.field.landing, .home.landing').count()).toBe(1);
    expect(await viewer.page.locator('.piece.selected').count()).toBe(1);
    expect(await viewer.page.locator('.field.on-path').count()).toBeGreaterThan(0);
    await screenshot(viewer.page, 'zapp-zerapp-board');
  });

  it('plays every move from the referee page; the board follows', async () => {
    await referee.page.goto(`${harness.dashboardUrl}/#/table/${TABLE}/referee`);
    for (let guard = 0; omni().currentMover !== null && guard < 5; guard++) {
      const mover = omni().currentMover;
      await waitText(referee.page, '.moves h2', `${mover ?? ''} moves`);
      const button = referee.page.locator('button[data-move]').first();
      const piece = await button.getAttribute('data-move');
      await control(referee.page, `move ${piece?.charAt(0) ?? ''}${piece?.replace(/^\D+/, '') ?? ''}`, async () => {
        await button.click();
      });
      await expectBoardMatches();
    }
    expect(omni().currentMover).toBeNull();
    expect(omni().round).toBe(2);
    await waitText(viewer.page, '[data-testid=phase]', 'Round 2 · Roll the dice');
    await expectBoardMatches();
    expect(unexpected(viewer.errors)).toEqual([]);
    expect(unexpected(referee.errors)).toEqual([]);
  });

  it('shows the overview, the health page and a phone-sized game page', async () => {
    await viewer.page.goto(`${harness.dashboardUrl}/#/`);
    await waitText(viewer.page, `[data-table="${TABLE}"] [data-testid=game]`, 'Zapp Zerapp (pro)');
    expect(await text(viewer.page, `[data-table="${TABLE}"] [data-testid=table-status]`)).toBe('online');
    await screenshot(viewer.page, 'overview');
    await viewer.page.goto(`${harness.dashboardUrl}/#/table/${TABLE}/health`);
    await waitFor(async () => (await viewer.page.locator('[data-testid=stations] tbody tr').count()) === 3, 'three stations');
    await waitFor(async () => (await viewer.page.locator('.plot .uplot').count()) === 3, 'three weight plots');
    await screenshot(viewer.page, 'health');
    const phone = await openPage(browser, `${harness.dashboardUrl}/#/table/${TABLE}`, { width: 390, height: 844 });
    await waitText(phone.page, '[data-testid=phase]', 'Round 2');
    await screenshot(phone.page, 'phone-zapp-zerapp');
    await phone.page.context().close();
  });
});

/**
 * Layouts against the real controller (a table of each kind, the Zapp Zerapp table at its first move): on a
 * phone (390×844) no page scrolls sideways, the header stays small and the board's text is readable; on a
 * 1920×1080 TV the whole Zapp Zerapp page, events included, fits the screen; pieces never cover a field's
 * number.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_TABLES, type PagesHarness } from '../support/pages-harness.ts';
import { waitFor } from '../support/wait.ts';
import { startCheckedPages, pageSize, PHONE, ROUTES, TV, widest } from './page-checks.ts';
import { openPage, screenshot } from './support.ts';

let harness: PagesHarness;
let browser: Browser;

beforeAll(async () => {
  ({ harness, browser } = await startCheckedPages());
}, 180_000);

afterAll(async () => {
  await browser.close();
  await harness.stop();
});

/** On-screen heights (px) of the board's texts of one kind. */
async function textHeights(page: Page, selector: string): Promise<number[]> {
  return page.evaluate(`[...document.querySelectorAll(${JSON.stringify(selector)})].map((e) => e.getBoundingClientRect().height)`);
}

describe('phone layout (390×844)', () => {
  for (const route of ROUTES) {
    it(`${route.name}: no sideways scrolling, a small header`, async () => {
      const watched = await openPage(browser, `${harness.dashboardUrl}/${route.hash}`, PHONE);
      await watched.page.locator(route.ready).first().waitFor({ timeout: 20_000 });
      const size = await pageSize(watched.page);
      const wide = size.scrollWidth > size.innerWidth ? `${size.scrollWidth} px in ${size.innerWidth} (${(await widest(watched.page)).join(', ')})` : '';
      // The header (brand, status, links) leaves the screen to the page.
      const header = await watched.page.locator('header.top').boundingBox();
      await screenshot(watched.page, `phone-${route.name.replaceAll(' ', '-').toLowerCase()}`);
      await watched.page.context().close();
      expect(wide).toBe('');
      expect(header?.height ?? 0).toBeLessThanOrEqual(PHONE.height * 0.12);
    });
  }

  it('draws the board\'s field numbers and piece labels at a readable size', async () => {
    const watched = await openPage(browser, `${harness.dashboardUrl}/#/table/${PAGE_TABLES.zapp.id}`, PHONE);
    await watched.page.locator('[data-testid=move-list]').waitFor({ timeout: 20_000 });
    // Text boxes include ascent and descent: ~1.2 × the glyph size. 11 px boxes hold ~9 px type.
    expect(Math.min(...await textHeights(watched.page, '.board .field-index'))).toBeGreaterThanOrEqual(11);
    expect(Math.min(...await textHeights(watched.page, '.board .piece-label'))).toBeGreaterThanOrEqual(7);
    expect(Math.min(...await textHeights(watched.page, '.board .home-label'))).toBeGreaterThanOrEqual(11);
    await watched.page.context().close();
  });
});

describe('big screen (1920×1080)', () => {
  it('fits the whole Zapp Zerapp page, board, moves and events, in the screen', async () => {
    const watched = await openPage(browser, `${harness.dashboardUrl}/#/table/${PAGE_TABLES.zapp.id}`, TV);
    await watched.page.locator('[data-testid=move-list]').waitFor({ timeout: 20_000 });
    await watched.page.locator('.events li').first().waitFor({ timeout: 20_000 });
    const size = await pageSize(watched.page);
    expect(size.scrollHeight).toBeLessThanOrEqual(TV.height);
    expect(size.scrollWidth).toBeLessThanOrEqual(TV.width);
    // Measured in one step: the page redraws its side panels on live updates (health every second).
    const [eventsBottom, boardHeight] = await watched.page.evaluate<[number, number]>(`[
      document.querySelector('section.events').getBoundingClientRect().bottom + window.scrollY,
      document.querySelector('.board-panel svg.board').getBoundingClientRect().height]`);
    expect(eventsBottom).toBeLessThanOrEqual(TV.height);
    // The board uses the height it has: most of the screen, not a small square.
    expect(boardHeight).toBeGreaterThan(TV.height * 0.7);
    await screenshot(watched.page, 'tv-zapp-zerapp');
    await watched.page.context().close();
  });

  it('keeps every field number clear of the pieces on it', async () => {
    const watched = await openPage(browser, `${harness.dashboardUrl}/#/table/${PAGE_TABLES.zapp.id}`, TV);
    await watched.page.locator('[data-testid=move-list]').waitFor({ timeout: 20_000 });
    // Put a piece on a field first: the first mover's first move, made from the referee's request.
    const view = await harness.view(PAGE_TABLES.zapp.id) as { currentMover: string; moves: { piece: string }[] };
    const move = view.moves[0];
    expect(move).toBeDefined();
    expect((await harness.request(PAGE_TABLES.zapp.id, 'move', { player: view.currentMover, piece: move?.piece })).status).toBe('ok');
    const overlaps = async (): Promise<string[]> => watched.page.evaluate(`(() => {
      const out = [];
      const boxes = [...document.querySelectorAll('.board .piece')].filter((p) => !isNaN(Number(p.dataset.loc)))
        .map((p) => [p.dataset.piece, p.querySelector('.piece-disc').getBoundingClientRect()]);
      for (const label of document.querySelectorAll('.board .field-index')) {
        const r = label.getBoundingClientRect();
        for (const [piece, b] of boxes) {
          const w = Math.min(r.right, b.right) - Math.max(r.left, b.left);
          const h = Math.min(r.bottom, b.bottom) - Math.max(r.top, b.top);
          if (w > 1 && h > 1) out.push(piece + ' over field ' + label.textContent);
        }
      }
      return out;
    })()`);
    // (Polled from here: the page's CSP refuses waitForFunction's string evaluation.)
    await waitFor(async () => watched.page.evaluate<boolean>(`[...document.querySelectorAll('.board .piece')].some((p) => !isNaN(Number(p.dataset.loc)))`),
      'a piece on a field');
    // The move animation ends where the piece rests; wait for it to settle before measuring.
    await waitFor(async () => watched.page.evaluate<boolean>(`document.querySelectorAll('.board .piece.moving').length === 0`), 'the move to end');
    expect(await overlaps()).toEqual([]);
    await watched.page.context().close();
  });

  it('shows last round\'s dice small during the next roll, not as big dice', async () => {
    const table = PAGE_TABLES.zapp.id;
    // Every remaining mover makes their first move: the round ends and the next "Roll" begins.
    for (let guard = 0; guard < 6; guard++) {
      const view = await harness.view(table) as { phase: string; currentMover: string | null; moves: { piece: string }[] };
      if (view.phase === 'ROLL') break;
      if (view.currentMover === null || view.moves[0] === undefined) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        continue;
      }
      expect((await harness.request(table, 'move', { player: view.currentMover, piece: view.moves[0].piece })).status).toBe('ok');
    }
    const view = await harness.view(table) as { phase: string; dice: { d1: number; d2: number } | null };
    expect(view.phase).toBe('ROLL');
    expect(view.dice).not.toBeNull();
    const watched = await openPage(browser, `${harness.dashboardUrl}/#/table/${table}`, TV);
    await watched.page.locator('[data-testid=last-roll]').waitFor({ timeout: 20_000 });
    expect(await watched.page.locator('[data-testid=last-roll]').textContent()).toContain(`last round: ${view.dice?.d1} + ${view.dice?.d2}`);
    expect(await watched.page.locator('.dice .die').allTextContents()).toEqual(['–', '–']);
    expect(await watched.page.locator('[data-testid=magic]').textContent()).toBe('—');
    // A whole round of events later (the list holds the last 12), the page still fits the TV.
    expect(await watched.page.locator('.events li').count()).toBeGreaterThanOrEqual(10);
    expect((await pageSize(watched.page)).scrollHeight).toBeLessThanOrEqual(TV.height);
    await watched.page.context().close();
  });
});

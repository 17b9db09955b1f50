/**
 * axe-core on every page of the dashboard, on a desktop and on a phone, against the real controller with a
 * table of each kind in a realistic state (the Zapp Zerapp table at its first move, a buzzer winner on the big
 * screen): no serious or critical violation, none of the named ones (heading, landmarks, label in name,
 * a scrollable region without focus), and one window title per route. A page with a nameless button is caught,
 * so the check itself can fail.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_TABLES, startPagesHarness, type PagesHarness } from '../support/pages-harness.ts';
import { waitFor } from '../support/wait.ts';
import { DESKTOP, PHONE, ROUTES, runAxe, serious } from './page-checks.ts';
import { launchBrowser, openPage } from './support.ts';

/** Moderate rules the issue named: refused too. */
const NAMED = ['page-has-heading-one', 'landmark-unique', 'label-content-name-mismatch', 'scrollable-region-focusable'];

let harness: PagesHarness;
let browser: Browser;

beforeAll(async () => {
  harness = await startPagesHarness();
  browser = await launchBrowser();
  await harness.playZappToMoves();
  // A decided question on the buzzer table: the big screen shows its winner, the host page the mark buttons.
  const quiz = PAGE_TABLES.buzzer.id;
  expect((await harness.request(quiz, 'buzzer/arm', {})).status).toBe('ok');
  await waitFor(async () => (await harness.request(quiz, 'simulate', { station: 't3-seat-1', op: 'press' })).status === 'ok', 'a press');
}, 180_000);

afterAll(async () => {
  await browser.close();
  await harness.stop();
});

/** Every route's window title, gathered by the desktop checks. */
const titles = new Map<string, string>();

describe('accessibility of every page (axe-core)', () => {
  // One test per page and device: a failure names the page, and a slow machine gets the timeout per page.
  for (const [device, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    for (const route of ROUTES) {
      it(`${route.name} (${device}): no serious or critical violation`, async () => {
        const watched = await openPage(browser, `${harness.dashboardUrl}/${route.hash}`, viewport);
        await watched.page.locator(route.ready).first().waitFor({ timeout: 20_000 });
        const violations = await runAxe(watched.page);
        const refused = violations.filter((v) => serious([v]).length > 0 || NAMED.includes(v.id))
          .map((v) => `${v.id} (${v.impact ?? '?'}) ${v.help} — ${v.targets.slice(0, 3).join(' | ')}`);
        if (device === 'desktop') titles.set(route.hash, await watched.page.title());
        expect(watched.errors).toEqual([]);
        await watched.page.context().close();
        expect(refused).toEqual([]);
      });
    }
  }

  it('gives every route its own window title', () => {
    expect(titles.size).toBe(ROUTES.length);
    // The two simulators are different tables' pages.
    expect(new Set(titles.values()).size).toBe(ROUTES.length);
  });

  it('catches a violation when there is one (the check can fail)', async () => {
    const watched = await openPage(browser, `${harness.dashboardUrl}/#/table/${PAGE_TABLES.zapp.id}/referee`, DESKTOP);
    await watched.page.locator('button[data-move]').first().waitFor({ timeout: 20_000 });
    expect(serious(await runAxe(watched.page))).toEqual([]);
    // A button with no accessible name: what a careless icon button would be.
    await watched.page.evaluate(`document.querySelector('main').append(Object.assign(document.createElement('button'), { className: 'nameless' }))`);
    const after = serious(await runAxe(watched.page));
    expect(after.map((v) => v.id)).toContain('button-name');
    expect(after.find((v) => v.id === 'button-name')?.targets).toEqual(['.nameless']);
    await watched.page.context().close();
  });
});

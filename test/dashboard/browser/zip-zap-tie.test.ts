/**
 * A Zip-Zap tie in a real browser against the real controller: two players' cards tapped on their pads at
 * the same instant, both following the start card. Each read dates its card only within its poll window, so
 * the windows overlap and the table does not pick an order: the viewer's banner and the referee page show the
 * tie with its figures (separation, each landing's precision and source, never a card), and the referee's
 * ruling on the referee page decides whose card stays.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedUid } from '../../../controller/app/simulated-items.ts';
import { getEngine } from '../../../controller/rules/games.ts';
import type { ZipZapState } from '../../../controller/rules/zip-zap/index.ts';
import { startRealHarness, type RealHarness } from '../support/real-harness.ts';
import { waitFor } from '../support/wait.ts';
import { cardName } from '../../../dashboard/web/games/zip-zap/card-names.ts';
import { launchBrowser, openPage, screenshot, type WatchedPage } from './support.ts';

const TABLE = 'zip';
const PLAYERS = ['ana', 'ben'] as const;

/** A seed whose start card both players can follow, with the card each would play. */
function seedWithTwoFollowers(): { seed: number; a: string; b: string } {
  const engine = getEngine('zip-zap');
  for (let seed = 1; seed < 2000; seed++) {
    const setup = engine.setup({ players: [...PLAYERS] }, seed);
    if (!setup.ok) continue;
    const plays = engine.legalActions(setup.state) as { type: string; player?: string; card?: string }[];
    const card = (p: string) => plays.find((x) => x.type === 'play' && x.player === p && x.card?.startsWith('Z') === false)?.card;
    const a = card('ana');
    const b = card('ben');
    if (a !== undefined && b !== undefined) return { seed, a, b };
  }
  throw new Error('no seed found');
}

const found = seedWithTwoFollowers();
let harness: RealHarness;
let browser: Browser;
let viewer: WatchedPage;
let referee: WatchedPage;

const state = (): ZipZapState => harness.tableState(TABLE).state as ZipZapState;

/** Waits until the page's recent events contain `text`. */
async function waitText(page: WatchedPage, text: string): Promise<void> {
  await waitFor(async () => ((await page.page.locator('[data-testid=events]').textContent()) ?? '').includes(text), `"${text}" in the events`);
}

/** A list line's clock time ("11:01:12 AM" or "11:01:12") as seconds of the day, to compare their order. */
function toSeconds(time: string): number {
  const [h = 0, m = 0, sec = 0] = time.split(':').map((x) => Number.parseInt(x, 10));
  return ((h % 12) + (/PM/.test(time) ? 12 : 0)) * 3600 + m * 60 + sec;
}

beforeAll(async () => {
  harness = await startRealHarness({
    tables: [{ id: TABLE, name: 'Zip-Zap table', game: 'zip-zap', players: [...PLAYERS], names: { ana: 'Ana', ben: 'Ben' }, seed: found.seed }],
  });
  browser = await launchBrowser();
  viewer = await openPage(browser, `${harness.dashboardUrl}/#/table/${TABLE}`);
  referee = await openPage(browser, `${harness.dashboardUrl}/#/table/${TABLE}/referee`);
  await referee.page.locator('#token').fill(harness.token);
  await referee.page.getByRole('button', { name: 'Use token' }).click();
}, 60_000);

afterAll(async () => {
  await browser.close();
  await harness.stop();
});

describe('a Zip-Zap tie in the browser', () => {
  it('sends two cards tapped at the same instant to the referee with the figures, and applies the ruling', async () => {
    const table = harness.app.simulatedTable();
    if (table === undefined) return expect.fail('the harness runs on the simulated table');
    const start = state().pile.at(-1)?.card;
    table.tapCard('seat-1', simulatedUid({ kind: 'card', card: found.a }), 400);
    table.tapCard('seat-2', simulatedUid({ kind: 'card', card: found.b }), 400);
    await waitFor(() => state().tie !== null, 'the tie');
    expect(state().tie?.contenders.map((c) => [c.player, c.timedBy])).toEqual(expect.arrayContaining([['ana', 'tag'], ['ben', 'tag']]));
    expect(state().pile.at(-1)?.card).toBe(start); // nobody's card was put on the pile by arrival order

    // The viewer's banner says it with the figures; the referee page too, with a button per contender.
    // Alike when both windows round to one figure, else one figure per contender (tie-text.ts).
    const alike = String.raw`each ±\d+\.\d ms \(tag windows\)`;
    const each = String.raw`(Ana|Ben) ±\d+\.\d ms \(tag window\), (Ana|Ben) ±\d+\.\d ms \(tag window\)`;
    // Players by their names (Ana, Ben), never their seat ids.
    const figures = new RegExp(String.raw`^(Ana and Ben|Ben and Ana) landed [\d.]+ (µs|ms) apart, (${alike}|${each}): who was first\?$`);
    await waitFor(async () => (await viewer.page.locator('[data-testid=tie]').count()) === 1, 'the tie on the viewer page');
    const banner = (await viewer.page.locator('[data-testid=tie]').textContent()) ?? '';
    expect(banner.replace(/^Tie — /, '').replace(/ The referee decides\.$/, '')).toMatch(figures);
    await waitFor(async () => (await referee.page.locator('[data-testid=tie-figures]').count()) === 1, 'the tie on the referee page');
    expect((await referee.page.locator('[data-testid=tie-figures]').textContent()) ?? '').toMatch(figures);
    // The screen does not contradict itself: no "RACE — play!" above the tie, the ruling buttons name the
    // players, the referee sees the top card, and what the engine would refuse during a tie is disabled with why.
    const modeBanner = (await viewer.page.locator('[data-testid=mode-banner]').textContent()) ?? '';
    expect(modeBanner).toMatch(/^TIE — the race waits for the refereeTie — /);
    expect(modeBanner).not.toContain('RACE');
    expect(await referee.page.locator('.referee').textContent()).toMatch(/· TIE · top card /);
    for (const name of ['Nobody can play', 'Announce stuck']) {
      expect(await referee.page.getByRole('button', { name }).isDisabled(), name).toBe(true);
    }
    // The contested cards are public (both lie face up on the pile): the ruling buttons and the viewer's banner
    // name them; the play the table had applied first reads as contested, not as played.
    const name = { ana: 'Ana', ben: 'Ben' } as const;
    const card = { ana: cardName(found.a), ben: cardName(found.b) } as const;
    for (const p of PLAYERS) expect(await referee.page.locator(`[data-testid=resolve-${p}]`).textContent()).toBe(`${name[p]} — ${card[p]}`);
    expect(await viewer.page.locator('[data-testid=tie-cards]').textContent())
      .toMatch(new RegExp(`^Contested, face up on the pile: (Ana's ${card.ana} and Ben's ${card.ben}|Ben's ${card.ben} and Ana's ${card.ana})$`));
    for (const page of [viewer, referee]) {
      await waitText(page, 'contested until the referee rules');
      const events = await page.page.locator('[data-testid=events]').innerText();
      expect(events).not.toMatch(/(Ana|Ben) played/);
      expect(events).toMatch(/Tie: (Ana|Ben)'s .+ and (Ana|Ben)'s .+ landed too close together to order/);
    }
    await screenshot(referee.page, 'zip-zap-tie-referee');

    // The referee says ben's card was first: it stays, ana's goes back to her hand.
    await referee.page.locator('[data-testid=resolve-ben]').click();
    await waitFor(() => state().tie === null, 'the ruling');
    expect(state().pile.at(-1)).toMatchObject({ card: found.b, by: 'ben' });
    expect(state().hands.ana).toContain(found.a);
    expect(harness.requests.map((r) => r.name)).toContain('action');
    await waitFor(async () => (await viewer.page.locator('[data-testid=tie]').count()) === 0, 'the tie gone from the viewer page');
    // After the ruling the events read in time order (the ruled play where it landed), Ben's card as ruled
    // first, Ana's refusal in words: nothing points at a log no page shows.
    for (const page of [viewer, referee]) {
      await waitText(page, `Ben played ${card.ben} (the referee ruled it first)`);
      const lines = await page.page.locator('[data-testid=events] li').allInnerTexts();
      const seconds = (await page.page.locator('[data-testid=events] li time').allInnerTexts()).map(toSeconds);
      expect(seconds, lines.join('\n')).toEqual([...seconds].sort((a, b) => b - a));
      expect(lines.join('\n')).toMatch(/Ana's card was refused[: (]/);
      expect(lines.join('\n')).not.toMatch(/event log|HIDDEN_REASON/);
    }
    expect(viewer.errors).toEqual([]);
    expect(referee.errors).toEqual([]);
  }, 30_000);
});

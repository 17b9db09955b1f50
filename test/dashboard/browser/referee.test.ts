/**
 * The referee page against the real controller (a Zapp Zerapp and a Zip-Zap table, bots off): live updates
 * change the page in place — chosen dice, typed text and the keyboard focus survive a roll, three barrels and
 * the reveal, and neither the controls nor the nav are rebuilt; the new-game form is pre-filled from the table;
 * it offers every registered game with its variants, and seat colours (sent as `config.colours`) only to Zapp
 * Zerapp; disabled controls say why, to the eye and as their accessible description; the token field asks the
 * dashboard (valid, refused — also for a token kept from before a restart); "Announce stuck" sends
 * `announce-stuck` and the table answers it.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_TABLES, startPagesHarness, type PagesHarness } from '../support/pages-harness.ts';
import { waitFor } from '../support/wait.ts';
import { DESKTOP } from './page-checks.ts';
import { launchBrowser, openPage, type WatchedPage } from './support.ts';

let harness: PagesHarness;
let browser: Browser;

beforeAll(async () => {
  harness = await startPagesHarness();
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser.close();
  await harness.stop();
});

async function refereePage(table: string): Promise<WatchedPage> {
  const watched = await openPage(browser, `${harness.dashboardUrl}/#/table/${table}/referee`, DESKTOP);
  await watched.page.locator('.referee[data-seq]').waitFor({ timeout: 20_000 });
  return watched;
}

async function useToken(page: Page, token: string): Promise<string> {
  await page.locator('#token').fill(token);
  await page.getByRole('button', { name: 'Use token' }).click();
  return waitFor(async () => {
    const status = await page.locator('[data-testid=token-state]').getAttribute('data-status');
    return status === 'checking' ? undefined : status ?? undefined;
  }, 'the token check');
}

/** A button's accessible description: the text of what its aria-describedby names. */
async function description(page: Page, selector: string): Promise<string> {
  const ids = await page.locator(selector).getAttribute('aria-describedby') ?? '';
  const texts = await Promise.all(ids.split(' ').filter((id) => id !== '').map(async (id) => page.locator(`[id="${id}"]`).textContent()));
  return texts.join(' ').trim();
}

const seq = async (page: Page): Promise<number> => Number(await page.locator('.referee').getAttribute('data-seq'));

describe('the referee page', () => {
  it('pre-fills the new-game form with the table\'s own game and players', async () => {
    for (const [table, game, players] of [
      [PAGE_TABLES.zip.id, 'zip-zap', PAGE_TABLES.zip.players], [PAGE_TABLES.zapp.id, 'zapp-zerapp', PAGE_TABLES.zapp.players],
    ] as const) {
      const { page } = await refereePage(table);
      await waitFor(async () => (await page.locator('#ng-game').inputValue()) === game, `${table}: the game pre-filled`);
      // One row per seat of the table (three here), not six whatever the game.
      await waitFor(async () => (await page.locator('.seat-row').count()) === players.length, `${table}: a row per seat`);
      const names = await Promise.all(players.map(async (_, i) => page.getByLabel(`seat ${i + 1} player`).inputValue()));
      expect(names).toEqual([...players]);
      expect(await page.locator('[data-testid=ng-rules]').textContent()).toBe('Kept from the table\'s configuration: the game\'s standard rules.');
      await page.context().close();
    }
  });

  it('offers every registered game with its variants, and seat colours only to the game that takes them', async () => {
    // Without the token: the request goes out (and is refused with UNAUTHORIZED), so its parameters can be read.
    const { page } = await refereePage(PAGE_TABLES.zip.id);
    await waitFor(async () => (await page.locator('#ng-game').inputValue()) === 'zip-zap', 'the game pre-filled');
    const choices = async (selector: string): Promise<string[]> =>
      page.locator(`${selector} option`).evaluateAll((os) => os.map((o) => {
        const option = o as unknown as { value: string; textContent: string | null };
        return `${option.value}=${option.textContent ?? ''}`;
      }));
    expect(await choices('#ng-game')).toEqual(['zapp-zerapp=Zapp Zerapp', 'zip-zap=Zip-Zap', 'killer-21=Killer-21']);
    const colour = page.getByLabel('seat 1 colour');
    expect(await choices('[aria-label="seat 1 colour"]')).toEqual(['=auto colour', 'RED=red', 'GREEN=green', 'BLUE=blue', 'YELLOW=yellow']);
    const sent = async (): Promise<Record<string, unknown>> => {
      const request = page.waitForRequest((r) => r.url().endsWith('/requests/new-game'));
      await page.getByRole('button', { name: 'Start new game' }).click();
      // The dialog opens on the safe choice, and says the table's rules are kept.
      await waitFor(async () => (await page.evaluate('document.activeElement && document.activeElement.id')) === 'confirm-cancel', 'focus on Cancel');
      expect(await page.locator('#confirm-text').textContent()).toContain('the table\'s rules are kept (the game\'s standard rules)');
      await page.locator('#confirm-ok').click();
      return ((await request).postDataJSON() as { params: Record<string, unknown> }).params;
    };
    for (const [game, variants, coloured] of [
      ['zip-zap', ['PENALTY=penalty points', 'WINS=round wins'], false],
      ['killer-21', ['STANDARD=standard', 'BLITZ=Blitz'], false],
      ['zapp-zerapp', ['BASIC=basic', 'PRO=pro'], true],
    ] as const) {
      await page.locator('#ng-game').selectOption(game);
      expect(await choices('#ng-variant'), game).toEqual(variants);
      expect(await colour.isDisabled(), game).toBe(!coloured);
      expect(await page.locator('#ng-colour-why').textContent(), game).toBe(coloured ? '' : 'Colours are for Zapp Zerapp only.');
      if (coloured) await colour.selectOption('BLUE');
      await page.locator('#ng-variant').selectOption(variants[1].split('=')[0] ?? '');
      const params = await sent();
      const key = game === 'zip-zap' ? 'scoringMode' : 'variant';
      expect(params, game).toMatchObject({ game, players: PAGE_TABLES.zip.players, config: { [key]: variants[1].split('=')[0] } });
      expect((params.config as Record<string, unknown>).colours, game).toEqual(coloured ? { kim: 'BLUE' } : undefined);
    }
    await page.context().close();
  });

  it('says why the token is refused, also one kept from before a restart, and when it is valid', async () => {
    const { page } = await refereePage(PAGE_TABLES.zapp.id);
    expect(await page.locator('[data-testid=token-state]').getAttribute('data-status')).toBe('none');
    expect(await useToken(page, 'not-the-token-0123456789')).toBe('invalid');
    expect(await page.locator('[data-testid=token-state]').textContent()).toContain('refused');
    // The old token stays in this tab's sessionStorage across a reload: the page checks it on opening.
    await page.reload();
    await waitFor(async () => (await page.locator('[data-testid=token-state]').getAttribute('data-status')) === 'invalid', 'the stored token refused on opening');
    expect(await useToken(page, harness.token)).toBe('valid');
    await page.context().close();
  });

  it('keeps chosen dice, typed text, focus and its controls across live updates', async () => {
    const { page, errors } = await refereePage(PAGE_TABLES.zapp.id);
    await page.locator('button[data-testid=roll]').waitFor();
    await page.locator('#d1').selectOption('4');
    await page.locator('#d2').selectOption('5');
    await page.locator('#undo-reason').fill('typed before the roll');
    await page.getByLabel('seat 3 player').fill('dee');
    await page.locator('#d2').focus();
    // Expandos on the live nodes: a rebuilt control or nav link would be a new node without them.
    await page.evaluate(`document.getElementById('d2').kept = true; document.querySelector('[data-testid=roll]').kept = true;
      document.querySelector('#nav a[aria-current]').kept = true;`);
    const before = await seq(page);
    // Live updates: the roll (the roller's button on the simulated station), three barrels, the reveal.
    await harness.playZappToMoves();
    await waitFor(async () => (await seq(page)) >= before + 5 && (await page.locator('button[data-move]').count()) > 0, 'the updates and the moves');
    expect(await page.locator('#d1').inputValue()).toBe('4');
    expect(await page.locator('#d2').inputValue()).toBe('5');
    expect(await page.locator('#undo-reason').inputValue()).toBe('typed before the roll');
    expect(await page.getByLabel('seat 3 player').inputValue()).toBe('dee');
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe('d2');
    expect(await page.evaluate(`[document.getElementById('d2').kept, document.querySelector('[data-testid=roll]').kept,
      document.querySelector('#nav a[aria-current]').kept]`)).toEqual([true, true, true]);
    // The page followed the table: the roll is over, and the button says so.
    expect(await page.locator('[data-testid=roll]').isDisabled()).toBe(true);
    expect(await description(page, '[data-testid=roll]')).toBe('only before the roll (now: Move pieces)');
    expect(await page.locator('[data-testid=roll] + .why').isVisible()).toBe(true);
    expect(await page.locator('.referee-events li').count()).toBeGreaterThanOrEqual(5);
    expect(await page.locator('.referee-events').textContent()).toContain('Reveal!');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('sends announce-stuck from the "Announce stuck" button of a Zip-Zap table, and shows the table\'s answer', async () => {
    const { page } = await refereePage(PAGE_TABLES.zip.id);
    const button = page.getByRole('button', { name: 'Announce stuck' });
    await waitFor(async () => button.isEnabled(), 'the race (Announce stuck enabled)');
    expect(await description(page, '[data-testid=next-round]')).toMatch(/^only after a round is over \(now: race\)$/);
    expect(await useToken(page, harness.token)).toBe('valid');
    const answers = Number(await page.locator('[data-testid=result]').getAttribute('data-answers'));
    await button.click();
    await waitFor(async () => Number(await page.locator('[data-testid=result]').getAttribute('data-answers')) > answers, 'the answer');
    // Right after the start flip nobody controls the top card: the table itself refuses it with its rules code
    // (NO_CONTROLLER; later SOMEONE_CAN_PLAY while a hand can follow), so the request reached the table.
    // Said in words (refusal-text.ts), the code in data-outcome.
    const answer = await page.locator('[data-testid=result]').textContent() ?? '';
    expect(answer).toMatch(/^announce stuck: (ok|refused — (the top card was flipped, not played|someone can still follow))/);
    const code = await page.locator('[data-testid=result]').getAttribute('data-outcome') ?? '';
    for (const dashboardCode of ['UNAUTHORIZED', 'UNKNOWN_REQUEST', 'BAD_REQUEST', 'TABLE_NOT_FOUND', 'NETWORK', 'REQUEST_TIMEOUT']) {
      expect(code).not.toBe(dashboardCode);
    }
    await page.context().close();
  });

  it('the buzzer host keeps the keyboard focus on "+1" across the update its press causes', async () => {
    const watched = await openPage(browser, `${harness.dashboardUrl}/#/table/${PAGE_TABLES.buzzer.id}/host`, DESKTOP);
    const { page } = watched;
    await page.locator('[data-testid=arm]').waitFor({ timeout: 20_000 });
    expect(await useToken(page, harness.token)).toBe('valid');
    const plus = page.getByRole('button', { name: '+1 for Ana' });
    const score = page.locator('[data-testid=host-score-ana]');
    const before = Number(await score.textContent());
    await plus.focus();
    await page.keyboard.press('Enter');
    await waitFor(async () => Number(await score.textContent()) === before + 1, 'the score to go up');
    expect(await page.evaluate('document.activeElement && document.activeElement.getAttribute("aria-label")')).toBe('+1 for Ana');
    // Arm is refused with its reason while live.
    expect((await harness.request(PAGE_TABLES.buzzer.id, 'buzzer/arm', {})).status).toBe('ok');
    await waitFor(async () => page.locator('[data-testid=arm]').isDisabled(), 'arm disabled while armed');
    expect(await description(page, '[data-testid=arm]')).toBe('already live (armed): reset first');
    await page.context().close();
  });
});

/**
 * A whole Zapp Zerapp round in a real browser against the real controller (`ControllerApp`: event log, embedded
 * broker, the simulated table read by the real serial driver, the table runtime; bots off): a new game from the
 * referee page (refused without the token — nothing reaches the broker, the running game is untouched — then
 * accepted), the roll and the barrels through the simulator panel (the seat button, tags and settling weights),
 * the reveal the table does by itself, every move picked on the referee page, and at each step what a viewer's
 * page shows. Before the reveal neither the viewer's page nor any WebSocket frame it received may hold a placed
 * barrel's number (or its weight).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATED_WEIGHTS } from '../../../controller/app/simulated-items.ts';
import { startRealHarness, type RealHarness } from '../support/real-harness.ts';
import { waitFor } from '../support/wait.ts';
import { launchBrowser, openPage, screenshot, valuesOfKey, type WatchedPage } from './support.ts';

const TABLE = 'zz';
const PLAYERS = ['ana', 'ben', 'cy'] as const;
/** Configured seat names, unlike the ids, so the pages must show them. */
const NAMES: Readonly<Record<string, string>> = { ana: 'Ada', ben: 'Benno', cy: 'Cyra' };

let harness: RealHarness;
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

const omni = (): Omniscient => harness.omniscient(TABLE) as unknown as Omniscient;

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

/** Sends a control and waits for its answer; returns the answer line. */
async function answerTo(page: Page, what: string, act: () => Promise<void>): Promise<string> {
  const before = await answers(page);
  await act();
  await waitFor(async () => (await answers(page)) > before, `the answer to ${what}`);
  return text(page, '[data-testid=result]');
}

/**
 * Sends a control whose answer must be ok: exactly `<what>: ok` for the referee's requests, `<what>: <the
 * table's verdict in the game's sentences>` for the simulator's (matched by `verdict`).
 */
async function control(page: Page, what: string, act: () => Promise<void>, verdict?: RegExp): Promise<void> {
  const answer = await answerTo(page, what, act);
  if (verdict === undefined) expect(answer).toBe(`${what}: ok`);
  else {
    expect(answer.startsWith(`${what}: `)).toBe(true);
    expect(answer).toMatch(verdict);
    expect(await page.locator('[data-testid=result]').getAttribute('class')).toContain('ok');
  }
}

/** Console errors other than the refused control (the browser logs the 401 of that fetch). */
const unexpected = (errors: readonly string[]): string[] => errors.filter((e) => !e.includes('401'));

/** What a barrel weighs on the simulated table (controller/app/simulated-items.ts). */
const gramsOf = (value: number): number => SIMULATED_WEIGHTS.emptyGrams + SIMULATED_WEIGHTS.stoneGrams * value;

/** Nothing the viewer has received or shows may tell a placed barrel's number before the reveal. */
async function expectNoBarrelValues(values: readonly number[]): Promise<void> {
  const html = await viewer.page.content();
  expect(html).not.toContain('data-testid="revealed-');
  for (const v of values) expect(html).not.toMatch(new RegExp(`barrel ${v}\\b`));
  expect(viewer.frames.length).toBeGreaterThan(0);
  for (const frame of viewer.frames) {
    // Notices and messages too (e.g. a weight cross-check naming the barrel).
    for (const v of values) expect(frame).not.toMatch(new RegExp(`barrel ${v}\\b`));
    const json = JSON.parse(frame) as unknown;
    expect(valuesOfKey(json, 'secret')).toEqual([]);
    expect(valuesOfKey(json, 'barrels')).toEqual([]);
    for (const reveal of valuesOfKey(json, 'reveal')) expect(reveal).toBeNull();
    for (const placed of valuesOfKey(json, 'placed')) for (const x of Object.values(placed as object)) expect(typeof x).toBe('boolean');
    for (const barrel of valuesOfKey(json, 'barrel')) expect(values).not.toContain(barrel);
    for (const pad of valuesOfKey(json, 'pad') as { grams: number | null; tag: { label: string } | null }[]) {
      for (const v of values) {
        if (pad.grams !== null) expect(Math.abs(pad.grams - gramsOf(v))).toBeGreaterThan(2);
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

/** The barrels each seat's pad holds (placed from the simulator), to lift them one at a time. */
const onPad: Record<string, number[]> = {};

beforeAll(async () => {
  // The table starts with a basic game (seed 5) running, as a real table does; the test replaces it.
  harness = await startRealHarness({
    tables: [{ id: TABLE, name: 'Zapp Zerapp table', game: 'zapp-zerapp', players: [...PLAYERS], seed: 5, names: NAMES }],
  });
  browser = await launchBrowser();
  viewer = await openPage(browser, `${harness.dashboardUrl}/#/table/${TABLE}`);
  referee = await openPage(browser, `${harness.dashboardUrl}/#/table/${TABLE}/referee`);
}); // vitest.config.ts's hook timeout allows for a busy machine

afterAll(async () => {
  await browser.close();
  await harness.stop();
});

describe('a Zapp Zerapp round in the browser, on the real controller', () => {
  it('shows the running game and refuses a new game without the token: nothing reaches the broker, nothing changes', async () => {
    await waitText(viewer.page, '[data-testid=phase]', 'Round 1 · Roll the dice');
    const before = harness.tableState(TABLE);
    const page = referee.page;
    await page.getByLabel('seat 3 player').fill('cy');
    await page.locator('#ng-variant').selectOption('PRO');
    await page.locator('#ng-seed').fill('11');
    await page.getByRole('button', { name: 'Start new game' }).click();
    await page.locator('#confirm-ok').click();
    // Said in words (refusal-text.ts); the code stays in data-outcome.
    await waitText(page, '[data-testid=result]', 'new game: refused — the referee token is missing or wrong');
    expect(await page.locator('[data-testid=result]').getAttribute('data-outcome')).toBe('UNAUTHORIZED');
    // The observer has seen every request message at the broker since start-up: none at all.
    expect(harness.requests).toEqual([]);
    const after = harness.tableState(TABLE);
    expect(after.gameId).toBe(before.gameId);
    expect(after.state).toBe(before.state);
    expect((harness.omniscient(TABLE) as { config: { variant: string } }).config.variant).toBe('BASIC');
  });

  it('starts the game with the token', async () => {
    const page = referee.page;
    const before = harness.tableState(TABLE).gameId;
    await page.locator('#token').fill(harness.token);
    await page.getByRole('button', { name: 'Use token' }).click();
    await control(page, 'new game', async () => {
      await page.getByRole('button', { name: 'Start new game' }).click();
      await page.locator('#confirm-ok').click();
    });
    // The observer proves it sees requests: this one reached the broker, with the form's parameters.
    expect(harness.requests.map((r) => r.name)).toEqual(['new-game']);
    expect(harness.requests[0]?.body).toMatchObject({ game: 'zapp-zerapp', players: [...PLAYERS], seed: 11, config: { variant: 'PRO' } });
    expect(harness.tableState(TABLE).gameId).not.toBe(before);
    expect((harness.omniscient(TABLE) as { config: { variant: string } }).config.variant).toBe('PRO');
    await waitText(viewer.page, '[data-testid=phase]', 'Roll the dice');
    expect(await text(viewer.page, '[data-testid=magic]')).toBe('—');
    await expectBoardMatches();
    await screenshot(referee.page, 'referee');
  });

  it('rolls with the roller\'s seat button from the simulator panel and shows the dice and the magic number', async () => {
    await referee.page.goto(`${harness.dashboardUrl}/#/table/${TABLE}/simulator`);
    const roller = omni().roller;
    await waitText(referee.page, '[data-testid=waiting]', `Waiting for ${NAMES[roller] ?? ''} to roll`);
    // The answer names the seat's player, and says what came of it in the game's sentence.
    await control(referee.page, `${NAMES[roller] ?? ''}: ZAP button`, async () => {
      await referee.page.locator(`section[data-seat="${roller}"] button[data-op="press"]`).click();
    }, new RegExp(`: ${NAMES[roller] ?? ''} rolled \\d \\+ \\d: magic number \\d+$`));
    // The press travelled as a real BTN+ line through the serial driver; the answer came once the table rolled.
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
      // Answered once the tag was read and the weight settled: the barrel counts as placed.
      onPad[player] = [value];
      // The last barrel's answer goes on: the reveal and the first mover follow it.
      await control(referee.page, `${NAMES[player] ?? ''}: place barrel ${value}`, async () => {
        await referee.page.locator(`section[data-seat="${player}"] button[data-op="place"]`).click();
      }, new RegExp(`: ${NAMES[player] ?? ''} placed a barrel(; Reveal! Magic number \\d+;.*)?$`));
      placed.push(value);
      if (i === 0) {
        // A second barrel on ana's pad after she committed (SELECT): the table reports a violation, and the
        // simulator's answer says so; nothing else changes (the barrel she placed stays her choice).
        const extra = [7, 8].find((v) => v !== magic) ?? 7;
        await referee.page.locator('#barrel-seat-1').selectOption(String(extra));
        const answer = await answerTo(referee.page, `Ada: place barrel ${extra}`, async () => {
          await referee.page.locator('section[data-seat="ana"] button[data-op="place"]').click();
        });
        // Names, the rule in words and whose pad: no seat id, station id or code.
        expect(answer).toBe(`Ada: place barrel ${extra}: Violation by Ada: stood more than one barrel in front of themselves (ZAPP-24)`
          + ' — a second barrel on Ada\'s pad after committing');
        onPad.ana = [value, extra];
        expect(await referee.page.locator('[data-testid=result]').getAttribute('data-outcome')).toBe('violation');
      }
      if (i < PLAYERS.length - 1) {
        // Placed once the tag is read and the weight has settled on the pad.
        await waitText(viewer.page, `[data-testid=placed-${player}]`, 'barrel placed');
        expect(await viewer.page.locator(`li:has([data-testid=placed-${player}]) .player-name`).textContent()).toContain(NAMES[player]);
        for (const other of PLAYERS.slice(i + 1)) expect(await text(viewer.page, `[data-testid=placed-${other}]`)).not.toContain('placed');
        await expectNoBarrelValues(placed);
      }
    }
    await screenshot(referee.page, 'simulator');
    // The last barrel triggers the reveal, which the table does by itself.
    await waitText(viewer.page, '[data-testid=revealed-ana]', `barrel ${magic} ✓ success`);
    expect(await text(viewer.page, '[data-testid=revealed-ben]')).toContain('barrel 1 ✓ success');
    expect(await text(viewer.page, '[data-testid=revealed-cy]')).toContain('barrel 13 ✗ failed');
    expect(await text(viewer.page, '[data-testid=move-order]')).toContain('Ada → Benno');
    expect(omni().reveal?.moveOrder).toEqual(['ana', 'ben']);
  });

  it('shows the violation the table reported on the game page, with the rule in words', async () => {
    const magic = omni().magic ?? 0;
    await waitText(viewer.page, '[data-testid=violations] li', 'Ada: stood more than one barrel in front of themselves (ZAPP-24)');
    expect(await text(viewer.page, '[data-testid=violations] li')).toContain('TWO_BARRELS_PLACED');
    expect(await text(viewer.page, '[data-testid=violations] li')).toContain('(a second barrel on Ada\'s pad after committing)');
    await waitText(viewer.page, '[data-testid=events]', 'Violation by Ada: stood more than one barrel in front of themselves (ZAPP-24)');
    // The violation changes nothing else: ana's barrel is the one the reveal showed.
    expect(await text(viewer.page, '[data-testid=revealed-ana]')).toContain(`barrel ${magic} ✓ success`);
    await screenshot(viewer.page, 'zapp-zerapp-violation');
  });

  it('lists the legal moves and highlights the chosen one on the board', async () => {
    await waitText(viewer.page, '[data-testid=move-list]', ':');
    const legal = harness.legalActions(TABLE).filter((a) => a.type === 'move') as unknown as { piece: string }[];
    // Moves that do the very same thing (pieces together at start) are one line naming each piece it could be.
    const offered: string[] = [];
    for (const button of await viewer.page.locator('[data-testid=move-list] button.move').all()) {
      const alike = await button.getAttribute('data-alike');
      offered.push(...(alike === null ? [await button.getAttribute('data-piece') ?? ''] : alike.split(' ')));
      const together = /^\w\d, \w\d or \w\d \(together at start\): start → field \d+/;
      if (alike !== null) expect(await button.textContent()).toMatch(together);
    }
    expect(offered.sort()).toEqual(legal.map((m) => m.piece).sort());
    // Round 1: every piece stands at start, so some lines stand for several pieces.
    expect(await viewer.page.locator('[data-testid=move-list] button.move').count()).toBeLessThan(legal.length);
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
      await waitText(referee.page, '.moves h2', `${NAMES[mover ?? ''] ?? ''} moves`);
      const button = referee.page.locator('button[data-move]').first();
      const piece = await button.getAttribute('data-move');
      // By keyboard, as a referee with a keyboard plays: focus the button and press Enter.
      await control(referee.page, `move ${piece?.charAt(0) ?? ''}${piece?.replace(/^\D+/, '') ?? ''}`, async () => {
        await button.focus();
        await referee.page.keyboard.press('Enter');
      });
      await expectBoardMatches();
      // The button is gone with the old move list; the focus stays in the move list, not on the page body.
      await waitFor(async () => (await referee.page.evaluate('document.activeElement && document.activeElement.tagName')) !== 'BODY'
        && (await referee.page.evaluate('!!document.activeElement.closest("[data-testid=moves-host]")')) === true, 'the focus kept in the move list');
    }
    expect(omni().currentMover).toBeNull();
    expect(omni().round).toBe(2);
    await waitText(viewer.page, '[data-testid=phase]', 'Round 2 · Roll the dice');
    await expectBoardMatches();
    expect(unexpected(viewer.errors)).toEqual([]);
    expect(unexpected(referee.errors)).toEqual([]);
  });

  it('rolls round 2 only once the barrels are back off the pads', async () => {
    await referee.page.goto(`${harness.dashboardUrl}/#/table/${TABLE}/simulator`);
    const roller = omni().roller;
    const what = `${NAMES[roller] ?? ''}: ZAP button`;
    const press = async (): Promise<string> => answerTo(referee.page, what, async () => {
      await referee.page.locator(`section[data-seat="${roller}"] button[data-op="press"]`).click();
    });
    // The table heard the button and the answer says why it does not roll: the barrels still lie on the pads.
    // …and whose pads: every seat's barrel is still there.
    const refusal = await press();
    expect(refusal).toMatch(new RegExp(`^${what}: refused — put every barrel back on the mountain before the next roll: a barrel still lies on `));
    expect(await referee.page.locator('[data-testid=result]').getAttribute('data-outcome')).toBe('PADS_NOT_CLEAR');
    for (const player of PLAYERS) expect(refusal).toContain(`${NAMES[player] ?? ''}'s pad`);
    expect(refusal).not.toMatch(/seat-\d|ana|ben|cy\b/);
    await waitText(viewer.page, '[data-testid=events]', 'The table noticed: put every barrel back on the mountain before the next roll: a barrel still lies on');
    expect(omni().phase).toBe('ROLL');
    for (const [i, player] of PLAYERS.entries()) {
      // One barrel at a time (Ada's pad holds two): answered once its tag has left (two missed polls) and the
      // weight has settled back.
      for (const value of onPad[player] ?? []) {
        await referee.page.locator(`#barrel-seat-${i + 1}`).selectOption(String(value));
        await control(referee.page, `${NAMES[player] ?? ''}: lift barrel ${value}`, async () => {
          await referee.page.locator(`section[data-seat="${player}"] button[data-op="lift"]`).click();
        }, /: .+/);
      }
    }
    expect(await press()).toMatch(new RegExp(`^${what}: ${NAMES[roller] ?? ''} rolled \\d \\+ \\d: magic number \\d+$`));
    await waitText(viewer.page, '[data-testid=magic]', String(omni().magic));
    await waitText(viewer.page, '[data-testid=phase]', 'Round 2 · Choose and place a barrel');
  });

  it('shows the overview, the health page and a phone-sized game page', async () => {
    await viewer.page.goto(`${harness.dashboardUrl}/#/`);
    await waitText(viewer.page, `[data-table="${TABLE}"] [data-testid=game]`, 'Zapp Zerapp (pro)');
    expect(await text(viewer.page, `[data-table="${TABLE}"] [data-testid=players]`)).toBe('Ada, Benno, Cyra');
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

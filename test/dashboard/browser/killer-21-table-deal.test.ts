/**
 * Killer-21 dealt at the table (`rules: {dealing: TABLE}`, docs/rules/killer-21.md C-K.3) in a real browser
 * against the real controller (ControllerApp on the simulated table through the real serial driver, MQTT, the
 * dashboard): the game page in DEALING — its banner, a "registering" badge and "(3 unseen)" on every seat; one
 * hand laid card by card on its seat pad from the simulator panel ("Lay on own pad": the simulated station's
 * `place`, as a person lays real cards) takes that seat's badge and unseen count away, and "Pick up laid cards"
 * takes them back without changing anything; the referee's Skip button starts play; the first
 * player then plays a card nobody has seen from the simulator panel, and the page's unseen count goes to 2.
 * The registered hand never appears on the viewer's page or in its frames; the DEALING page and the referee's
 * controls pass axe-core.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killer21Engine, type Killer21State } from '../../../controller/rules/killer-21/index.ts';
import { startRealHarness, type RealHarness } from '../support/real-harness.ts';
import { waitFor } from '../support/wait.ts';
import { runAxe, serious } from './page-checks.ts';
import { launchBrowser, openPage, screenshot, type WatchedPage } from './support.ts';

const TABLE = 'k21t';
const PLAYERS = ['ana', 'ben', 'cy'] as const;
// A small deck of the table's own (3 of each red, 2 Pass cards…): the simulator offers only its copies.
const DECK = { red: [3, 3, 3, 3, 3, 3, 3, 3], DRAW1: 2, DRAW2: 2, PASS: 2, SKIP: 2, REVERSE: 2, LIFE: 1, KILLER: 1 } as const;
const RULES = { dealing: 'TABLE', handSize: 3, deck: DECK } as const;
const SEED = 11;
/** Who plays first (after the dealer) is known at the deal; the seat after them registers its hand. */
const FIRST = (() => {
  const r = killer21Engine.setup({ players: [...PLAYERS], ...RULES }, SEED);
  if (!r.ok) throw new Error(r.message);
  return r.state.turn ?? '';
})();
const REGISTERED = PLAYERS[(PLAYERS.indexOf(FIRST as (typeof PLAYERS)[number]) + 1) % PLAYERS.length] ?? '';
const REGISTERED_HAND = ['R1-1', 'R2-1', 'PASS-1'];
/** A card nobody has seen, played by FIRST from the pile. */
const UNSEEN_PLAY = 'R4-1';

let harness: RealHarness;
let browser: Browser;
let viewer: WatchedPage;
let referee: WatchedPage;
let sim: WatchedPage;

const state = (): Killer21State => harness.tableState(TABLE).state as Killer21State;
const text = async (page: Page, id: string): Promise<string> => (await page.locator(`[data-testid="${id}"]`).textContent()) ?? '';
const count = async (page: Page, id: string): Promise<number> => page.locator(`[data-testid="${id}"]`).count();

async function useToken(page: Page): Promise<void> {
  await page.locator('#token').fill(harness.token);
  await page.getByRole('button', { name: 'Use token' }).click();
  await waitFor(async () => (await page.locator('[data-testid=token-state]').getAttribute('data-status')) === 'valid', 'the token accepted');
}

/** Waits for the simulator panel's next answer and returns its code. */
async function nextAnswer(before: number): Promise<string> {
  const line = sim.page.locator('[data-testid=k21-outcome]');
  await waitFor(async () => Number(await line.getAttribute('data-answers')) > before
    && (await line.getAttribute('class'))?.includes('busy') === false, 'the panel\'s answer', 30_000);
  return (await line.getAttribute('data-code')) ?? '';
}

beforeAll(async () => {
  harness = await startRealHarness({
    tables: [{ id: TABLE, name: 'Café Killer', game: 'killer-21', players: [...PLAYERS], seed: SEED, rules: RULES }],
    pileStation: true,
  });
  browser = await launchBrowser();
  viewer = await openPage(browser, `${harness.dashboardUrl}/#/table/${TABLE}`);
  referee = await openPage(browser, `${harness.dashboardUrl}/#/table/${TABLE}/referee`);
  sim = await openPage(browser, `${harness.dashboardUrl}/#/table/${TABLE}/simulator`);
  await waitFor(async () => (await count(viewer.page, 'k21-banner')) === 1, 'the Killer-21 page');
}, 120_000);

afterAll(async () => {
  await browser.close();
  await harness.stop();
});

describe('Killer-21 dealt at the table on the dashboard', () => {
  it('shows the deal: the DEALING banner, every seat registering with its hand unseen', async () => {
    expect(state().phase).toBe('DEALING');
    const page = viewer.page;
    expect(await page.locator('[data-testid=k21-banner]').getAttribute('data-phase')).toBe('DEALING');
    expect(await text(page, 'k21-banner')).toBe('Dealt at the table: ana, ben and cy — lay your hand on your pad, or the referee skips');
    for (const p of PLAYERS) {
      expect(await text(page, `k21-registering-${p}`)).toBe('registering');
      expect(await text(page, `k21-unseen-${p}`)).toBe(' (3 unseen)');
      expect(await text(page, `k21-count-${p}`)).toBe('3');
    }
    // The new parts (badges, the banner's colour) pass axe-core like every page.
    expect(serious(await runAxe(page))).toEqual([]);
    await screenshot(page, 'killer-21-table-deal');
  });

  it('takes the badge and the unseen count off a seat whose hand is laid on its pad from the simulator panel', async () => {
    await waitFor(async () => (await sim.page.locator('.k21-sim section[data-seat]').count()) === PLAYERS.length, 'the Killer-21 panel');
    await useToken(sim.page);
    const line = sim.page.locator('[data-testid=k21-outcome]');
    const box = sim.page.locator(`.k21-sim section[data-seat="${REGISTERED}"]`);
    // The picker offers what this table's deck holds, not copies 1–20.
    for (const [kind, copies] of [['R7', DECK.red[7]], ['PASS', DECK.PASS], ['KILLER', DECK.KILLER]] as const) {
      await box.locator('select[data-role=kind]').selectOption(kind);
      expect(await box.locator('select[data-role=copy] option').count(), kind).toBe(copies);
    }
    const codes: string[] = [];
    const said: string[] = [];
    for (const card of REGISTERED_HAND) {
      const [kind, copy] = card.split('-');
      await box.locator('select[data-role=kind]').selectOption(kind ?? '');
      await box.locator('select[data-role=copy]').selectOption(copy ?? '');
      const before = Number(await line.getAttribute('data-answers'));
      await box.getByRole('button', { name: 'Lay on own pad' }).click();
      codes.push(await nextAnswer(before));
      said.push(await line.textContent() ?? '');
    }
    // Two cards change nothing yet, but they count: the answer says so (it used to say "nothing to do in this
    // phase"); the third completes the hand.
    expect(codes.slice(0, 2)).toEqual(['UNCHANGED', 'UNCHANGED']);
    for (const [i, text] of said.slice(0, 2).entries()) {
      expect(text).toMatch(new RegExp(`the card lies on \\w+'s pad and counts toward registering the hand \\(${i + 1} laid;`));
      expect(text).not.toContain('nothing to do');
    }
    expect(codes[2]).toBe('APPLIED');
    expect(await line.textContent()).toContain('hand registered');
    expect(state().hands[REGISTERED]).toEqual(REGISTERED_HAND);
    // Laying the same card twice is answered on the panel, without a request.
    let before = Number(await line.getAttribute('data-answers'));
    await box.getByRole('button', { name: 'Lay on own pad' }).click();
    expect(await nextAnswer(before)).toBe('ON_PAD');
    // Picking the hand up again changes nothing at the table.
    const seq = harness.tableState(TABLE).state;
    before = Number(await line.getAttribute('data-answers'));
    await box.getByRole('button', { name: 'Pick up laid cards' }).click();
    await waitFor(async () => (await line.textContent())?.includes('(0 left)') === true, 'every laid card picked up', 30_000);
    expect(Number(await line.getAttribute('data-answers'))).toBeGreaterThan(before);
    expect(harness.tableState(TABLE).state).toEqual(seq);
    const page = viewer.page;
    await waitFor(async () => (await count(page, `k21-registering-${REGISTERED}`)) === 0, `${REGISTERED}'s badge gone`);
    expect(await count(page, `k21-unseen-${REGISTERED}`)).toBe(0);
    expect(await text(page, `k21-count-${REGISTERED}`)).toBe('3');
    const waiting = PLAYERS.filter((p) => p !== REGISTERED);
    for (const p of waiting) expect(await text(page, `k21-registering-${p}`)).toBe('registering');
    expect(await text(page, 'k21-banner')).toBe(`Dealt at the table: ${waiting.join(' and ')} — lay your hand on your pad, or the referee skips`);
    await waitFor(async () => ((await text(page, 'k21-events')).includes(`${REGISTERED}'s hand registered (3 cards)`)), 'the event in words');
  });

  it('starts play from the referee\'s Skip button, with the other hands unseen', async () => {
    await useToken(referee.page);
    const skip = referee.page.locator('[data-testid=k21-skip-registration]');
    await waitFor(async () => (await skip.count()) === 1, 'the Skip button');
    expect(await skip.textContent()).toBe('Skip registration: play with unseen hands');
    expect(serious(await runAxe(referee.page))).toEqual([]);
    await skip.click();
    const page = viewer.page;
    await waitFor(async () => (await page.locator('[data-testid=k21-banner]').getAttribute('data-phase')) === 'TURN', 'play started on the page');
    expect(state().phase).toBe('TURN');
    expect(await text(page, 'k21-banner')).toBe(`${FIRST} to play`);
    for (const p of PLAYERS) expect(await count(page, `k21-registering-${p}`)).toBe(0);
    for (const p of PLAYERS.filter((x) => x !== REGISTERED)) expect(await text(page, `k21-unseen-${p}`)).toBe(' (3 unseen)');
    await waitFor(async () => (await skip.count()) === 0, 'the Skip button gone from the referee page');
    expect(await text(page, 'k21-events')).toContain('Registration skipped');
  });

  it('plays a card nobody has seen from the simulator panel: the page counts it off the unseen hand', async () => {
    const page = sim.page;
    const line = page.locator('[data-testid=k21-outcome]');
    const before = Number(await line.getAttribute('data-answers'));
    const box = page.locator(`.k21-sim section[data-seat="${FIRST}"]`);
    const [kind, copy] = UNSEEN_PLAY.split('-');
    await box.locator('select[data-role=kind]').selectOption(kind ?? '');
    await box.locator('select[data-role=copy]').selectOption(copy ?? '');
    await box.getByRole('button', { name: 'Put on the pile' }).click();
    await waitFor(async () => Number(await line.getAttribute('data-answers')) > before
      && (await line.getAttribute('class'))?.includes('busy') === false, 'the play\'s outcome', 30_000);
    expect(await line.getAttribute('data-code')).toBe('APPLIED');
    expect(state().pile.at(-1)).toMatchObject({ card: UNSEEN_PLAY, by: FIRST });
    const v = viewer.page;
    await waitFor(async () => (await text(v, `k21-unseen-${FIRST}`)) === ' (2 unseen)', `${FIRST}'s unseen count on the page`);
    expect(await text(v, `k21-count-${FIRST}`)).toBe('2');
    expect(await text(v, 'k21-total')).toBe('4');
    expect(await v.locator('[data-testid=k21-top] [data-card]').getAttribute('data-card')).toBe(UNSEEN_PLAY);
  });

  it('never shows the registered hand on the viewer\'s page or in its frames', async () => {
    const html = await viewer.page.content();
    const frames = viewer.frames.join('\n');
    for (const card of REGISTERED_HAND) {
      expect(html).not.toContain(card);
      expect(frames).not.toContain(`"${card}"`);
    }
    expect(viewer.errors).toEqual([]);
    expect(referee.errors).toEqual([]);
    expect(sim.errors.filter((e) => !e.includes('401'))).toEqual([]);
  });
});

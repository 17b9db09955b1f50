/**
 * A Killer-21 round played by hand in a real browser against the real controller (ControllerApp: the simulated
 * table through the real serial driver, the Killer-21 table runtime, the event log, MQTT, the dashboard):
 * everything is done by clicking the simulator panel, as people at the table would act — a card on the pile
 * station, a card on a seat's own pad, the ZAP button — and every figure on the game page is checked against
 * the controller's engine state. It covers a refused play with its reason (a card on the pad out of turn), the
 * panel without the token (refused, nothing reaches the broker), plays from the pile and from a pad, and a
 * Killer response race: a red 0 on a pad in time, "no red 0" by the ZAP button, one player too slow (the
 * table's timer closes the window at its deadline), lives lost, total back to 0. The hands are read from the
 * controller's truth by the test (it is the players' eyes) and never appear on the viewer's page or its
 * WebSocket frames.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killer21Engine, type Killer21State } from '../../../controller/rules/killer-21/index.ts';
import { startRealHarness, type RealHarness } from '../support/real-harness.ts';
import { waitFor } from '../support/wait.ts';
import { launchBrowser, openPage, screenshot, type WatchedPage } from './support.ts';

const TABLE = 'k21';
const PLAYERS = ['ana', 'ben', 'cy'] as const;
/** Long enough for two clicks on a busy machine; the test waits for the table's timer to close it. */
const WINDOW_MS = 10_000;

const red = (hand: readonly string[], not: readonly string[] = []): string | undefined =>
  hand.find((c) => /^R[1-7]-/.test(c) && !not.includes(c));

/** A seed whose deal lets the script run: ana holds the Killer and a red card, ben a red 0 and a red card, cy a red card. */
function findSeed(): number {
  for (let seed = 1; seed < 5000; seed++) {
    const r = killer21Engine.setup({ players: [...PLAYERS], killerWindowMs: WINDOW_MS }, seed);
    if (!r.ok) continue;
    const hands = r.state.hands;
    const ana = hands.ana ?? [];
    const ben = hands.ben ?? [];
    if (ana.includes('KILLER-1') && red(ana) !== undefined && ben.some((c) => c.startsWith('R0-')) && red(ben) !== undefined
      && red(hands.cy ?? []) !== undefined && r.state.turn === 'ana') return seed;
  }
  throw new Error('no seed found');
}

const SEED = findSeed();
let harness: RealHarness;
let browser: Browser;
let viewer: WatchedPage;
let sim: WatchedPage;

const state = (): Killer21State => harness.tableState(TABLE).state as Killer21State;
const hand = (p: string): readonly string[] => state().hands[p] ?? [];

beforeAll(async () => {
  harness = await startRealHarness({
    tables: [{ id: TABLE, name: 'Killer table', game: 'killer-21', players: [...PLAYERS], seed: SEED, rules: { killerWindowMs: WINDOW_MS } }],
    pileStation: true,
  });
  browser = await launchBrowser();
  viewer = await openPage(browser, `${harness.dashboardUrl}/#/table/${TABLE}`);
  sim = await openPage(browser, `${harness.dashboardUrl}/#/table/${TABLE}/simulator`);
  await waitFor(async () => (await sim.page.locator('.k21-sim section[data-seat]').count()) === PLAYERS.length, 'the Killer-21 panel');
}, 120_000);

afterAll(async () => {
  await browser.close();
  await harness.stop();
});

/** The outcome line's text and code after the next answer. */
interface Shown { readonly text: string; readonly code: string }

/** Clicks a seat's control (choosing a card first) and waits for the outcome line's next final answer. */
async function act(page: Page, seat: string, button: string, card?: string): Promise<Shown> {
  const line = page.locator('[data-testid=k21-outcome]');
  const before = Number(await line.getAttribute('data-answers'));
  const box = page.locator(`.k21-sim section[data-seat="${seat}"]`);
  if (card !== undefined) {
    const [kind, copy] = card.split('-');
    await box.locator('select[data-role=kind]').selectOption(kind ?? '');
    await box.locator('select[data-role=copy]').selectOption(copy ?? '');
  }
  await box.getByRole('button', { name: button }).click();
  await waitFor(async () => Number(await line.getAttribute('data-answers')) > before
    && (await line.getAttribute('class'))?.includes('busy') === false, `the outcome of ${seat}: ${button}`, 30_000);
  return { text: (await line.textContent()) ?? '', code: (await line.getAttribute('data-code')) ?? '' };
}

/** The viewer page's figures equal the controller's engine state. */
async function figuresMatch(): Promise<void> {
  const s = state();
  const page = viewer.page;
  await waitFor(async () => (await page.locator('[data-testid=k21-total]').textContent()) === String(s.total)
    && (await page.locator('[data-testid=k21-banner]').getAttribute('data-phase')) === s.phase, `total ${s.total}, phase ${s.phase} on the page`);
  expect(await page.locator('[data-testid=k21-direction]').textContent()).toBe(s.direction === 1 ? '↻ clockwise' : '↺ counter-clockwise');
  for (const p of PLAYERS) {
    await waitFor(async () => (await page.locator(`[data-testid="k21-count-${p}"]`).textContent()) === String(hand(p).length), `${p}'s hand size`);
    expect(await page.locator(`[data-testid="k21-player-${p}"] .k21-chips`).getAttribute('data-lives')).toBe(String(s.lives[p]));
  }
  if (s.phase === 'TURN') expect(await page.locator('[data-testid=k21-banner]').textContent()).toBe(`${s.turn ?? ''} to play`);
}

describe('a Killer-21 round by hand through the simulator panel', () => {
  it('refuses the panel without the token, and nothing reaches the table', async () => {
    const requests = harness.requests.length;
    const shown = await act(sim.page, 'ana', 'Press ZAP (I can\'t)');
    expect(shown.code).toBe('UNAUTHORIZED');
    expect(harness.requests.length).toBe(requests);
    await sim.page.locator('#token').fill(harness.token);
    await sim.page.getByRole('button', { name: 'Use token' }).click();
    await figuresMatch();
    // The "waiting for" line says whom the table waits for (it used to stay empty on Killer-21).
    expect(await sim.page.locator('[data-testid=waiting]').textContent()).toBe(`Waiting for: ${state().turn ?? ''} to play`);
    // The card picker offers the copies the deck holds (the default deck: 10 of a red, 1 Killer), not 1–20.
    const box = sim.page.locator('.k21-sim section[data-seat="ana"]');
    await box.locator('select[data-role=kind]').selectOption('R7');
    expect(await box.locator('select[data-role=copy] option').count()).toBe(10);
    await box.locator('select[data-role=kind]').selectOption('KILLER');
    expect(await box.locator('select[data-role=copy] option').allTextContents()).toEqual(['1']);
  });

  it('shows a refused play with its reason: a card on ben\'s pad while ana is on turn', async () => {
    const before = state();
    const card = red(hand('ben')) ?? '';
    const shown = await act(sim.page, 'ben', 'Put on own pad', card);
    expect(shown.code).toBe('NOT_YOUR_TURN');
    // The table's verdict carries the engine's public sentence (docs/mqtt.md, "Simulated actions and their answers").
    // In words (refusal-text.ts); the code stays in data-code.
    expect(shown.text).toBe(`ben: ${card} on the pad: refused — only the player on turn plays a card or says "I can't"`);
    // Ben's card put on the pile is the play of ana, on turn: refused for a reason that depends on her hand,
    // said in words and as hers (it used to read "ben: … HIDDEN_REASON").
    const onPile = await act(sim.page, 'ben', 'Put on the pile', card);
    expect(onPile.code).toBe('HIDDEN_REASON');
    expect(onPile.text).toBe(`${card} on the pile (ana's play: ana is on turn): refused — the reason is hidden: it depends on the cards in hand`);
    expect(state().total).toBe(before.total);
    expect(hand('ben')).toEqual(before.hands.ben);
    await waitFor(async () => ((await viewer.page.locator('[data-testid=k21-events]').textContent()) ?? '').includes('A play was refused: only the player on turn plays a card'),
      'the refusal on the game page');
    await figuresMatch();
  });

  it('plays cards from the pile station and from a seat\'s pad', async () => {
    const anaCard = red(hand('ana')) ?? '';
    let shown = await act(sim.page, 'ana', 'Put on the pile', anaCard);
    expect(shown.code).toBe('APPLIED');
    expect(state().pile.at(-1)).toMatchObject({ card: anaCard, by: 'ana' });
    expect(shown.text).toContain(`ana played red ${anaCard.charAt(1)}: total ${state().total}`);
    await figuresMatch();
    const benCard = red(hand('ben')) ?? '';
    shown = await act(sim.page, 'ben', 'Put on own pad', benCard);
    expect(shown.code).toBe('APPLIED');
    expect(state().pile.at(-1)).toMatchObject({ card: benCard, by: 'ben' });
    await figuresMatch();
    const cyCard = red(hand('cy')) ?? '';
    shown = await act(sim.page, 'cy', 'Put on the pile', cyCard);
    expect(shown.code).toBe('APPLIED');
    // A card on the pile is the play of whoever is on turn: the answer says whose.
    expect(shown.text).toMatch(new RegExp(`^${cyCard} on the pile \\(cy's play: cy is on turn\\): cy played red`));
    expect(state().turn).toBe('ana');
    await figuresMatch();
  });

  it('runs the Killer race: a red 0 in time, "no red 0", one too slow; the table closes the window at its deadline', async () => {
    let shown = await act(sim.page, 'ana', 'Put on the pile', 'KILLER-1');
    expect(shown.code).toBe('APPLIED');
    expect(state().phase).toBe('KILLER');
    await waitFor(async () => (await viewer.page.locator('[data-testid=k21-killer]').count()) === 1, 'the Killer window on the page');
    expect(await viewer.page.locator('[data-testid=k21-countdown]').textContent()).toMatch(/^\d+\.\d s left$/);
    const zero = hand('ben').find((c) => c.startsWith('R0-')) ?? '';
    shown = await act(sim.page, 'ben', 'Put on own pad', zero);
    expect(shown.text).toContain('ben: red 0 in time');
    expect(state().killer?.answers.ben?.status).toBe('ZERO');
    shown = await act(sim.page, 'cy', 'Press ZAP (I can\'t)');
    expect(shown.text).toContain('cy has no red 0');
    await waitFor(async () => (await viewer.page.locator('[data-testid=k21-answer-ben]').getAttribute('data-status')) === 'ZERO'
      && (await viewer.page.locator('[data-testid=k21-answer-cy]').getAttribute('data-status')) === 'CONCEDED', 'the answers on the page');
    expect(await viewer.page.locator('[data-testid=k21-answer-ana]').getAttribute('data-status')).toBe('PENDING');
    await screenshot(viewer.page, 'killer-21-race');
    // ana does not answer: the table's timer closes the window at its deadline, and the window is settled.
    await waitFor(() => state().phase === 'TURN', 'the window settled by the table', WINDOW_MS + 30_000);
    const s = state();
    expect(s.lives).toEqual({ ana: 4, ben: 5, cy: 4 });
    expect(s.total).toBe(0);
    expect(s.turn).toBe('ben');
    await figuresMatch();
    const events = (await viewer.page.locator('[data-testid=k21-events]').textContent()) ?? '';
    expect(events).toContain('Killer window closed: its time ran out; no answer from ana');
    expect(events).toContain('Killer settled: ana and cy lose a life');
  });

  it('never shows a card in a hand on the viewer\'s page or in its frames', async () => {
    const html = await viewer.page.content();
    const frames = viewer.frames.join('\n');
    for (const p of PLAYERS) {
      for (const card of hand(p)) {
        expect(html).not.toContain(`data-card="${card}"`);
        expect(frames).not.toContain(`"${card}"`);
      }
    }
    expect(viewer.errors).toEqual([]);
    expect(sim.errors.filter((e) => !e.includes('401'))).toEqual([]);
    await screenshot(sim.page, 'killer-21-simulator');
  });
});

/**
 * A whole Zip-Zap round played by hand in a real browser against the real controller (`ControllerApp`: event
 * log, embedded broker, the simulated table read by the real serial driver, the table runtime with its 30 ms
 * arbitration window; bots off), every card tapped and every ZAP called through the simulator panel — ZAP cards
 * tapped as well as ZAP buttons pressed — and "nobody can play" announced by the referee. Every simulator
 * answer is the table's verdict (accepted, or refused with its code and sentence). After each play the viewer's
 * page must show the top card, every player's card count (under the configured names) and the mode banner, and
 * neither the page nor any WebSocket frame it received may name a card that is in a hand. The simulator shows
 * a seat's hand only with the token. At the end: the scores, then a controller restart with the page left open
 * (its events start again under a new epoch).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardName } from '../../../dashboard/web/games/zip-zap/card-names.ts';
import { startRealHarness, type RealHarness } from '../support/real-harness.ts';
import { waitFor } from '../support/wait.ts';
import { launchBrowser, openPage, screenshot, type WatchedPage } from './support.ts';

const TABLE = 'zip';
const PLAYERS = ['ana', 'ben', 'cy'] as const;
/** Configured seat names, unlike the ids, so the pages must show them. */
const NAMES: Readonly<Record<string, string>> = { ana: 'Ada', ben: 'Benno', cy: 'Cyra' };

let harness: RealHarness;
let browser: Browser;
let viewer: WatchedPage;
let sim: WatchedPage;
let referee: WatchedPage;

interface ZipOmniscient {
  mode: { kind: string; controller?: string; cause?: string };
  top: { card: string } | null;
  hands: Record<string, string[]>;
  handCounts: Record<string, number>;
  roundScores: Record<string, number>[];
  suits: string[];
}

const omni = (): ZipOmniscient => harness.omniscient(TABLE) as unknown as ZipOmniscient;
/** The engine state's fields the test needs (never published). */
interface ZipZapStateLike {
  readonly zapOf: Record<string, string>;
  readonly stuck: boolean;
}
const engineState = (): ZipZapStateLike => harness.tableState(TABLE).state as ZipZapStateLike;

async function answers(page: Page): Promise<number> {
  return Number(await page.locator('[data-testid=result]').getAttribute('data-answers'));
}

/** Clicks a control and waits for its answer; returns the answer line. */
async function control(page: Page, act: () => Promise<void>): Promise<string> {
  const before = await answers(page);
  await act();
  await waitFor(async () => (await answers(page)) > before, 'the answer');
  return (await page.locator('[data-testid=result]').textContent()) ?? '';
}

async function tap(player: string, card: string): Promise<string> {
  const seat = PLAYERS.indexOf(player as never) + 1;
  return control(sim.page, async () => {
    await sim.page.locator(`#card-seat-${seat}`).selectOption(card);
    await sim.page.locator(`section[data-seat="${player}"] button[data-op="tap"]`).click();
  });
}

async function press(player: string): Promise<string> {
  return control(sim.page, async () => {
    await sim.page.locator(`section[data-seat="${player}"] button[data-op="press"]`).click();
  });
}

/**
 * The referee announces that nobody can play: the referee page's "Announce stuck" button when it has one
 * (branch `referee` adds it), else the request that button sends (`action` `announce-stuck`), through the
 * dashboard's route with the token, exactly as the page's fetch does.
 */
async function announceStuck(): Promise<string> {
  const button = referee.page.getByRole('button', { name: 'Announce stuck' });
  if (await button.count() > 0) return control(referee.page, async () => button.click());
  return referee.page.evaluate(async ({ table, token }) => {
    const r = await fetch(`/api/tables/${table}/requests/action`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, params: { action: { type: 'announce-stuck' } } }),
    });
    const body = await r.json() as { status?: string; error?: { code: string } | null };
    return body.status === 'ok' ? 'announce stuck: ok' : `announce stuck: ${body.error?.code ?? String(r.status)}`;
  }, { table: TABLE, token: harness.token });
}

/** What the banner must say about a pause's cause. */
const CAUSE_TEXT: Readonly<Record<string, string>> = { TEN: 'played a 10', ZAP: 'played a ZAP', STUCK: 'nobody could follow' };

/** The viewer shows what the game is: top card, counts, mode (a pause with its controller's name and cause). */
async function expectViewerMatches(): Promise<void> {
  const o = omni();
  await waitFor(async () => {
    const top = await viewer.page.locator('[data-testid=top-card] .card').getAttribute('data-card');
    if (top !== (o.top?.card ?? null)) return false;
    if (await viewer.page.locator('[data-testid=mode-banner]').getAttribute('data-mode') !== o.mode.kind) return false;
    for (const p of PLAYERS) {
      if ((await viewer.page.locator(`[data-testid=count-${p}]`).textContent()) !== String(o.handCounts[p])) return false;
    }
    return true;
  }, 'the viewer to match the game');
  if (o.mode.kind === 'PAUSED') {
    const banner = (await viewer.page.locator('[data-testid=mode-banner]').textContent()) ?? '';
    const name = NAMES[o.mode.controller ?? ''] ?? '';
    expect(banner).toContain(`PAUSED — ${name} is in control`);
    expect(banner).toContain(CAUSE_TEXT[o.mode.cause ?? ''] ?? `an unknown cause ${o.mode.cause ?? ''}`);
  }
}

/**
 * The cards a spectator saw face up: named by a refusal whose public reason is about the card (docs/mqtt.md,
 * "What is public"); such a card goes back to the hand, and may be named from then on.
 */
function sightedCards(): Set<string> {
  const seen = new Set<string>();
  for (const frame of viewer.frames) {
    const payload = (JSON.parse(frame) as { payload?: { type?: string; card?: unknown } }).payload;
    if ((payload?.type === 'PLAY_REJECTED' || payload?.type === 'ACTION_REFUSED') && typeof payload.card === 'string') seen.add(payload.card);
  }
  return seen;
}

/** No card that is in a hand now appears on the viewer's page or in any frame it received this round, unless seen. */
async function expectNoHandCards(): Promise<void> {
  const seen = sightedCards();
  const inHands = Object.values(omni().hands).flat().filter((c) => !seen.has(c));
  const html = await viewer.page.content();
  for (const card of inHands) {
    expect(html).not.toContain(`data-card="${card}"`);
    for (const frame of viewer.frames) expect(frame).not.toContain(`"${card}"`);
  }
}

/** The cards the simulator's list offers a seat. */
async function offered(page: Page, seat: number): Promise<string[]> {
  return page.locator(`#card-seat-${seat} option`).evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value));
}

beforeAll(async () => {
  harness = await startRealHarness({
    tables: [{
      id: TABLE, name: 'Zip-Zap table', game: 'zip-zap', players: [...PLAYERS], seed: 21, names: NAMES,
      // ORACLE knows when nobody can follow; the table would announce it by itself after this delay. An hour:
      // here the referee announces it.
      rules: { stuckAnnounceDelayMs: 3_600_000 },
    }],
  });
  browser = await launchBrowser();
  viewer = await openPage(browser, `${harness.dashboardUrl}/#/table/${TABLE}`);
  sim = await openPage(browser, `${harness.dashboardUrl}/#/table/${TABLE}/simulator`);
  referee = await openPage(browser, `${harness.dashboardUrl}/#/table/${TABLE}/referee`);
  for (const page of [sim.page, referee.page]) {
    await page.locator('#token').fill(harness.token);
    await page.getByRole('button', { name: 'Use token' }).click();
  }
}); // vitest.config.ts's hook timeout allows for a busy machine

afterAll(async () => {
  await browser.close();
  await harness.stop();
});

describe('a Zip-Zap round played by hand in the browser, on the real controller', () => {
  it('shows the dealt round under the configured names: start card, counts, race', async () => {
    await expectViewerMatches();
    expect(await viewer.page.locator('[data-testid=mode-banner]').getAttribute('data-mode')).toBe('RACE');
    for (const p of PLAYERS) {
      expect(await viewer.page.locator(`[data-testid=player-${p}] .player-name`).textContent()).toBe(NAMES[p]);
    }
    expect(await viewer.page.locator('[data-testid=waiting]').textContent()).toContain('anyone who can follow');
    await expectNoHandCards();
  });

  it('shows a seat\'s hand in the simulator only with the token', async () => {
    // With the token: each seat's list is its hand (asked with `simulated-hand`, relayed with the token).
    for (const [i, p] of PLAYERS.entries()) {
      await waitFor(async () => (await sim.page.locator(`[data-testid=hand-${p}]`).getAttribute('data-hand')) === 'shown', `${p}'s hand`);
      expect(new Set(await offered(sim.page, i + 1))).toEqual(new Set(omni().hands[p]));
    }
    expect(harness.requests.some((r) => r.name === 'simulated-hand' && r.body.station === 'seat-1')).toBe(true);
    // Without it: every card in play, and the page asks for no hand.
    const guest = await openPage(browser, `${harness.dashboardUrl}/#/table/${TABLE}/simulator`);
    const asked: string[] = [];
    guest.page.on('request', (r) => {
      if (r.url().includes('/requests/')) asked.push(r.url());
    });
    await waitFor(async () => (await guest.page.locator('[data-testid=hand-ana]').count()) === 1, 'the guest\'s seats');
    expect(await guest.page.locator('[data-testid=hand-ana]').getAttribute('data-hand')).toBe('hidden');
    const all = await offered(guest.page, 1);
    expect(all.length).toBe(omni().suits.length * 10 + 1); // every number card in play, and the seat's ZAP
    for (const card of omni().hands.ben ?? []) if (!card.startsWith('Z')) expect(all).toContain(card);
    expect(asked).toEqual([]);
    // Asked directly, the dashboard refuses before anything reaches the table.
    const before = harness.requests.length;
    const probe = await guest.page.evaluate(async (table) => {
      const r = await fetch(`/api/tables/${table}/requests/simulated-hand`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ params: { station: 'seat-2' } }),
      });
      return { status: r.status, text: await r.text() };
    }, TABLE);
    expect(probe.status).toBe(401);
    expect(probe.text).toContain('UNAUTHORIZED');
    for (const card of omni().hands.ben ?? []) expect(probe.text).not.toContain(card);
    expect(harness.requests.length).toBe(before);
    await guest.page.context().close();
  });

  it('answers a refused play with its public reason and sentence, and shows it on the game page', async () => {
    const legal = new Set(harness.legalActions(TABLE).flatMap((a) => {
      const play = a as { type: string; player?: string; card?: string };
      return play.type === 'play' && play.player === 'ana' ? [play.card] : [];
    }));
    const wrong = omni().hands.ana?.find((c) => !c.startsWith('Z') && !legal.has(c));
    expect(wrong).toBeDefined();
    const answer = await tap('ana', wrong ?? '');
    // The answer comes once the table has applied the play (after the arbitration window). The card lies face up
    // and does not follow the public top card: a spectator sees why (docs/mqtt.md, "What is public"). Said in
    // words, by the player's name, and pointing at no log.
    expect(answer).toBe(`Ada: ${cardName(wrong ?? '')} tapped: refused — the card does not follow the top card: it must be the next number in a matching suit`);
    expect(await sim.page.locator('[data-testid=result]').getAttribute('data-outcome')).toBe('DOES_NOT_FOLLOW');
    expect(omni().hands.ana).toContain(wrong);
    await waitFor(async () => (await viewer.page.locator('[data-testid=rejected] li').count()) === 1, 'the refused play');
    const line = (await viewer.page.locator('[data-testid=rejected] li').textContent()) ?? '';
    // The public view says what the answer says, no more: the reason the pile shows, nothing about ana's hand.
    expect(line).toMatch(/Ada's card was refused: the card does not follow the top card/);
    expect(await viewer.page.locator('[data-testid=rejected] li').first().getAttribute('data-code')).toBe('DOES_NOT_FOLLOW');
    expect(line).not.toMatch(/event log|HIDDEN_REASON|CARD_NOT_IN_HAND/);
    await waitFor(async () => (await viewer.page.locator('[data-testid=events]').textContent() ?? '')
      .includes('Ada\'s card was refused: the card does not follow the top card'), 'the refusal in the events');
    await expectNoHandCards();
  });

  it('plays the whole round through the simulator panel: ZAP cards and buttons, a refusal in a pause, stuck announced by the referee', async () => {
    let paused = 0;
    let announced = 0;
    let zapCards = 0;
    let zapButtons = 0;
    let notController = 0;
    const causes = new Set<string>();
    for (let step = 0; step < 200 && omni().mode.kind !== 'ROUND_OVER'; step++) {
      const before = harness.tableState(TABLE).state;
      const legal = harness.legalActions(TABLE) as { type: string; player?: string; card?: string }[];
      const play = legal.find((a) => a.type === 'play');
      const zap = legal.find((a) => a.type === 'zap');
      const mode = omni().mode;
      if (mode.kind === 'PAUSED' && notController === 0) {
        // Someone else than the controller plays in a pause: refused, with a reason everybody may know.
        const other = PLAYERS.find((p) => p !== mode.controller && (omni().hands[p]?.length ?? 0) > 0) ?? '';
        const card = omni().hands[other]?.find((c) => !c.startsWith('Z')) ?? '';
        const answer = await tap(other, card);
        expect(answer).toBe(`${NAMES[other] ?? ''}: ${cardName(card)} tapped: refused — play is paused: only the player in control may play now`);
        expect(await sim.page.locator('[data-testid=result]').getAttribute('data-outcome')).toBe('NOT_CONTROLLER');
        const pauseLine = `${NAMES[other] ?? ''}'s card was refused: play is paused: only the player in control may play now`;
        await waitFor(async () => ((await viewer.page.locator('[data-testid=rejected] li').first().textContent()) ?? '').includes(pauseLine), 'the pause refusal');
        expect(await viewer.page.locator('[data-testid=rejected] li').first().getAttribute('data-code')).toBe('NOT_CONTROLLER');
        // The simulator says whom the table waits for.
        expect(await sim.page.locator('[data-testid=waiting]').textContent()).toContain(`Waiting for ${NAMES[mode.controller ?? ''] ?? ''} (you, at the simulator) to play`);
        notController++;
        continue;
      }
      if (zap?.player !== undefined) {
        // A ZAP whenever one is allowed, so the round has ZAP pauses: the ZAP card tapped, or the button.
        const answer = (zapCards + zapButtons) % 2 === 0 ? await tap(zap.player, engineState().zapOf[zap.player] ?? '') : await press(zap.player);
        if ((zapCards + zapButtons) % 2 === 0) zapCards++;
        else zapButtons++;
        expect(answer).toMatch(new RegExp(`: ${NAMES[zap.player] ?? ''} ZAP!`));
      } else if (play?.player !== undefined && play.card !== undefined) {
        // A bot's play racing this tap may be judged again first (late lines, docs/timing.md): its sentence then
        // comes before this play's.
        expect(await tap(play.player, play.card)).toMatch(new RegExp(`tapped: (.*; )?${NAMES[play.player] ?? ''} played ${cardName(play.card)}`));
      } else if (engineState().stuck) {
        // Nobody can play: the referee says so (the table would only after its hour).
        expect(await announceStuck()).toMatch(/^announce stuck: ok/);
        announced++;
      } else {
        throw new Error(`no play possible in ${omni().mode.kind}: ${JSON.stringify(legal)}`);
      }
      // The answer came once the table had handled the play: the state has moved on already.
      expect(harness.tableState(TABLE).state).not.toBe(before);
      await expectViewerMatches();
      await expectNoHandCards();
      if (omni().mode.kind === 'PAUSED') {
        causes.add(omni().mode.cause ?? '');
        paused++;
        if (paused === 1) await screenshot(viewer.page, 'zip-zap-paused');
      }
    }
    expect(announced).toBeGreaterThan(0);
    expect(zapCards).toBeGreaterThan(0);
    expect(zapButtons).toBeGreaterThan(0);
    expect(notController).toBe(1);
    expect([...causes].sort()).toEqual(expect.arrayContaining(['STUCK', 'ZAP']));
    expect(paused).toBeGreaterThan(0);
    // Everything reached the controller as the simulated table's sensor input, the referee's stuck announcement
    // and the simulator's questions for the hands.
    const names = new Set(harness.requests.map((r) => r.name));
    expect(names.has('simulate')).toBe(true);
    expect([...names].filter((n) => !['simulate', 'simulated-hand', 'action', 'announce-stuck'].includes(n))).toEqual([]);
    const o = omni();
    expect(o.mode.kind).toBe('ROUND_OVER');
    await waitFor(async () => (await viewer.page.locator('[data-testid=mode-banner]').getAttribute('data-mode')) === 'ROUND_OVER', 'round over');
    const rows = viewer.page.locator('[data-testid=score-table] tbody tr');
    expect(await rows.count()).toBe(PLAYERS.length);
    for (const [i, p] of PLAYERS.entries()) {
      expect(await rows.nth(i).locator('th').textContent()).toBe(NAMES[p]);
      expect(await rows.nth(i).locator('td').first().textContent()).toBe(String(o.roundScores[0]?.[p]));
    }
    await screenshot(viewer.page, 'zip-zap');
    await screenshot(sim.page, 'simulator-zip-zap');
    const phone = await openPage(browser, `${harness.dashboardUrl}/#/table/${TABLE}`, { width: 390, height: 844 });
    await waitFor(async () => (await phone.page.locator('[data-testid=mode-banner]').getAttribute('data-mode')) === 'ROUND_OVER', 'phone page');
    await screenshot(phone.page, 'phone-zip-zap');
    await phone.page.context().close();
    expect(viewer.errors).toEqual([]);
    // Up to 200 plays, each a click or tap and a wait for the page: 17 s on a moderately busy machine, over 50 s at
    // load average 15.
  }, 240_000);

  it('shows ZAP calls under the players\' names', async () => {
    const calls = viewer.page.locator('[data-testid=zap-calls] li');
    expect(await calls.count()).toBeGreaterThan(0);
    expect(await calls.first().textContent()).toMatch(/(Ada|Benno|Cyra): ZAP!/);
  });

  it('shows the players\' names on the overview', async () => {
    const overview = await openPage(browser, `${harness.dashboardUrl}/#/`);
    await waitFor(async () => (await overview.page.locator(`[data-table="${TABLE}"] [data-testid=players]`).count()) === 1, 'the overview');
    expect(await overview.page.locator(`[data-table="${TABLE}"] [data-testid=players]`).textContent()).toMatch(/^Ada \(\d+\), Benno \(\d+\), Cyra \(\d+\)$/);
    await overview.page.context().close();
  });

  it('starts "Recent events" again when the controller restarts with the page open (a new epoch, seq from 1)', async () => {
    const events = viewer.page.locator('[data-testid=events] li');
    expect(await events.count()).toBeGreaterThan(5);
    await harness.restart();
    // The game continues from the log; the page reconnects and drops the previous start's events.
    await waitFor(async () => (await viewer.page.locator('.events').textContent())?.includes('none yet') === true, 'the old events dropped');
    await waitFor(async () => (await viewer.page.locator('[data-testid=mode-banner]').getAttribute('data-mode')) === 'ROUND_OVER', 'the recovered game');
    // The next round's events carry seq 1, 2… again: they are shown, not taken for the old ones.
    await waitFor(async () => {
      const answer = await press('ana');
      return answer.startsWith('Ada: ZAP button: ') && !answer.includes('refused');
    }, 'seat-1 back online and heard');
    await waitFor(async () => (await events.allTextContents()).some((t) => t.includes('Round 2 dealt')), 'the new round\'s events');
    const shown = await events.allTextContents();
    expect(shown.filter((t) => t.includes('ZAP!'))).toEqual([]);
    expect(viewer.errors.filter((e) => !e.includes('WebSocket'))).toEqual([]);
  });
});

/**
 * The venue dashboard in a real browser (issue 19): two real controllers (`ControllerApp`, as `zaptable start`
 * runs it, bots off) on one Mosquitto, each reaching it through a TCP proxy that plays the venue network, and
 * one dashboard following both. The overview lists every table of both controllers with its controller; the
 * referee page of pi-b's table starts a game there, with pi-b's token (the venue dashboard's own token is
 * not pi-b's); pi-b's network cut (every connection reset, no goodbye) shows its table offline on the page
 * while pi-a's stays online, and the table comes back online with the same game when the network does.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControllerApp } from '../../../controller/app/controller-app.ts';
import { mosquittoProblem, type BenchBroker } from '../../../controller/bench/mosquitto.ts';
import { loadConfig } from '../../../controller/config/index.ts';
import { startDashboard, type RunningDashboard } from '../../../dashboard/server/server.ts';
import { TcpProxy } from '../../transport/support/tcp-proxy.ts';
import {
  DASHBOARD_USER, VENUE_BASE, VENUE_DASHBOARD_TOKEN, startVenueBroker, writeControllerConfig, type VenueControllerSpec,
} from '../../venue/support/venue.ts';
import { waitFor } from '../support/wait.ts';
import { DESKTOP } from './page-checks.ts';
import { launchBrowser, openPage, screenshot } from './support.ts';

const PI_A: VenueControllerSpec = { id: 'pi-a', token: 'pi-a-referee-token-0123', bots: false, tables: [{ id: 'bar-1', mode: 'zapp-zerapp', seats: ['red', 'green'] }] };
const PI_B: VenueControllerSpec = { id: 'pi-b', token: 'pi-b-referee-token-0123', bots: false, tables: [{ id: 'bar-2', mode: 'zip-zap', seats: ['ana', 'ben'] }] };

const skip = mosquittoProblem();
let broker: BenchBroker | undefined;
const proxies = new Map<string, TcpProxy>();
const apps: ControllerApp[] = [];
let dashboard: RunningDashboard | undefined;
let browser: Browser | undefined;

async function startApp(spec: VenueControllerSpec, brokerPort: number): Promise<void> {
  const proxy = new TcpProxy(brokerPort);
  const port = await proxy.start();
  proxies.set(spec.id, proxy);
  const loaded = loadConfig({ file: writeControllerConfig(spec, `mqtt://127.0.0.1:${port}`) });
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
  const app = new ControllerApp({ config: loaded.config, say: () => undefined });
  apps.push(app);
  await app.start();
}

beforeAll(async () => {
  if (skip !== undefined) return;
  broker = await startVenueBroker([PI_A, PI_B]);
  const brokerPort = Number(new URL(broker.url).port);
  await Promise.all([startApp(PI_A, brokerPort), startApp(PI_B, brokerPort)]);
  dashboard = await startDashboard({
    host: '127.0.0.1', port: 0, token: VENUE_DASHBOARD_TOKEN, simulated: true,
    controllerTokens: { [PI_A.id]: PI_A.token, [PI_B.id]: PI_B.token },
    mqtt: { url: broker.url, username: DASHBOARD_USER.username, password: DASHBOARD_USER.password, baseTopic: VENUE_BASE },
  });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await dashboard?.close();
  for (const app of apps) await app.stop();
  for (const proxy of proxies.values()) await proxy.close();
  await broker?.dispose();
});

/** A card's controller, status class and game as the overview shows them. */
async function card(page: Page, table: string): Promise<{ controller: string; online: boolean; offline: boolean; game: string }> {
  const li = page.locator(`li.table-card[data-table="${table}"]`);
  const cls = await li.getAttribute('class') ?? '';
  return {
    controller: (await li.locator('[data-testid=controller]').textContent()) ?? '',
    online: cls.includes('state-online'), offline: cls.includes('state-offline'),
    game: (await li.locator('[data-testid=game]').textContent()) ?? '',
  };
}

describe.skipIf(skip !== undefined)('the venue dashboard in a browser', () => {
  it('lists both controllers\' tables, starts a game on the right one, and shows a Pi that drops off offline, then back', async () => {
    if (browser === undefined || dashboard === undefined) throw new Error('not started');
    const overview = await openPage(browser, `${dashboard.url}/#/`, DESKTOP);
    const { page } = overview;
    await waitFor(async () => (await page.locator('li.table-card').count()) === 2, 'two table cards');
    await waitFor(async () => (await card(page, 'bar-1')).online && (await card(page, 'bar-2')).online, 'both online');
    expect((await card(page, 'bar-1')).controller).toBe('pi-a');
    expect((await card(page, 'bar-2')).controller).toBe('pi-b');

    // The referee page of pi-b's table: the venue dashboard's token, relayed with pi-b's own.
    const referee = await openPage(browser, `${dashboard.url}/#/table/bar-2/referee`, DESKTOP);
    await referee.page.locator('.referee[data-seq]').waitFor({ timeout: 20_000 });
    await referee.page.locator('#token').fill(VENUE_DASHBOARD_TOKEN);
    await referee.page.getByRole('button', { name: 'Use token' }).click();
    await waitFor(async () => (await referee.page.locator('[data-testid=token-state]').getAttribute('data-status')) === 'valid', 'token valid');
    await waitFor(async () => (await referee.page.locator('#ng-game').inputValue()) === 'zip-zap', 'the form pre-filled');
    await referee.page.getByRole('button', { name: 'Start new game' }).click();
    await referee.page.locator('#confirm-ok').click();
    // Each table started its configured game at start-up; the NEW_GAME that follows the click is pi-b's answer.
    const newGames = async (table: string): Promise<number> => {
      const r = await fetch(`${dashboard?.url ?? ''}/api/tables/${table}/history?limit=200`);
      return ((await r.json()) as { events: { type: string }[] }).events.filter((e) => e.type === 'NEW_GAME').length;
    };
    await waitFor(async () => (await newGames('bar-2')) === 1, 'a new game on bar-2');
    expect(await newGames('bar-1')).toBe(0);
    expect((await card(page, 'bar-2')).game).toBe('Zip-Zap');
    const phase = await page.locator('li.table-card[data-table="bar-2"] [data-testid=phase]').textContent();

    // pi-b's network goes: every connection reset. Mosquitto publishes its last wills.
    const cutAt = Date.now();
    proxies.get('pi-b')?.cutAll();
    await waitFor(async () => (await card(page, 'bar-2')).offline, 'bar-2 offline', 10_000);
    const offlineAfterMs = Date.now() - cutAt;
    expect((await card(page, 'bar-1')).online).toBe(true);
    // Its stations' last reports are not news while it is away: unknown, not green.
    await waitFor(async () => (await page.locator('li.table-card[data-table="bar-2"] .dot.unknown').count()) > 0, 'bar-2 stations unknown');
    expect(await page.locator('li.table-card[data-table="bar-2"] .dot.up').count()).toBe(0);
    expect(await page.locator('li.table-card[data-table="bar-1"] .dot.up').count()).toBeGreaterThan(0);
    await screenshot(page, 'venue-overview-pi-b-offline');
    // The will is sent when the broker sees the reset, not after a keepalive (45 s): well within a few seconds.
    expect(offlineAfterMs).toBeLessThan(5000);

    // The controller reconnects by itself (2 s period): back online with the same game and phase.
    await waitFor(async () => (await card(page, 'bar-2')).online, 'bar-2 back online', 20_000);
    expect((await card(page, 'bar-2')).game).toBe('Zip-Zap');
    expect(await page.locator('li.table-card[data-table="bar-2"] [data-testid=phase]').textContent()).toBe(phase);
    expect(overview.errors).toEqual([]);
  });
});

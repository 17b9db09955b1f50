/**
 * One controller with a table of every kind, for the page-wide browser checks (accessibility, layouts,
 * the referee page's live updates): `ControllerApp` as `zaptable start` runs it (SQLite event log in a temporary
 * directory, embedded broker, the simulated stations read through the real serial driver, the dashboard
 * started by `dashboardFor`), bots off, with a Zapp Zerapp table `zz`, a Zip-Zap table `zip` and a buzzer
 * table `quiz`. The tests drive the physical world through the `simulate` request, as the simulator panel does.
 */
import { startOnFreshPorts } from './fresh-ports.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ControllerApp } from '../../../controller/app/controller-app.ts';
import { freeLoopbackPort } from '../../../controller/bench/mosquitto.ts';
import { dashboardFor } from '../../../controller/cli/commands/start.ts';
import type { ZaptableConfig } from '../../../controller/config/index.ts';
import { startBrokerObserver } from './broker-observer.ts';
import { harnessConfig } from './harness-config.ts';
import { waitFor } from './wait.ts';

export const PAGES_BASE = 'zt-pages';
export const PAGES_TOKEN = 'pages-referee-token-0123456789';
const CONTROLLER = { username: 'pages-controller', password: 'pages-controller-pass' };
const DASHBOARD = { username: 'pages-dashboard', password: 'pages-dashboard-pass' };

/** The tables and their seats (the simulated stations are named by the controller: seat-N, t2-seat-N, t3-seat-N). */
export const PAGE_TABLES = {
  zapp: { id: 'zz', players: ['ana', 'ben', 'cy'] },
  zip: { id: 'zip', players: ['kim', 'lou', 'max'] },
  buzzer: { id: 'quiz', players: ['Ana', 'Ben'] },
} as const;

/** A table's response as the dashboard relays it. */
export interface TableAnswer {
  readonly status?: string;
  readonly data?: unknown;
  readonly error?: { readonly code: string };
}

export interface PagesHarness {
  readonly dashboardUrl: string;
  readonly token: string;
  readonly app: ControllerApp;
  /** `POST /api/tables/<table>/requests/<name>` with the token; resolves to the table's response. */
  request(table: string, name: string, params: Record<string, unknown>): Promise<TableAnswer>;
  /** The table's public view as the dashboard has it (`GET /api/tables/<table>/state`). */
  view(table: string): Promise<Record<string, unknown> | undefined>;
  /**
   * Plays the Zapp Zerapp table to its first move: the roller's button, then the seats place the magic
   * number, 1 and 13 (as zapp-zerapp.test.ts: two succeed), the table reveals by itself and the first
   * mover's moves are on offer.
   */
  playZappToMoves(): Promise<void>;
  stop(): Promise<void>;
}

function configFor(dir: string, ports: { mqtt: number; http: number }): ZaptableConfig {
  return harnessConfig({
    tables: [
      {
        id: PAGE_TABLES.zapp.id, name: 'Zapp Zerapp table', mode: 'zapp-zerapp', seed: 5,
        seats: PAGE_TABLES.zapp.players.map((id) => ({ id })),
      },
      { id: PAGE_TABLES.zip.id, name: 'Zip-Zap table', mode: 'zip-zap', seed: 7, seats: PAGE_TABLES.zip.players.map((id) => ({ id })) },
      {
        id: PAGE_TABLES.buzzer.id, name: 'Quiz night', mode: 'buzzer',
        seats: PAGE_TABLES.buzzer.players.map((name, i) => ({ id: name.toLowerCase(), name, colour: i === 0 ? 'red' : 'blue' })),
        buzzer: { penaltyMs: 2000, lockout: 'until-reset', points: { correct: 1, wrong: 0 } },
      },
    ],
    dir, ports, pileStation: false,
    accounts: { baseTopic: PAGES_BASE, token: PAGES_TOKEN, controller: CONTROLLER, dashboard: DASHBOARD },
  });
}

export async function startPagesHarness(): Promise<PagesHarness> {
  const dir = mkdtempSync(path.join(tmpdir(), 'zaptable-pages-e2e-'));
  const { app: running, started } = await startOnFreshPorts(async () => {
    const lines: string[] = [];
    const config = configFor(dir, { mqtt: await freeLoopbackPort(), http: await freeLoopbackPort() });
    const app = new ControllerApp({ config, say: (line) => lines.push(line), dashboard: dashboardFor });
    return { lines, start: async () => ({ app, started: await app.start() }) };
  });
  const dashboardUrl = started.dashboardUrl;
  if (dashboardUrl === undefined) throw new Error('the dashboard did not start');
  const observer = await startBrokerObserver(started.brokerUrl, PAGES_BASE, CONTROLLER);
  await waitFor(() => observer.health.size >= 8 && [...observer.health.values()].every((h) => h.online), 'every station online', 30_000);
  await observer.client.endAsync();
  const request: PagesHarness['request'] = async (table, name, params) => {
    const response = await fetch(`${dashboardUrl}/api/tables/${table}/requests/${name}`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: PAGES_TOKEN, params }),
    });
    return await response.json() as TableAnswer;
  };
  const view: PagesHarness['view'] = async (table) => {
    const body = await (await fetch(`${dashboardUrl}/api/tables/${table}/state`)).json() as { state: { view?: Record<string, unknown> } | null };
    return body.state?.view;
  };
  const simulate = async (params: Record<string, unknown>): Promise<void> => {
    const r = await request(PAGE_TABLES.zapp.id, 'simulate', params);
    if (r.status !== 'ok') throw new Error(`simulate ${JSON.stringify(params)}: ${JSON.stringify(r)}`);
  };
  const playZappToMoves = async (): Promise<void> => {
    const players: readonly string[] = PAGE_TABLES.zapp.players;
    const station = (player: string): string => `seat-${players.indexOf(player) + 1}`;
    const roller = (await view(PAGE_TABLES.zapp.id))?.roller as string;
    await simulate({ station: station(roller), op: 'press' });
    const magic = await waitFor(async () => (await view(PAGE_TABLES.zapp.id))?.magic as number | null ?? undefined, 'the roll');
    const values = [magic, 1, 13];
    for (const [i, player] of players.entries()) await simulate({ station: station(player), op: 'place', item: { kind: 'barrel', value: values[i] } });
    await waitFor(async () => ((await view(PAGE_TABLES.zapp.id))?.moves as unknown[] | undefined ?? []).length > 0, 'the first mover\'s moves', 30_000);
  };
  return {
    dashboardUrl, token: PAGES_TOKEN, app: running, request, view, playZappToMoves,
    stop: async () => {
      await running.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

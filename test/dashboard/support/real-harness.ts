/**
 * The real pipeline for the dashboard's end-to-end tests: `ControllerApp` (the composition root of `zaptable
 * start`: SQLite event log in a temporary directory, embedded aedes broker, the simulated table read through
 * the real serial driver, the table runtimes, the request handlers) with the dashboard started exactly as
 * `zaptable start` starts it. Only the physical world is played by the test (the simulator panel's requests);
 * bots are off.
 *
 * Besides `dashboardUrl`, `token` and `stop`, it gives the tests the truth to compare pages with (the
 * omniscient view and the legal actions, computed from the controller's engine state) and an independent
 * request observer: an MQTT client logged in with the controller's account under its own client id, recording
 * every request message that reached the broker, so "a control without the token changes nothing" is proven
 * at the broker, not by trusting the dashboard.
 */
import { startBrokerObserver, type ObservedRequest } from './broker-observer.ts';

export type { ObservedRequest };
import { freeLoopbackPort } from '../../../controller/bench/mosquitto.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ControllerApp } from '../../../controller/app/controller-app.ts';
import { dashboardFor } from '../../../controller/cli/commands/start.ts';
import type { ZaptableConfig } from '../../../controller/config/index.ts';
import { OMNISCIENT } from '../../../controller/rules/common/viewer.ts';
import type { BaseAction, GameId } from '../../../controller/rules/engine.ts';
import { getEngine } from '../../../controller/rules/games.ts';
import { harnessConfig } from './harness-config.ts';
import { waitFor } from './wait.ts';

export const REAL_BASE = 'zt-e2e';
export const REAL_TOKEN = 'e2e-referee-token-0123456789';
const CONTROLLER = { username: 'e2e-controller', password: 'e2e-controller-pass' };
const DASHBOARD = { username: 'e2e-dashboard', password: 'e2e-dashboard-pass' };

export interface RealTableSpec {
  readonly id: string;
  readonly name?: string;
  readonly game: GameId;
  /** Seat ids in order; seat N reads the simulated station `seat-N`. */
  readonly players: readonly string[];
  readonly seed?: number | string;
  /** The engine's options (`tables.N.rules`). */
  readonly rules?: Readonly<Record<string, unknown>>;
  /** Configured seat names (`seats[].name`), by player id; without one a seat's name is its id. */
  readonly names?: Readonly<Record<string, string>>;
}

export interface TableTruth {
  readonly game: GameId;
  readonly gameId: string;
  /** The engine state (immutable: a new object after every change). */
  readonly state: unknown;
}

export interface RealHarness {
  readonly dashboardUrl: string;
  readonly brokerUrl: string;
  readonly token: string;
  /** The running controller (a new one after `restart`). */
  readonly app: ControllerApp;
  /** Every request message that reached the broker, in order (until a `restart`: the observer does not reconnect). */
  readonly requests: readonly ObservedRequest[];
  tableState(table: string): TableTruth;
  /** `getEngine(game).view(state, {role: 'omniscient'})`: what no page may show before its time. */
  omniscient(table: string): Record<string, unknown>;
  legalActions(table: string): BaseAction[];
  /**
   * Stops the controller and starts it again on the same configuration, ports and event log, as a restart of
   * `zaptable start` would (the game continues from the log, `seq` starts again under a new `epoch`).
   */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** A free loopback port (the benchmarks' helper). */
export const freePort = freeLoopbackPort;

function configFor(
  tables: readonly RealTableSpec[], dir: string, ports: { mqtt: number; http: number }, pileStation = false,
): ZaptableConfig {
  return harnessConfig({
    tables: tables.map((t) => ({
      id: t.id, name: t.name ?? t.id, mode: t.game,
      seats: t.players.map((id) => ({ id, ...(t.names?.[id] === undefined ? {} : { name: t.names[id] }) })),
      ...(t.seed === undefined ? {} : { seed: t.seed }), ...(t.rules === undefined ? {} : { rules: t.rules }),
    })),
    dir, ports, pileStation,
    accounts: { baseTopic: REAL_BASE, token: REAL_TOKEN, controller: CONTROLLER, dashboard: DASHBOARD },
  });
}

interface Started {
  readonly config: ZaptableConfig;
  readonly app: ControllerApp;
  readonly brokerUrl: string;
  readonly dashboardUrl: string;
}

async function startOnce(tables: readonly RealTableSpec[], dir: string, pileStation?: boolean): Promise<Started> {
  return startWith(configFor(tables, dir, { mqtt: await freePort(), http: await freePort() }, pileStation));
}

async function startWith(config: ZaptableConfig): Promise<Started> {
  const lines: string[] = [];
  const app = new ControllerApp({
    config,
    say: (line) => {
      lines.push(line);
    },
    dashboard: dashboardFor,
  });
  try {
    const started = await app.start();
    if (started.dashboardUrl === undefined) throw new Error('the dashboard did not start');
    return { config, app, brokerUrl: started.brokerUrl, dashboardUrl: started.dashboardUrl };
  } catch (error) {
    throw new Error(`controller did not start: ${(error as Error).message}\n${lines.join('\n')}`, { cause: error });
  }
}

export async function startRealHarness(options: {
  readonly tables: readonly RealTableSpec[];
  /** Simulate a pile station for the tables whose game reads one (default false: none). */
  readonly pileStation?: boolean;
}): Promise<RealHarness> {
  const dir = mkdtempSync(path.join(tmpdir(), 'zaptable-dashboard-e2e-'));
  let started: Started | undefined;
  // A free port can be taken between the probe and the bind by another test file: try again with new ones.
  for (let attempt = 1; started === undefined; attempt++) {
    try {
      started = await startOnce(options.tables, dir, options.pileStation);
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
  const { config, brokerUrl, dashboardUrl } = started;
  let app = started.app;
  const observer = await startBrokerObserver(brokerUrl, REAL_BASE, CONTROLLER);
  // The stations boot (bootloader, banner, handshake) before a press or a tag can be read.
  const stations = config.tables.flatMap((t) => t.seats.map((s) => s.station));
  await waitFor(() => stations.every((s) => observer.health.get(s)?.online === true), `stations ${stations.join(', ')} online`, 20_000);
  const truth = (table: string): TableTruth => {
    const t = app.tableState(table);
    if (t === undefined) throw new Error(`no game table ${table}`);
    return t;
  };
  return {
    dashboardUrl, brokerUrl, token: REAL_TOKEN, requests: observer.requests,
    get app() {
      return app;
    },
    tableState: truth,
    omniscient: (table) => {
      const { game, state } = truth(table);
      return getEngine(game).view(state, OMNISCIENT) as Record<string, unknown>;
    },
    legalActions: (table) => {
      const { game, state } = truth(table);
      return getEngine(game).legalActions(state);
    },
    restart: async () => {
      await observer.client.endAsync(true);
      await app.stop();
      app = (await startWith(config)).app;
    },
    stop: async () => {
      await observer.client.endAsync(true);
      await app.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

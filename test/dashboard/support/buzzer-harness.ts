/**
 * The real pipeline for the buzzer pages' browser test: `ControllerApp` (as `zaptable start` runs it: SQLite
 * event log in a temporary directory, embedded broker, the simulated stations read through the real serial
 * driver, the buzzer runtime, the request handlers) with the dashboard started by `dashboardFor`, one buzzer
 * table, bots off. The test plays the contestants through the `simulate` request (the simulator panel's path).
 *
 * An independent observer logs in with the controller's account under its own client id and records every
 * request message that reached the broker (so "refused without the token" is proven at the broker) and each
 * station's health (online, clock sync).
 */
import { startOnFreshPorts } from './fresh-ports.ts';
import { startBrokerObserver, type ObservedHealth, type ObservedRequest } from './broker-observer.ts';

export type { ObservedRequest };
import { freeLoopbackPort } from '../../../controller/bench/mosquitto.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ControllerApp } from '../../../controller/app/controller-app.ts';
import { dashboardFor } from '../../../controller/cli/commands/start.ts';
import type { ZaptableConfig } from '../../../controller/config/index.ts';
import { harnessConfig } from './harness-config.ts';
import { waitFor } from './wait.ts';

export const BUZZER_BASE = 'zt-buzz';
export const BUZZER_TOKEN = 'buzzer-host-token-0123456789';
export const BUZZER_TABLE = 'quiz';
const CONTROLLER = { username: 'buzz-controller', password: 'buzz-controller-pass' };
const DASHBOARD = { username: 'buzz-dashboard', password: 'buzz-dashboard-pass' };

export const CONTESTANTS = [
  { id: 'ana', name: 'Ana', colour: 'red', station: 'seat-1' },
  { id: 'ben', name: 'Ben', colour: 'blue', station: 'seat-2' },
  { id: 'cleo', name: 'Cleo', colour: 'green', station: 'seat-3' },
] as const;

export interface BuzzerHarness {
  readonly dashboardUrl: string;
  /** Every request message that reached the broker, in order. */
  readonly requests: readonly ObservedRequest[];
  /** `POST /api/tables/quiz/requests/simulate {station, op: 'press'}` with the token. */
  press(station: string): Promise<void>;
  stop(): Promise<void>;
}

const freePort = freeLoopbackPort;

function configFor(dir: string, ports: { mqtt: number; http: number }, penaltyMs: number): ZaptableConfig {
  return harnessConfig({
    tables: [{
      id: BUZZER_TABLE, name: 'Quiz night', mode: 'buzzer', seats: CONTESTANTS.map((c) => ({ ...c })),
      buzzer: { penaltyMs, lockout: 'until-reset', points: { correct: 1, wrong: 0 } },
    }],
    dir, ports,
    accounts: { baseTopic: BUZZER_BASE, token: BUZZER_TOKEN, controller: CONTROLLER, dashboard: DASHBOARD },
  });
}

/** Presses are ordered by mapped time only once a station's clock is synced (docs/timing.md). */
function synced(h: ObservedHealth | undefined): boolean {
  return h !== undefined && h.online && h.clock !== undefined && h.clock.uncertaintyUs !== null && h.clock.uncertaintyUs < 20_000;
}

export async function startBuzzerHarness(options: { readonly penaltyMs: number }): Promise<BuzzerHarness> {
  const dir = mkdtempSync(path.join(tmpdir(), 'zaptable-buzzer-e2e-'));
  const { app: running, started } = await startOnFreshPorts(async () => {
    const lines: string[] = [];
    const app = new ControllerApp({
      config: configFor(dir, { mqtt: await freePort(), http: await freePort() }, options.penaltyMs),
      say: (line) => {
        lines.push(line);
      },
      dashboard: dashboardFor,
    });
    return { lines, start: async () => ({ app, started: await app.start() }) };
  });
  const dashboardUrl = started.dashboardUrl;
  if (dashboardUrl === undefined) throw new Error('the dashboard did not start');
  const observer = await startBrokerObserver(started.brokerUrl, BUZZER_BASE, CONTROLLER);
  const stations = CONTESTANTS.map((c) => c.station);
  await waitFor(() => stations.every((s) => synced(observer.health.get(s))), `stations ${stations.join(', ')} online with a synced clock`, 20_000);
  return {
    dashboardUrl,
    requests: observer.requests,
    press: async (station) => {
      const response = await fetch(`${dashboardUrl}/api/tables/${BUZZER_TABLE}/requests/simulate`, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: BUZZER_TOKEN, params: { station, op: 'press' } }),
      });
      const body = await response.json() as { status?: string; error?: unknown };
      if (body.status !== 'ok') throw new Error(`simulate press ${station}: ${JSON.stringify(body)}`);
    },
    stop: async () => {
      await observer.client.endAsync();
      await running.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

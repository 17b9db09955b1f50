/**
 * Everything the dashboard needs, on one machine, for its tests: the embedded broker (real aedes, logins and
 * role ACLs) on a free port, the fake controller publishing real engine views, and the dashboard itself.
 *
 * `startHarness()` returns `{dashboardUrl, stop}` (plus handles for assertions). The route and live tests use
 * it (they need to script the controller's answers: delays, idle tables); the browser tests run the real
 * controller instead (real-harness.ts).
 */
import { EmbeddedBroker } from '../../../controller/transport/embedded-broker.ts';
import type { LiveStats } from '../../../dashboard/server/live.ts';
import { startDashboard, type RunningDashboard } from '../../../dashboard/server/server.ts';
import { FakeController, type FakeTableSpec } from './fake-controller.ts';

export const BASE = 'zt-test';
export const TOKEN = 'referee-token-0123456789';
export const USERS = {
  controller: { username: 'ctl', password: 'controller-pass', role: 'controller' as const },
  dashboard: { username: 'dash', password: 'dashboard-pass', role: 'referee' as const },
  viewer: { username: 'view', password: 'viewer-pass', role: 'viewer' as const },
};

export interface Harness {
  readonly dashboardUrl: string;
  readonly brokerUrl: string;
  readonly token: string;
  readonly broker: EmbeddedBroker;
  readonly controller: FakeController;
  readonly dashboard: RunningDashboard;
  /** `/live`'s counters (frames sent, writes…), live. */
  readonly live: LiveStats;
  stop(): Promise<void>;
}

export interface HarnessOptions {
  readonly tables: readonly FakeTableSpec[];
  readonly requestTimeoutMs?: number;
  readonly answerDelayMs?: number;
}

export async function startBroker(): Promise<EmbeddedBroker> {
  const broker = new EmbeddedBroker({ baseTopic: BASE, port: 0, users: Object.values(USERS) });
  await broker.start();
  return broker;
}

export async function startHarness(options: HarnessOptions): Promise<Harness> {
  const broker = await startBroker();
  const controller = new FakeController({
    url: broker.url, baseTopic: BASE, username: USERS.controller.username, password: USERS.controller.password, token: TOKEN,
    tables: options.tables, ...(options.answerDelayMs === undefined ? {} : { answerDelayMs: options.answerDelayMs }),
  });
  await controller.start();
  let live: LiveStats | undefined;
  const dashboard = await startDashboard({
    host: '127.0.0.1', port: 0, token: TOKEN, simulated: true,
    mqtt: { url: broker.url, username: USERS.dashboard.username, password: USERS.dashboard.password, baseTopic: BASE },
    ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
    liveStats: (stats) => {
      live = stats;
    },
  });
  if (live === undefined) throw new Error('the dashboard did not register /live');
  return {
    dashboardUrl: dashboard.url, brokerUrl: broker.url, token: TOKEN, broker, controller, dashboard, live,
    stop: async () => {
      await dashboard.close();
      await controller.stop();
      await broker.close();
    },
  };
}

/**
 * Starts the dashboard on its own Fastify server: what `zaptable start` and `zaptable dashboard` call.
 */
import Fastify, { type FastifyServerOptions } from 'fastify';
import { dashboardApp, type DashboardOptions } from './app.ts';
import { dashboardAddresses } from './lan-addresses.ts';

export interface StartDashboardOptions extends DashboardOptions {
  /** Default 0.0.0.0 (`dashboard.host`). */
  readonly host?: string;
  /** `dashboard.port`; 0 picks a free port (tests). */
  readonly port: number;
  /** Fastify's logger option (pino): false (default) for none, true or an object for JSON logs. */
  readonly logger?: FastifyServerOptions['logger'];
}

export interface RunningDashboard {
  /** Where browsers reach it, e.g. `http://127.0.0.1:8080` (a wildcard host is shown as 127.0.0.1). */
  readonly url: string;
  /** Where other devices on the network reach it (empty unless it listens on a wildcard host): lan-addresses.ts. */
  readonly lanUrls: readonly string[];
  readonly port: number;
  close(): Promise<void>;
}

/** Starts the dashboard and resolves once it listens. Rejects on a taken port or a refused broker login. */
export async function startDashboard(options: StartDashboardOptions): Promise<RunningDashboard> {
  const { host = '0.0.0.0', port, logger = false, ...appOptions } = options;
  const app = Fastify({ logger, trustProxy: false, bodyLimit: 64 * 1024, forceCloseConnections: true });
  await app.register(dashboardApp, appOptions);
  try {
    await app.listen({ host, port });
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = app.server.address();
  const bound = typeof address === 'object' && address !== null ? address.port : port;
  const addresses = dashboardAddresses(host, bound);
  return {
    url: addresses.local,
    lanUrls: addresses.lan,
    port: bound,
    close: async () => {
      await app.close();
    },
  };
}

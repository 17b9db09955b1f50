/**
 * The dashboard as a Fastify plugin (the fastify/demo shape): external plugins first (security headers,
 * WebSocket), then the app's services (the MQTT hub, the bundled browser code), then the routes. `server.ts`
 * starts it; tests register it on a bare Fastify and use `app.inject()`.
 */
import type { FastifyError, FastifyPluginAsync } from 'fastify';
import helmet from '@fastify/helmet';
import websocket from '@fastify/websocket';
import type { TransportLogger } from '../../controller/transport/logger.ts';
import type { MqttTlsOptions } from '../../controller/transport/mqtt-tls.ts';
import { loadAssets, type Assets } from './assets.ts';
import { DashboardError, errorBody } from './errors.ts';
import { TableHistory } from './history.ts';
import { registerLive, type LiveStats } from './live.ts';
import { MqttHub } from './mqtt-hub.ts';
import { configRoutes } from './routes/config.ts';
import { historyRoutes } from './routes/history.ts';
import { pageRoutes } from './routes/pages.ts';
import { recordRoutes } from './routes/records.ts';
import { requestRoutes } from './routes/requests.ts';
import { tableRoutes } from './routes/tables.ts';

export interface DashboardMqttOptions {
  readonly url: string;
  /** The dashboard's broker account (role `referee`). */
  readonly username: string;
  readonly password: string;
  /** TLS for an `mqtts://` or `wss://` broker (PEM text: the configured CA, client certificate and key). */
  readonly tls?: MqttTlsOptions;
  /** Default `zaptable`. */
  readonly baseTopic?: string;
  readonly clientId?: string;
}

export interface DashboardOptions {
  readonly mqtt: DashboardMqttOptions;
  /** The dashboard token (`dashboard.token`): controls need it; it is also the token sent with requests. */
  readonly token: string;
  /** A venue dashboard: the token to send to each controller's tables, by controller id (see `requestRoutes`). */
  readonly controllerTokens?: Readonly<Record<string, string>>;
  /** The tables run on the simulated hardware: the simulator panel is offered. Default false. */
  readonly simulated?: boolean;
  /** How long a control waits for the table's response, ms. Default 12000. */
  readonly requestTimeoutMs?: number;
  /** A hub made (and started and stopped) by the caller, e.g. shared by tests; otherwise one is made here. */
  readonly hub?: MqttHub;
  /** Prebuilt assets (tests build them once per file). */
  readonly assets?: Assets;
  /**
   * The controller's validated configuration with its secrets already masked (`maskSecrets`), for the
   * configuration page (`GET /api/config`, token only). Without it the page says it is not available.
   */
  readonly config?: unknown;
  /** Filled with the live counters once the plugin is registered (benchmark, tests). */
  readonly liveStats?: (stats: LiveStats) => void;
}

type LogMethod = (fields: object, message: string) => void;

/** Fastify's (pino's) logger in the transport layer's shape. */
function hubLogger(log: { debug: LogMethod; info: LogMethod; warn: LogMethod }): TransportLogger {
  return {
    debug: (message, fields) => {
      log.debug(fields ?? {}, message);
    },
    info: (message, fields) => {
      log.info(fields ?? {}, message);
    },
    warn: (message, fields) => {
      log.warn(fields ?? {}, message);
    },
  };
}

export const dashboardApp: FastifyPluginAsync<DashboardOptions> = async (app, options) => {
  if (options.token.length < 16) throw new Error('the dashboard token must have at least 16 characters');

  // External plugins.
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ['\'self\''],
        scriptSrc: ['\'self\''],
        // uPlot and the board animation set element styles from script; no inline <style> or style="" is needed.
        styleSrc: ['\'self\''],
        imgSrc: ['\'self\'', 'data:'],
        connectSrc: ['\'self\''],
        fontSrc: ['\'self\''],
        objectSrc: ['\'none\''],
        baseUri: ['\'self\''],
        formAction: ['\'self\''],
        frameAncestors: ['\'none\''],
        // Not upgrade-insecure-requests: the dashboard is usually served over plain HTTP on a LAN.
      },
    },
    // Served over plain HTTP on a LAN as often as not: HSTS would lock a phone out of http://pi.local:8080.
    strictTransportSecurity: false,
  });
  await app.register(websocket, { options: { maxPayload: 4096, perMessageDeflate: false } });

  // Services.
  const ownsHub = options.hub === undefined;
  const hub = options.hub ?? new MqttHub({
    url: options.mqtt.url, username: options.mqtt.username, password: options.mqtt.password,
    ...(options.mqtt.baseTopic === undefined ? {} : { baseTopic: options.mqtt.baseTopic }),
    ...(options.mqtt.clientId === undefined ? {} : { clientId: options.mqtt.clientId }),
    ...(options.mqtt.tls === undefined ? {} : { tls: options.mqtt.tls }),
    ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
    logger: hubLogger(app.log),
  });
  if (ownsHub) {
    await hub.start();
    app.addHook('onClose', async () => {
      await hub.stop();
    });
  }
  // Notices and station health over time, kept from now on (the notices and station pages).
  const history = new TableHistory(hub);
  const historySince = Date.now();
  app.addHook('onClose', async () => {
    history.stop();
    await Promise.resolve();
  });
  const assets = options.assets ?? await loadAssets({
    onBundle: (why) => {
      app.log.info({ code: why.code }, `dashboard: bundling the browser code at start-up (${why.message})`);
    },
  });
  app.log.debug({ ms: Math.round(assets.buildMs), source: assets.source }, 'dashboard assets ready');

  // One error shape for every route: the catalogue's.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof DashboardError) return reply.status(error.statusCode).send(errorBody(error.code, error.message));
    if (error.validation !== undefined || error.statusCode === 400 || error.code === 'FST_ERR_CTP_INVALID_MEDia_TYPE') {
      return reply.status(400).send(errorBody('BAD_REQUEST', error.message));
    }
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.status(400).send(errorBody('BAD_REQUEST', error.message));
    }
    request.log.error({ err: error }, 'dashboard route failed');
    return reply.status(500).send(errorBody('INTERNAL'));
  });
  app.setNotFoundHandler((request, reply) => reply.status(404).send(errorBody('NOT_FOUND', `no route ${request.method} ${request.url.slice(0, 200)}`)));

  // Routes.
  const stats = registerLive(app, { hub });
  options.liveStats?.(stats);
  await app.register(pageRoutes, { assets });
  await app.register(tableRoutes, { hub, simulated: options.simulated ?? false });
  await app.register(requestRoutes, {
    hub, token: options.token, ...(options.controllerTokens === undefined ? {} : { controllerTokens: options.controllerTokens }),
  });
  await app.register(historyRoutes, { hub, history, since: historySince });
  await app.register(configRoutes, { config: options.config, token: options.token });
  await app.register(recordRoutes, { hub, token: options.token });
};

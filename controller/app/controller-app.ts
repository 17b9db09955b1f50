/**
 * `zaptable start`: wires the layers together and reads top to bottom as the boot sequence (event log → broker →
 * hardware → transport → tables → bots → dashboard). The tables are assembled by `assembleTables()`
 * (table-set.ts) and the hardware by `stationHardwareOf()` (station-hardware.ts), the same two functions the
 * benchmarks and test harnesses build the controller with. The constructor only assigns.
 */
import { fillPacketLengthCache } from '../transport/mqtt-packet-cache.ts';
import type { TableConfig, ZaptableConfig } from '../config/index.ts';
import { brokerTlsOrThrow, type BrokerTls } from '../config/tls-files.ts';
import type { TableHardware } from '../hardware/interface.ts';
import type { GameId } from '../rules/engine.ts';
import { systemClock } from '../hardware/interface.ts';
import type { SimulatedTable } from '../hardware/simulated/index.ts';
import { EventLog, GameRecords } from '../persistence/index.ts';
import { loadCalibration } from '../runtime/calibration/calibration-file.ts';
import { loadRegistry } from '../runtime/registry/registry-file.ts';
import { realScheduler } from '../runtime/ports.ts';
import {
  ControllerTransport, EmbeddedBroker, rateLimited, type BridgeTableEntry, type BrokerUser, type ControllerTransportOptions,
  type MqttTlsOptions, type TransportLogger, type VenueNotice,
} from '../transport/index.ts';
import { registerBuzzerHandlers } from './buzzer-handlers.ts';
import { buzzerPublisherOf } from './buzzer-publisher.ts';
import { eventHistoryOf } from './event-history-adapter.ts';
import { runtimePublisherOf } from './publisher-adapter.ts';
import { registerRecordHandlers } from './record-handlers.ts';
import { registerRequestHandlers } from './request-handlers.ts';
import { SIMULATED_WEIGHTS, simulatedRegistry } from './simulated-items.ts';
import { startBots } from './simulated-bots.ts';
import { stationHardwareOf } from './station-hardware.ts';
import type { BuzzerHub } from '../hardware/buzzer-hub/index.ts';
import type { TableParts } from './table-assembly.ts';
import { assembleTables, type TableSet } from './table-set.ts';
import { terminalLogger } from './terminal-logger.ts';
import { transactionStoreOf } from './transaction-store.ts';
import { claimTables, venueNoticeText } from './venue-check.ts';

export interface DashboardHandle {
  readonly url: string;
  /** The URLs for other devices on the network (phones), when it listens on every interface. */
  readonly lanUrls?: readonly string[];
  close(): Promise<void>;
}

export interface DashboardStartOptions {
  readonly brokerUrl: string;
  readonly config: ZaptableConfig;
  readonly simulated: boolean;
  /** The external broker's TLS (PEM text), for the dashboard's own connection to it; none on the embedded broker. */
  readonly tls?: MqttTlsOptions;
}

export interface ControllerAppOptions {
  readonly config: ZaptableConfig;
  /** Where progress and problems are reported (the terminal). */
  readonly say: (line: string) => void;
  /** Starts the dashboard; absent when the dashboard is off. */
  readonly dashboard?: (options: DashboardStartOptions) => Promise<DashboardHandle>;
  /** The brokers' TLS files as `loadConfig` read them; default: read here from `config` (tls-files.ts). */
  readonly tls?: BrokerTls;
}

export interface StartedApp {
  readonly brokerUrl: string;
  readonly dashboardUrl?: string;
  /** The dashboard's URLs for phones on the same network (none when it listens on one host only). */
  readonly dashboardLanUrls?: readonly string[];
  readonly databaseFile: string;
  readonly tables: readonly string[];
}

export class ControllerApp {
  private log: EventLog | undefined;
  private broker: EmbeddedBroker | undefined;
  private hardware: TableHardware | undefined;
  private simulated: SimulatedTable | undefined;
  /** The buzzer hub, when configured (its host-delay figures go on bridge/health). */
  private hub: BuzzerHub | undefined;
  private transport: ControllerTransport | undefined;
  private tables: TableSet | undefined;
  private readonly bots: { stop(): void }[] = [];
  private dashboard: DashboardHandle | undefined;
  private rateLimitedLogger: TransportLogger | undefined;
  private healthTimer: NodeJS.Timeout | undefined;
  /** This start (ms since 1970), on every state and event: seq starts again after a restart, the epoch does not repeat. */
  private readonly epoch = Date.now();

  constructor(private readonly options: ControllerAppOptions) {}

  /** Starts everything; throws with a clear message when something cannot start (nothing is left running). */
  async start(): Promise<StartedApp> {
    // Before the first MQTT packet: mqtt-packet's length cache would otherwise pin memory for good.
    fillPacketLengthCache();
    try {
      return await this.boot();
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  private async boot(): Promise<StartedApp> {
    const { say } = this.options;
    let { config } = this.options;
    const simulatedKind = config.hardware.kind === 'simulated';
    // 0. The brokers' TLS files, read once for every connection to them (a file that cannot be read stops here).
    const tls = this.options.tls ?? brokerTlsOrThrow(config);

    // 1. The event log: nothing is published before it is written here.
    const databaseFile = config.storage.database;
    const opened = EventLog.open(databaseFile);
    if (!opened.ok) throw new Error(`event log ${databaseFile}: ${opened.code}: ${opened.message}${recoveryHint(opened.code, databaseFile)}`);
    const log = opened.log;
    this.log = log;

    // 2. The broker: embedded by default, or the configured external one. On an external broker other
    //    controllers may share it (a venue): a table whose id another one runs is not started (venue-check.ts).
    const brokerUrl = await this.startBroker(config);
    const venue = config.mqtt.broker === 'external' ? await claimTables(config, brokerUrl, tls.external, say) : undefined;
    if (venue !== undefined) config = venue.config;
    const tables = config.tables;

    // 3. The hardware: the simulated table (the real serial driver reading simulated stations) or serial stations.
    const { hardware, simulated, hub } = stationHardwareOf(config, { logger: terminalLogger(say) });
    this.hardware = hardware;
    this.simulated = simulated;
    this.hub = hub;
    hub?.onHostDelayWarning((w) => {
      terminalLogger(say).warn(`buzzer hub: ${w.edges} edge(s) could have waited up to ${w.worstMs} ms in this host, above `
        + `hardware.buzzerHub.hostDelayMs = ${w.allowanceMs} ms: their stated intervals may not hold the press (docs/buzzer-hub.md)`);
    });

    // 4. MQTT: one channel per table; requests need the dashboard's token.
    const transport = new ControllerTransport({
      logger: this.transportLogger(),
      url: brokerUrl, username: config.mqtt.controller.username, password: config.mqtt.controller.password ?? '',
      baseTopic: config.mqtt.baseTopic, controllerId: config.controller.id,
      tables: tables.map((t) => t.id), describe: describeTables(tables, simulatedKind),
      ...(venue === undefined ? {} : {
        venue: {
          refused: venue.refused,
          onNotice: (n: VenueNotice) => {
            say(venueNoticeText(config.controller.id, n));
          },
        },
      }),
      tokens: config.dashboard.token === undefined ? [] : [{ id: 'dashboard', token: config.dashboard.token, role: 'referee' }],
      ...(tls.external === undefined ? {} : { tls: tls.external }),
      transactionStore: transactionStoreOf(log), history: eventHistoryOf(log), ...venueLinkOf(config, tls.venue),
      ...requestLimitsOf(config), epoch: this.epoch,
    });
    this.transport = transport;
    const onError = (e: unknown): void => {
      say(`mqtt: ${String(e)}`);
    };
    const io = { transport, nowMs: () => Date.now(), onError, epoch: this.epoch };
    const publisher = runtimePublisherOf(io);
    const buzzerPublisher = buzzerPublisherOf(io);

    // 5. The tables (game and buzzer), assembled as every benchmark and test harness assembles them.
    const set = assembleTables({
      tables, hardware, log, clock: systemClock, scheduler: realScheduler, publisher, buzzerPublisher, say,
      parts: simulatedKind ? { registry: simulatedRegistry(), weights: SIMULATED_WEIGHTS } : this.loadParts(config),
      publishHealth: (tableId, health) => void transport.table(tableId).publishHealth(health).catch(() => undefined),
      ...(hub !== undefined && config.hardware.buzzerHub?.piezo !== undefined
        ? { sound: { beep: (hz: number, ms: number) => void hub.beep(hz, ms) } } : {}),
    });
    this.tables = set;
    registerRequestHandlers({
      transport, hosts: set.hosts, lastSeq: (t) => publisher.lastSeq(t), buzzerStations: set.buzzerStations(),
      botsPlay: config.hardware.simulated.bots, ...(simulated ? { simulated } : {}),
    });
    registerRecordHandlers({ transport, tables: new Set(set.hosts.keys()), log, records: new GameRecords(log) });
    const buzzerRuntimes = new Map([...set.buzzers].map(([id, b]) => [id, b.runtime]));
    registerBuzzerHandlers({ transport, buzzers: buzzerRuntimes, lastSeq: (t) => buzzerPublisher.lastSeq(t) });
    await transport.start();
    this.startBridgeHealth(transport);

    // 6. Every table continues its game from the log; sensor events and health flow to the tables.
    await set.start();

    // 7. Bots on simulated seats.
    if (simulated) this.bots.push(...startBots(config, simulated, set));

    // 8. The dashboard.
    if (config.dashboard.enabled && this.options.dashboard) {
      this.dashboard = await this.options.dashboard({
        brokerUrl, config, simulated: simulatedKind, ...(tls.external === undefined ? {} : { tls: tls.external }),
      });
    }
    return {
      brokerUrl, databaseFile, tables: tables.map((t) => t.id),
      ...(this.dashboard ? { dashboardUrl: this.dashboard.url, dashboardLanUrls: this.dashboard.lanUrls ?? [] } : {}),
    };
  }

  private async startBroker(config: ZaptableConfig): Promise<string> {
    if (config.mqtt.broker === 'external') {
      if (config.mqtt.external.url === undefined) throw new Error('mqtt.external.url is required for an external broker');
      return config.mqtt.external.url;
    }
    const users: BrokerUser[] = [
      { username: config.mqtt.controller.username, password: config.mqtt.controller.password ?? '', role: 'controller' },
      // The dashboard's account exists only when the dashboard runs (its password is generated only then).
      ...(config.dashboard.mqtt.password === undefined
        ? [] : [{ username: config.dashboard.mqtt.username, password: config.dashboard.mqtt.password, role: 'referee' as const }]),
      ...(config.mqtt.viewer.password === undefined
        ? [] : [{ username: config.mqtt.viewer.username, password: config.mqtt.viewer.password, role: 'viewer' as const }]),
      ...config.mqtt.clients.map((c) => ({ username: c.username, password: c.password, role: c.role })),
    ];
    const { port: wanted, host, websocketPort } = config.mqtt.embedded;
    this.broker = new EmbeddedBroker({
      baseTopic: config.mqtt.baseTopic, users, port: wanted, host, logger: this.transportLogger(),
      refereePace: refereePaceOf(config),
      ...(websocketPort === null ? {} : { websocketPort }),
    });
    const port = await this.broker.start();
    return `mqtt://${config.mqtt.embedded.host === '0.0.0.0' ? '127.0.0.1' : config.mqtt.embedded.host}:${port}`;
  }

  /**
   * The transport's and the embedded broker's log lines on the terminal, rate-limited: refused logins,
   * publishes, subscriptions and requests are what an attacker can produce at will.
   */
  private transportLogger(): TransportLogger {
    this.rateLimitedLogger ??= rateLimited(terminalLogger(this.options.say));
    return this.rateLimitedLogger;
  }

  /**
   * `<base>/bridge/<controller>/health`: the refusal counters and, with a buzzer hub, its measured host delay; published
   * when they changed, at most once a second.
   */
  private startBridgeHealth(transport: ControllerTransport): void {
    let last = '';
    const publish = (): void => {
      const broker = this.broker?.stats() ?? null;
      const { received, ok, replayed, errors, queue } = transport.stats().requests;
      const hostDelay = this.hub?.hostDelay();
      const hub = hostDelay === undefined ? {} : { hub: { hostDelay } };
      const notices = transport.notices();
      const venue = notices.length === 0 ? {} : { venue: { notices } };
      const counts = { broker, requests: { received, ok, replayed, errors, queuePeak: queue.peak }, ...hub, ...venue };
      const text = JSON.stringify(counts);
      if (text === last) return;
      last = text;
      transport.publishBridgeHealth({ at: Date.now(), epoch: this.epoch, ...counts }).catch(() => undefined);
    };
    publish();
    this.healthTimer = setInterval(publish, 1000);
    this.healthTimer.unref();
  }

  private loadParts(config: ZaptableConfig): TableParts {
    const registry = loadRegistry(config.storage.registry);
    if (!registry.ok) throw new Error(`tag registry: ${registry.code}: ${registry.errors.join('; ')}`);
    if (registry.created) this.options.say(`no tags enrolled yet (${config.storage.registry}): run zaptable enroll`);
    const calibration = loadCalibration(config.storage.calibration);
    if (!calibration.ok) throw new Error(`calibration: ${calibration.code}: ${calibration.errors.join('; ')}`);
    const weights = calibration.calibration.barrels?.weights;
    return { registry: registry.registry, ...(weights ? { weights } : {}) };
  }

  /**
   * A game table's running game, read-only: the game, the event log's game id and the engine state (the
   * omniscient truth, for tests and tools in this process; never published). Undefined for other tables.
   */
  tableState(tableId: string): { readonly game: GameId; readonly gameId: string; readonly state: unknown } | undefined {
    return this.tables?.tableState(tableId);
  }

  /**
   * The simulated table's physical world when the hardware is simulated (for tests and tools in this process:
   * two cards tapped in the same instant, which the simulator panel's requests one by one cannot do).
   */
  simulatedTable(): SimulatedTable | undefined {
    return this.simulated;
  }

  /** Stops everything in reverse order; safe to call twice and after a failed start. */
  async stop(): Promise<void> {
    clearInterval(this.healthTimer);
    this.healthTimer = undefined;
    for (const bot of this.bots.splice(0)) bot.stop();
    await this.dashboard?.close();
    this.dashboard = undefined;
    this.tables?.stopRuntimes();
    await this.hardware?.stop();
    this.simulated?.stop();
    // Once more after the hardware: a sensor line delivered while it stopped may have armed a game timer (a
    // Zip-Zap announcement, a Killer window's deadline) that would otherwise fire into the closed log.
    this.tables?.stopRuntimes();
    await this.transport?.stop();
    await this.broker?.close();
    this.log?.close();
    this.hardware = undefined;
    this.tables = undefined;
    this.simulated = undefined;
    this.transport = undefined;
    this.broker = undefined;
    this.log = undefined;
  }
}

/** How to get going again after the log could not be opened (docs/persistence.md, "A damaged log"). */
function recoveryHint(code: string, file: string): string {
  if (code !== 'LOG_CORRUPT') return '';
  return `\n  to recover: \`zaptable log export --db ${file}\` saves every readable row as JSON; `
    + `\`zaptable log repair --db ${file}\` copies the readable rows into a new log and keeps the damaged file beside it`;
}

/** What `bridge/tables` tells dashboards about each table: its name, game, seats and stations. */
function describeTables(tables: readonly TableConfig[], simulated: boolean): Record<string, Omit<BridgeTableEntry, 'id'>> {
  return Object.fromEntries(tables.map((t) => [t.id, {
    name: t.name, mode: t.mode, simulated,
    seats: t.seats.map((s) => ({
      id: s.id, name: s.name, station: s.station, bot: s.bot, ...(s.colour === undefined ? {} : { colour: s.colour }),
    })),
    ...(t.pileStation === undefined ? {} : { pileStation: t.pileStation }),
    ...(t.mode === 'buzzer' ? {} : { rules: t.rules }),
  }]));
}

/** The venue broker the controller links to besides its own (`mqtt.venue`; docs/venue-offline.md), if any. */
function venueLinkOf(config: ZaptableConfig, tls: MqttTlsOptions | undefined): Pick<ControllerTransportOptions, 'venueLink'> {
  const venue = config.mqtt.venue;
  if (venue.url === undefined) return {};
  return {
    venueLink: { url: venue.url, username: venue.username, password: venue.password ?? '', ...(tls === undefined ? {} : { tls }) },
  };
}

/** The request limits of `mqtt.requests` (docs/mqtt.md, "Limits"). */
function requestLimitsOf(config: ZaptableConfig): Pick<ControllerTransportOptions, 'rateLimit' | 'requestQueue'> {
  const r = config.mqtt.requests;
  return {
    rateLimit: { ratePerS: r.ratePerSecond, burst: r.burst },
    requestQueue: { perClient: r.queuePerClient, total: Math.max(r.queueTotal, r.queuePerClient) },
  };
}

/** The embedded broker's brake on a referee's connection (`mqtt.requests.brokerPacePerSecond`; 0: none). */
function refereePaceOf(config: ZaptableConfig): { readonly ratePerS: number; readonly burst: number } | null {
  const rate = config.mqtt.requests.brokerPacePerSecond;
  return rate === 0 ? null : { ratePerS: rate, burst: Math.max(1, Math.round(rate * 2)) };
}

/**
 * The composition root: wires the layers together and reads top to bottom as the boot sequence
 * (event log → broker → hardware → transport → tables → bots → dashboard). The constructor only assigns.
 */
import type { TableConfig, ZaptableConfig } from '../config/index.ts';
import type { SensorEvent, StationHealth, TableHardware } from '../hardware/interface.ts';
import type { GameId } from '../rules/engine.ts';
import { systemClock } from '../hardware/interface.ts';
import { createSimulatedHardware, type SimulatedTable } from '../hardware/simulated/index.ts';
import { BuzzerHub } from '../hardware/buzzer-hub/index.ts';
import { SerialStations, type HardwareLogger, type LogFields } from '../hardware/serial/index.ts';
import { EventLog, recoverTables } from '../persistence/index.ts';
import { loadCalibration } from '../runtime/calibration/calibration-file.ts';
import { loadRegistry } from '../runtime/registry/registry-file.ts';
import { realScheduler } from '../runtime/ports.ts';
import {
  ControllerTransport, EmbeddedBroker, rateLimited, type BridgeTableEntry, type BrokerUser, type ControllerTransportOptions,
  type TransportLogger,
} from '../transport/index.ts';
import { BuzzerRuntime } from '../runtime/buzzer/buzzer-runtime.ts';
import { BotDriver } from './bots/bot-driver.ts';
import { BuzzerBots } from './bots/buzzer-bots.ts';
import { buzzerSetupOf, buzzerStationsOf } from './buzzer-assembly.ts';
import { registerBuzzerHandlers } from './buzzer-handlers.ts';
import { buzzerLogOf, loggedSessions } from './buzzer-log.ts';
import { buzzerPublisherOf } from './buzzer-publisher.ts';
import { CombinedHardware } from './combined-hardware.ts';
import { runtimeLogOf } from './log-adapter.ts';
import { runtimePublisherOf } from './publisher-adapter.ts';
import { registerRequestHandlers } from './request-handlers.ts';
import { SIMULATED_WEIGHTS, simulatedRegistry } from './simulated-items.ts';
import { stationsOf, type TableParts } from './table-assembly.ts';
import { PadReadings } from './pad-readings.ts';
import { TableHost } from './table-host.ts';
import { transactionStoreOf } from './transaction-store.ts';

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
}

export interface ControllerAppOptions {
  readonly config: ZaptableConfig;
  /** Where progress and problems are reported (the terminal). */
  readonly say: (line: string) => void;
  /** Starts the dashboard; absent when the dashboard is off. */
  readonly dashboard?: (options: DashboardStartOptions) => Promise<DashboardHandle>;
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
  private transport: ControllerTransport | undefined;
  private readonly hosts = new Map<string, TableHost>();
  /** Tables in buzzer mode (no rules engine: their own runtime, docs/buzzer.md). */
  private readonly buzzers = new Map<string, { readonly config: TableConfig; readonly runtime: BuzzerRuntime }>();
  /** Station id → the table that owns it, built once the tables exist (their stations are fixed by the config). */
  private readonly tableOfStation = new Map<string, string>();
  private hub: BuzzerHub | undefined;
  private readonly bots: { stop(): void }[] = [];
  private dashboard: DashboardHandle | undefined;
  private pads: PadReadings | undefined;
  private readonly lastHealth = new Map<string, StationHealth>();
  private rateLimitedLogger: TransportLogger | undefined;
  private healthTimer: NodeJS.Timeout | undefined;
  /** This start (ms since 1970), on every state and event: seq starts again after a restart, the epoch does not repeat. */
  private readonly epoch = Date.now();

  constructor(private readonly options: ControllerAppOptions) {}

  /** Starts everything; throws with a clear message when something cannot start (nothing is left running). */
  async start(): Promise<StartedApp> {
    try {
      return await this.boot();
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  private async boot(): Promise<StartedApp> {
    const { config, say } = this.options;
    const tables = config.tables;
    const simulatedKind = config.hardware.kind === 'simulated';

    // 1. The event log: nothing is published before it is written here.
    const databaseFile = config.storage.database;
    const opened = EventLog.open(databaseFile);
    if (!opened.ok) throw new Error(`event log ${databaseFile}: ${opened.code}: ${opened.message}${recoveryHint(opened.code, databaseFile)}`);
    const log = opened.log;
    this.log = log;

    // 2. The broker: embedded by default, or the configured external one.
    const brokerUrl = await this.startBroker(config);

    // 3. The hardware: the simulated table (the real serial driver reading simulated stations) or serial stations.
    const hardware = this.startHardware(config, tables);
    this.hardware = hardware;

    // 4. MQTT: one channel per table; requests need the dashboard's token.
    const transport = new ControllerTransport({
      logger: this.transportLogger(),
      url: brokerUrl, username: config.mqtt.controller.username, password: config.mqtt.controller.password ?? '',
      baseTopic: config.mqtt.baseTopic, tables: tables.map((t) => t.id), describe: describeTables(tables, simulatedKind),
      tokens: config.dashboard.token === undefined ? [] : [{ id: 'dashboard', token: config.dashboard.token, role: 'referee' }],
      ...(config.mqtt.broker === 'external' ? { tls: { rejectUnauthorized: config.mqtt.external.tls.rejectUnauthorized } } : {}),
      transactionStore: transactionStoreOf(log),
      ...requestLimitsOf(config), epoch: this.epoch,
    });
    this.transport = transport;
    const onError = (e: unknown): void => {
      say(`mqtt: ${String(e)}`);
    };
    const publisher = runtimePublisherOf({ transport, nowMs: () => Date.now(), onError, epoch: this.epoch });

    // 5. The tables, each continuing its unfinished game from the log.
    const parts = simulatedKind ? { registry: simulatedRegistry(), weights: SIMULATED_WEIGHTS } : this.loadParts(config);
    const deps = {
      log: runtimeLogOf(log), publisher, clock: systemClock, scheduler: realScheduler,
      lamps: { setLamp: (station: string, pattern: Parameters<TableHardware['setLamp']>[1]) => void hardware.setLamp(station, pattern) },
    };
    this.pads = new PadReadings(parts.registry);
    for (const table of tables) if (table.mode !== 'buzzer') this.hosts.set(table.id, new TableHost(table, parts, deps));
    const buzzerPublisher = this.buildBuzzers(config, tables, { transport, onError, log });
    const simulated = this.simulated ? { simulated: this.simulated } : {};
    const buzzerStations = new Map([...this.buzzers].map(([id, b]) => [id, buzzerStationsOf(b.config)]));
    for (const [id, stations] of buzzerStations) for (const station of stations) this.tableOfStation.set(station, id);
    for (const [id, host] of this.hosts) for (const station of stationsOf(host.config)) this.tableOfStation.set(station, id);
    registerRequestHandlers({
      transport, hosts: this.hosts, lastSeq: (t) => publisher.lastSeq(t), buzzerStations,
      botsPlay: config.hardware.simulated.bots, ...simulated,
    });
    const buzzerRuntimes = new Map([...this.buzzers].map(([id, b]) => [id, b.runtime]));
    registerBuzzerHandlers({ transport, buzzers: buzzerRuntimes, lastSeq: (t) => buzzerPublisher.lastSeq(t) });
    await transport.start();
    this.startBridgeHealth(transport);
    this.recover(log);

    // 6. Sensor events and station health flow to the tables that own the stations.
    hardware.onEvent((event) => {
      this.routeEvent(event);
    });
    hardware.onHealth((health) => {
      this.publishHealth(health);
    });
    await hardware.start();

    // 7. Bots on simulated seats.
    if (simulatedKind && this.simulated) this.startBots(config, this.simulated);

    // 8. The dashboard.
    if (config.dashboard.enabled && this.options.dashboard) {
      this.dashboard = await this.options.dashboard({ brokerUrl, config, simulated: simulatedKind });
    }
    return {
      brokerUrl, databaseFile, tables: tables.map((t) => t.id),
      ...(this.dashboard ? { dashboardUrl: this.dashboard.url, dashboardLanUrls: this.dashboard.lanUrls ?? [] } : {}),
    };
  }

  /** The buzzer tables' runtimes; returns their publisher (for the request answers' `seq`). */
  private buildBuzzers(
    config: ZaptableConfig, tables: readonly TableConfig[],
    io: { readonly transport: ControllerTransport; readonly onError: (e: unknown) => void; readonly log: EventLog },
  ): ReturnType<typeof buzzerPublisherOf> {
    const publisher = buzzerPublisherOf({
      transport: io.transport, nowMs: () => Date.now(), onError: io.onError, epoch: this.epoch,
    });
    const hardware = this.hardware;
    const hub = this.hub;
    const sound = hub !== undefined && config.hardware.buzzerHub?.piezo !== undefined
      ? { sound: { beep: (hz: number, ms: number) => void hub.beep(hz, ms) } } : {};
    for (const table of tables) {
      if (table.mode !== 'buzzer') continue;
      const runtime = new BuzzerRuntime({
        tableId: table.id, setup: buzzerSetupOf(table), sound: table.buzzer.sound,
        ...(table.buzzer.hostStation === undefined ? {} : { hostStation: table.buzzer.hostStation }),
      }, {
        log: buzzerLogOf(io.log), publisher, clock: systemClock, scheduler: realScheduler, ...sound,
        lamps: { setLamp: (station, pattern) => void hardware?.setLamp(station, pattern) },
      });
      this.buzzers.set(table.id, { config: table, runtime });
    }
    return publisher;
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
    this.rateLimitedLogger ??= rateLimited(this.hardwareLogger());
    return this.rateLimitedLogger;
  }

  /** `<base>/bridge/health`: the refusal counters, published when they changed, at most once a second. */
  private startBridgeHealth(transport: ControllerTransport): void {
    let last = '';
    const publish = (): void => {
      const broker = this.broker?.stats() ?? null;
      const { received, ok, replayed, errors, queue } = transport.stats().requests;
      const counts = { broker, requests: { received, ok, replayed, errors, queuePeak: queue.peak } };
      const text = JSON.stringify(counts);
      if (text === last) return;
      last = text;
      transport.publishBridgeHealth({ at: Date.now(), epoch: this.epoch, ...counts }).catch(() => undefined);
    };
    publish();
    this.healthTimer = setInterval(publish, 1000);
    this.healthTimer.unref();
  }

  /** The hardware layer's log lines as one compact line each on the terminal. */
  private hardwareLogger(): HardwareLogger {
    const line = (level: string, message: string, fields?: LogFields): void => {
      const detail = Object.entries(fields ?? {}).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${String(v)}`).join(' ');
      this.options.say(`${level}${message}${detail ? ` (${detail})` : ''}`);
    };
    return {
      debug: () => undefined,
      info: (m, f) => {
        line('', m, f);
      },
      warn: (m, f) => {
        line('warning: ', m, f);
      },
    };
  }

  private startHardware(config: ZaptableConfig, tables: readonly TableConfig[]): TableHardware {
    const hubConfig = config.hardware.buzzerHub;
    const stations = this.startStations(config, tables);
    if (hubConfig === undefined) return stations;
    // Buzzer hub buttons come from the hub; everything else from the seat stations (serial or simulated).
    const hub = new BuzzerHub({
      io: hubConfig.port, buttons: hubConfig.buttons, debounceMs: hubConfig.debounceMs,
      latency: { eventLoopUs: hubConfig.hostDelayMs * 1000 },
      ...(hubConfig.piezo === undefined ? {} : { piezoPin: hubConfig.piezo }),
    });
    this.hub = hub;
    const hubIds = hubConfig.buttons.map((b) => b.id);
    return new CombinedHardware([stations, hub], (part) => (part === hub ? hubIds : stations.health().map((h) => h.station)));
  }

  private startStations(config: ZaptableConfig, tables: readonly TableConfig[]): TableHardware {
    const hubIds = new Set((config.hardware.buzzerHub?.buttons ?? []).map((b) => b.id));
    if (config.hardware.kind === 'simulated') {
      const slaps = config.hardware.simulated.slapSensors;
      const stations = tables.flatMap((t) => [
        ...t.seats.map((s) => ({ id: s.station, kind: 'seat' as const, slapSensor: slaps === 'all' })),
        ...(t.pileStation === undefined ? [] : [{ id: t.pileStation, kind: 'pile' as const, slapSensor: slaps !== 'none' }]),
        ...(t.mode === 'buzzer' && t.buzzer.hostStation !== undefined ? [{ id: t.buzzer.hostStation, kind: 'seat' as const }] : []),
      ]).filter((s) => !hubIds.has(s.id));
      // The simulated stations run through the real serial driver, with the same sensor intervals.
      const sim = createSimulatedHardware({
        stations, stationDefaults: { bootloaderMs: 300 },
        driver: {
          logger: this.hardwareLogger(),
          sensorTiming: config.hardware.serial.intervals,
          slapMatching: config.hardware.serial.slapMatching,
        },
      });
      this.simulated = sim.table;
      return sim.hardware;
    }
    const serial = config.hardware.serial;
    return new SerialStations({
      ...(serial.ports === 'auto' ? { discovery: { vendorIds: serial.vendorIds } } : { ports: serial.ports }),
      baudRate: serial.baudRate,
      timing: { bannerTimeoutMs: serial.bannerTimeoutMs, commandTimeoutMs: serial.commandTimeoutMs },
      ping: { intervalMs: serial.pingIntervalMs },
      sensorTiming: serial.intervals,
      slapMatching: serial.slapMatching,
      logger: this.hardwareLogger(),
    });
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
   * Every table continues its unfinished game when it can. One table's log state never stops the others or the
   * start: a game that cannot be rebuilt (REPLAY_REJECTED, BAD_SETUP, LOG_CORRUPT) or no longer fits the table
   * (another game, seats gone) is ended in the log as abandoned, with the reason, and the table starts anew;
   * the abandoned game stays in the log (`zaptable history`, `zaptable replay --db`).
   */
  private recover(log: EventLog): void {
    const recovered = new Map<string, ReturnType<typeof recoverTables>[number]>();
    for (const r of recoverTables(log)) recovered.set(r.tableId, r);
    for (const [id, host] of this.hosts) {
      const r = recovered.get(id);
      const record = r?.ok ? log.reader.game(r.gameId) : undefined;
      const why = r === undefined ? undefined
        : !r.ok ? `${r.code}: ${r.message}`
            : record === undefined ? 'its record is missing' : host.misfit(record);
      if (r?.ok && record && why === undefined) {
        this.options.say(`table ${id}: continuing game ${r.gameId} after ${r.actionCount} actions`);
        host.start({ gameId: String(r.gameId), game: record.game, config: record.config, seed: record.seed, state: r.state });
        continue;
      }
      if (r !== undefined && why !== undefined) {
        this.options.say(`table ${id}: game ${r.gameId} cannot continue (${why}); it is kept in the log as abandoned and a new game starts`);
        try {
          log.endGame(r.gameId, { over: false, winners: [], scores: {}, rounds: 0, abandoned: true, reason: why } as Parameters<EventLog['endGame']>[1]);
          log.commit();
        } catch (error) {
          this.options.say(`table ${id}: stays idle: ${(error as Error).message} (see zaptable log repair)`);
          continue;
        }
      }
      host.start();
    }
    for (const [id, { runtime }] of this.buzzers) {
      // A session continues when the set-up is unchanged (same contestants, teams and options); else a new one starts.
      const last = loggedSessions(log, id).at(-1);
      if (last !== undefined && JSON.stringify(last.setup) === JSON.stringify(runtime.options.setup)) {
        this.options.say(`table ${id}: continuing buzzer session after ${last.actions.length} actions`);
        runtime.start(last.actions);
      } else {
        runtime.start();
      }
    }
  }

  private routeEvent(event: SensorEvent): void {
    const tableId = this.tableOfStation.get(event.station);
    const buzzer = tableId === undefined ? undefined : this.buzzers.get(tableId);
    if (buzzer) {
      buzzer.runtime.handleSensor(event);
      return;
    }
    const padChanged = this.pads?.update(event) ?? false;
    const host = tableId === undefined ? undefined : this.hosts.get(tableId);
    if (host) {
      host.runtime.handleSensor(event);
      const health = this.lastHealth.get(event.station);
      if (padChanged && health) this.publishHealth(health);
      return;
    }
    // A station no table uses: still logged, so nothing the sensors saw is lost.
    const first = [...this.hosts.keys(), ...this.buzzers.keys()][0];
    if (first !== undefined && this.log) this.log.appendSensor(first, null, event);
  }

  private publishHealth(health: StationHealth): void {
    const wasOnline = this.lastHealth.get(health.station)?.online === true;
    this.lastHealth.set(health.station, health);
    if (wasOnline && !health.online) this.forgetPad(health.station);
    const tableId = this.tableOfStation.get(health.station);
    if (tableId === undefined) return;
    const host = this.hosts.get(tableId);
    if (!host) {
      this.transport?.table(tableId).publishHealth(health).catch(() => undefined);
      return;
    }
    const isSeat = host.config.seats.some((s) => s.station === health.station);
    const pad = this.pads?.reading(health.station, host.runtime.options.game, host.runtime.engineState(), isSeat);
    this.transport?.table(tableId).publishHealth(pad ? { ...health, pad } : health).catch(() => undefined);
  }

  /** A station went offline: its pad is unknown until it reports again (item: a stale tag kept a table stuck). */
  private forgetPad(station: string): void {
    this.pads?.forget(station);
    const tableId = this.tableOfStation.get(station);
    if (tableId !== undefined) this.hosts.get(tableId)?.runtime.resetStation(station);
  }

  private startBots(config: ZaptableConfig, table: SimulatedTable): void {
    for (const { config: t, runtime } of this.buzzers.values()) {
      const seats = t.seats.filter((s) => s.bot && config.hardware.simulated.bots && table.names().includes(s.station));
      if (seats.length === 0) continue;
      const bots = new BuzzerBots({
        table, runtime, stations: seats.map((s) => s.station), speed: config.hardware.simulated.speed, seed: t.id,
      });
      bots.start();
      this.bots.push(bots);
    }
    for (const host of this.hosts.values()) {
      const seats = host.config.seats
        .filter((s) => s.bot && config.hardware.simulated.bots)
        .map((s) => ({ player: s.id, station: s.station }));
      if (seats.length === 0) continue;
      const driver = new BotDriver({
        table, seats, runtime: () => host.runtime, allStations: host.config.seats.map((s) => s.station),
        ...(host.config.pileStation === undefined ? {} : { pileStation: host.config.pileStation }),
        speed: config.hardware.simulated.speed, seed: host.config.id,
        newGame: () => host.runtime.newGame({}),
      });
      driver.start();
      this.bots.push(driver);
    }
  }

  /**
   * A game table's running game, read-only: the game, the event log's game id and the engine state (the
   * omniscient truth, for tests and tools in this process; never published). Undefined for other tables.
   */
  tableState(tableId: string): { readonly game: GameId; readonly gameId: string; readonly state: unknown } | undefined {
    const runtime = this.hosts.get(tableId)?.runtime;
    return runtime && { game: runtime.options.game, gameId: runtime.currentGameId, state: runtime.engineState() };
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
    for (const host of this.hosts.values()) host.runtime.stop();
    for (const { runtime } of this.buzzers.values()) runtime.stop();
    await this.hardware?.stop();
    this.simulated?.stop();
    // Once more after the hardware: a sensor line delivered while it stopped may have armed a game timer (a
    // Zip-Zap announcement, a Killer window's deadline) that would otherwise fire into the closed log.
    for (const host of this.hosts.values()) host.runtime.stop();
    await this.transport?.stop();
    await this.broker?.close();
    this.log?.close();
    this.hardware = undefined;
    this.hub = undefined;
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
  }]));
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

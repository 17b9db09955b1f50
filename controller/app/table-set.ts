/**
 * The one assembly of the controller's tables, shared by `zaptable start` (controller-app.ts), the
 * benchmarks and the integration test harnesses: from the configured tables, the hardware, the event log and
 * the publishers it builds every game table (`TableHost`) and buzzer table (`BuzzerRuntime`), routes each
 * sensor event and station health to the table that owns the station, continues unfinished games from the log
 * and starts the hardware. What differs between a start, a benchmark and a test is only what is handed in: the
 * hardware (serial, simulated, hub), the time (real, or `VirtualTime`), and where the published state goes
 * (MQTT, or memory).
 */
import type { TableConfig } from '../config/index.ts';
import type { Clock, SensorEvent, StationHealth, TableHardware } from '../hardware/interface.ts';
import type { EventLog } from '../persistence/index.ts';
import type { GameId } from '../rules/engine.ts';
import type { BuzzerPublisher, Sound } from '../runtime/buzzer/ports.ts';
import { BuzzerRuntime } from '../runtime/buzzer/buzzer-runtime.ts';
import type { RuntimePublisher, Scheduler } from '../runtime/ports.ts';
import { buzzerSetupOf, buzzerStationsOf } from './buzzer-assembly.ts';
import { buzzerLogOf } from './buzzer-log.ts';
import { runtimeLogOf } from './log-adapter.ts';
import { PadReadings } from './pad-readings.ts';
import { recoverGames } from './recovery.ts';
import { stationsOf, type TableParts } from './table-assembly.ts';
import { TableHost } from './table-host.ts';

/**
 * A station's pad is published at most once per this period, the last reading always (a trailing publish). A
 * station's load cell settles a reading at most every 100 ms (firmware/src/station.h), and a tag comes or goes
 * a few times a second at a real table, so a working station is rarely held back; a station that floods lines
 * (a fault, noise on the wire, `bench latency`'s load) costs one retained publish per period instead of one
 * per line, which had been most of the controller's work under a flood.
 */
export const PAD_PUBLISH_PERIOD_MS = 100;

/** Everything the tables are built from; the only things that differ between a start, a benchmark and a test. */
export interface TableSetInputs {
  readonly tables: readonly TableConfig[];
  /** The stations (serial, simulated, or combined with a buzzer hub); started by `start()`. */
  readonly hardware: TableHardware;
  /** The tag registry and barrel weights the game tables read their pads with. */
  readonly parts: TableParts;
  /** The event log: every sensor event and action is written here before anything is published. */
  readonly log: EventLog;
  /** Controller time for the runtimes (the system clock, or a `VirtualTime`). */
  readonly clock: Clock;
  /** The runtimes' timers (real, or on the same `VirtualTime`). */
  readonly scheduler: Scheduler;
  /** Where the game tables' public state and events go. */
  readonly publisher: RuntimePublisher;
  /** Where the buzzer tables' public state and events go. */
  readonly buzzerPublisher: BuzzerPublisher;
  /** Where a station's health goes (with its pad reading, when the table's game lets it be shown). */
  readonly publishHealth: (tableId: string, health: StationHealth) => void;
  /** The buzzer hub's piezo, when there is one. */
  readonly sound?: Sound;
  /** Progress lines (a continued game, an abandoned one). */
  readonly say: (line: string) => void;
}

/** The assembled tables: built by {@link assembleTables}, running after `start()`. */
export class TableSet {
  /** Game tables by id. */
  readonly hosts = new Map<string, TableHost>();
  /** Tables in buzzer mode (no rules engine: their own runtime, docs/buzzer.md). */
  readonly buzzers = new Map<string, { readonly config: TableConfig; readonly runtime: BuzzerRuntime }>();
  /** Station id → the table that owns it (fixed by the config). */
  private readonly tableOfStation = new Map<string, string>();
  private readonly pads: PadReadings;
  private readonly lastHealth = new Map<string, StationHealth>();
  /** The pad reading last published per station (JSON), so a state change republishes the pile only when it differs. */
  private readonly shownPad = new Map<string, string>();
  /** When each station's health was last published (µs) and its trailing pad publish, if one is due. */
  private readonly padPublished = new Map<string, { atUs: number; cancelDue?: () => void }>();

  constructor(private readonly inputs: TableSetInputs) {
    const { tables, hardware, parts, log, clock, scheduler } = inputs;
    this.pads = new PadReadings(parts.registry);
    const lamps = { setLamp: (station: string, pattern: Parameters<TableHardware['setLamp']>[1]) => void hardware.setLamp(station, pattern) };
    // A card on the pile is named on its health topic only once the public pile holds it (a Zip-Zap play waits
    // for the arbitration window): the pile's reading is published again whenever the table's state is.
    const publisher: RuntimePublisher = {
      state: (tableId, game, state) => {
        inputs.publisher.state(tableId, game, state);
        this.republishPile(tableId);
      },
      events: (tableId, game, events) => {
        inputs.publisher.events(tableId, game, events);
      },
    };
    const deps = { log: runtimeLogOf(log), publisher, clock, scheduler, lamps };
    for (const table of tables) {
      if (table.mode === 'buzzer') {
        const runtime = new BuzzerRuntime({
          tableId: table.id, setup: buzzerSetupOf(table), sound: table.buzzer.sound,
          ...(table.buzzer.hostStation === undefined ? {} : { hostStation: table.buzzer.hostStation }),
        }, {
          log: buzzerLogOf(log), publisher: inputs.buzzerPublisher, clock, scheduler, lamps,
          ...(inputs.sound === undefined ? {} : { sound: inputs.sound }),
        });
        this.buzzers.set(table.id, { config: table, runtime });
        for (const station of buzzerStationsOf(table)) this.tableOfStation.set(station, table.id);
      } else {
        const host = new TableHost(table, parts, deps);
        this.hosts.set(table.id, host);
        for (const station of stationsOf(table)) this.tableOfStation.set(station, table.id);
      }
    }
  }

  /** Each buzzer table's stations. */
  buzzerStations(): Map<string, string[]> {
    return new Map([...this.buzzers].map(([id, b]) => [id, buzzerStationsOf(b.config)]));
  }

  /**
   * Continues every table's unfinished game from the log (or starts a new one), then lets the sensor events
   * and station health flow to the tables and starts the hardware.
   */
  async start(): Promise<void> {
    recoverGames(this.inputs.log, this.hosts, this.buzzers, this.inputs.say);
    this.inputs.hardware.onEvent((event) => {
      this.routeEvent(event);
    });
    this.inputs.hardware.onHealth((health) => {
      this.publishHealth(health);
    });
    await this.inputs.hardware.start();
  }

  /** Stops the runtimes' timers (call again after the hardware stopped: see controller-app.ts). */
  stopRuntimes(): void {
    for (const host of this.hosts.values()) host.runtime.stop();
    for (const { runtime } of this.buzzers.values()) runtime.stop();
    for (const published of this.padPublished.values()) {
      published.cancelDue?.();
      published.cancelDue = undefined;
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

  private routeEvent(event: SensorEvent): void {
    const tableId = this.tableOfStation.get(event.station);
    const buzzer = tableId === undefined ? undefined : this.buzzers.get(tableId);
    if (buzzer) {
      buzzer.runtime.handleSensor(event);
      return;
    }
    const padChanged = this.pads.update(event);
    const host = tableId === undefined ? undefined : this.hosts.get(tableId);
    if (host) {
      host.runtime.handleSensor(event);
      if (padChanged) this.padChanged(event.station);
      return;
    }
    // A station no table uses: still logged, so nothing the sensors saw is lost.
    const first = [...this.hosts.keys(), ...this.buzzers.keys()][0];
    if (first !== undefined) this.inputs.log.appendSensor(first, null, event);
  }

  /** Publishes the station's pad now, or once its period is over (see PAD_PUBLISH_PERIOD_MS). */
  private padChanged(station: string): void {
    const published = this.padPublished.get(station);
    if (published?.cancelDue !== undefined) return;
    const waitMs = published === undefined ? 0 : PAD_PUBLISH_PERIOD_MS - (this.inputs.clock.nowUs() - published.atUs) / 1000;
    if (published === undefined || waitMs <= 0) {
      this.publishPad(station);
      return;
    }
    published.cancelDue = this.inputs.scheduler.after(waitMs, () => {
      published.cancelDue = undefined;
      this.publishPad(station);
    });
  }

  /** Publishes the station's health with its pad, unless what a viewer would see is what it last saw. */
  private publishPad(station: string): void {
    const health = this.lastHealth.get(station);
    if (health === undefined) return;
    const shown = this.shownPad.get(station);
    const host = this.hosts.get(this.tableOfStation.get(station) ?? '');
    if (shown !== undefined && host !== undefined && JSON.stringify(this.padOf(host, station)) === shown) return;
    this.publishHealth(health);
  }

  private padOf(host: TableHost, station: string): ReturnType<PadReadings['reading']> {
    const place = host.config.seats.some((s) => s.station === station) ? 'seat'
      : host.config.pileStation === station ? 'pile' : 'other';
    return this.pads.reading(station, host.runtime.options.game, host.runtime.engineState(), place);
  }

  private publishHealth(health: StationHealth): void {
    const wasOnline = this.lastHealth.get(health.station)?.online === true;
    this.lastHealth.set(health.station, health);
    if (wasOnline && !health.online) this.forgetPad(health.station);
    const tableId = this.tableOfStation.get(health.station);
    if (tableId === undefined) return;
    const host = this.hosts.get(tableId);
    if (!host) {
      this.inputs.publishHealth(tableId, health);
      return;
    }
    const pad = this.padOf(host, health.station);
    this.shownPad.set(health.station, JSON.stringify(pad));
    const published = this.padPublished.get(health.station);
    if (published === undefined) this.padPublished.set(health.station, { atUs: this.inputs.clock.nowUs() });
    else published.atUs = this.inputs.clock.nowUs();
    this.inputs.publishHealth(tableId, pad ? { ...health, pad } : health);
  }

  /** Publishes a game table's pile station's health again (its reading may have become public). */
  private republishPile(tableId: string): void {
    const host = this.hosts.get(tableId);
    const pile = host?.config.pileStation;
    const health = pile === undefined ? undefined : this.lastHealth.get(pile);
    if (host === undefined || pile === undefined || health === undefined) return;
    if (JSON.stringify(this.padOf(host, pile)) !== this.shownPad.get(pile)) this.publishHealth(health);
  }

  /** A station went offline: its pad is unknown until it reports again (item: a stale tag kept a table stuck). */
  private forgetPad(station: string): void {
    this.pads.forget(station);
    const tableId = this.tableOfStation.get(station);
    if (tableId !== undefined) this.hosts.get(tableId)?.runtime.resetStation(station);
  }
}

/** Builds the tables (nothing runs until `start()`). */
export function assembleTables(inputs: TableSetInputs): TableSet {
  return new TableSet(inputs);
}

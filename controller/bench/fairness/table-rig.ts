/**
 * The fairness benchmark's controller, built by the composition root every start builds (app/table-set.ts,
 * app/station-hardware.ts): simulated stations whose lines go through the real serial driver, the real table
 * runtimes and engines, the real SQLite event log. Only what is handed in differs from `zaptable start`: the
 * time (a `VirtualTime`, so hours of table run in minutes), the stations' USB link (usb-links.ts), memory
 * publishers instead of MQTT, and — for the fault runs only — a hardware wrapper (faults.ts) and
 * configuration values.
 *
 * The table: three Zip-Zap tables of two seats each, whose pads have 0, 4 and 13 cards resting on them, a
 * Killer-21 table of two seats and a buzzer table of two seats. Every seat station has a slap sensor; a card tapped "softly" does not trip it
 * (a tag-only landing).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SIMULATED_WEIGHTS, simulatedRegistry } from '../../app/simulated-items.ts';
import { stationHardwareOf } from '../../app/station-hardware.ts';
import { assembleTables, type TableSet } from '../../app/table-set.ts';
import type { BuzzerEvent } from '../../buzzer/index.ts';
import { validateConfig, type ZaptableConfig } from '../../config/index.ts';
import { SeededRandom } from '../../kernel/random.ts';
import type { SensorEvent, TableHardware } from '../../hardware/interface.ts';
import type { HardwareLogger } from '../../hardware/serial/index.ts';
import { VirtualTime, type SimulatedTable } from '../../hardware/simulated/index.ts';
import { EventLog } from '../../persistence/index.ts';
import type { PendingEvent, Scheduler } from '../../runtime/ports.ts';
import { withFaults, type HardwareFaults } from './faults.ts';
import { KILLER_WINDOW_MS } from './killer-race.ts';
import { HOST_LOOP_MODEL, HostLoop, toHostDelayOf, type FairnessLinkName } from './usb-links.ts';

/** A Zip-Zap table of the rig: its id, its two seats' stations, and how many cards rest on each pad. */
export interface ZipTable {
  readonly id: string;
  readonly stations: readonly [string, string];
  readonly players: readonly [string, string];
  readonly resting: number;
}

export const RESTING_COUNTS = [0, 4, 13] as const;
export type Resting = (typeof RESTING_COUNTS)[number];

export const ZIP_TABLES: readonly ZipTable[] = RESTING_COUNTS.map((resting) => ({
  id: `zip-${resting}`, resting,
  stations: [`z${resting}-a`, `z${resting}-b`], players: ['a', 'b'],
}));
export const BUZZER_TABLE = { id: 'buzzer', stations: ['bz-a', 'bz-b'] as const, contestants: ['a', 'b'] as const };
/** The Killer-21 table: two seats, nothing resting on the pads. */
export const KILLER_TABLE = { id: 'killer', stations: ['k-a', 'k-b'] as const, players: ['a', 'b'] as const };

/**
 * Firmware 0.4.0's poll step with this many cards resting on the reader: its longest measured `TAG+` window
 * with 7-byte UIDs (hardware/protocol.md *RFID timing*: 1.04 ms with an empty reader, 3.47 ms with 4 cards,
 * 3.58 ms with 13).
 */
const POLL_STEP_US: Readonly<Record<Resting, number>> = { 0: 1040, 4: 3470, 13: 3580 };

/** Configuration values a fault run changes (the rest is the defaults of `zaptable start`). */
export interface ConfigFaults {
  /** `tables[].timing.arbitrationWindowMs` (default 30). */
  readonly batchWindowMs?: number;
  /** `hardware.serial.intervals.tagPowerUpUs`: the controller's power-up allowance (default 5000). */
  readonly powerUpAllowanceUs?: number;
}

export interface RigOptions {
  readonly link: FairnessLinkName;
  readonly seed: string;
  readonly config?: ConfigFaults;
  readonly hardware?: HardwareFaults;
}

function rigConfig(faults: ConfigFaults): ZaptableConfig {
  const timing = faults.batchWindowMs === undefined ? {} : { timing: { arbitrationWindowMs: faults.batchWindowMs } };
  const validated = validateConfig({
    tables: [
      ...ZIP_TABLES.map((t) => ({
        id: t.id, mode: 'zip-zap', seed: 1, ...timing,
        seats: t.players.map((p, i) => ({ id: p, station: t.stations[i], bot: false })),
        // HUMAN stuck detection: no timer of the runtime's own changes the state between races.
        rules: { stuckDetection: 'HUMAN' },
      })),
      {
        id: KILLER_TABLE.id, mode: 'killer-21', seed: 1, ...timing,
        seats: KILLER_TABLE.players.map((p, i) => ({ id: p, station: KILLER_TABLE.stations[i], bot: false })),
        rules: { killerWindowMs: KILLER_WINDOW_MS },
      },
      {
        id: BUZZER_TABLE.id, mode: 'buzzer', ...timing,
        seats: BUZZER_TABLE.contestants.map((c, i) => ({ id: c, station: BUZZER_TABLE.stations[i], bot: false })),
      },
    ],
    hardware: {
      kind: 'simulated', simulated: { bots: false, slapSensors: 'all', pileStation: false },
      ...(faults.powerUpAllowanceUs === undefined ? {} : { serial: { intervals: { tagPowerUpUs: faults.powerUpAllowanceUs } } }),
    },
  });
  if (!validated.ok) throw new Error(`bench fairness: ${validated.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
  return validated.config;
}

/** The runtime's scheduler on virtual time. */
function virtualScheduler(time: VirtualTime): Scheduler {
  return {
    after(ms, fn) {
      const handle = time.setTimeout(fn, ms);
      return () => {
        time.clearTimeout(handle);
      };
    },
  };
}

/** The UID of a card resting on a pad (unknown to every registry). */
function restingUid(resting: number, seat: number, i: number): string {
  return `04EE${resting.toString(16).padStart(2, '0')}${seat.toString(16).padStart(2, '0')}${i.toString(16).padStart(2, '0')}0000`.toUpperCase();
}

/** Driver warnings, counted (a warning in a benchmark run is a finding). */
export interface DriverNotes {
  warnings: number;
  lastWarning: string | undefined;
}

/** The assembled controller on virtual time, and what the bench reads back from it. */
export class TableRig {
  /** Every sensor event the tables received (after the fault wrapper, as the tables saw them). */
  readonly delivered: SensorEvent[] = [];
  private constructor(
    /** The game tables' publishes (the bench reads the decisions from the engine state). */
    readonly published: { states: number; events: number },
    /** The buzzer table's published events since the last `takeBuzzerEvents()`. */
    private readonly buzzerEvents: BuzzerEvent[],
    readonly time: VirtualTime,
    readonly table: SimulatedTable,
    readonly tables: TableSet,
    readonly notes: DriverNotes,
    private readonly hardware: TableHardware,
    private readonly log: EventLog,
    private readonly dir: string,
  ) {}

  static async start(options: RigOptions): Promise<TableRig> {
    const config = rigConfig(options.config ?? {});
    const time = new VirtualTime();
    const notes: DriverNotes = { warnings: 0, lastWarning: undefined };
    const logger: HardwareLogger = {
      debug: () => undefined, info: () => undefined,
      warn: (message) => {
        notes.warnings++;
        notes.lastWarning = message;
      },
    };
    // The dedupe branch replaces SeededRandom with controller/kernel/random.ts; swap at merge.
    const loopRandom = new SeededRandom(`bench-fairness:host-loop:${options.link}:${options.seed}`);
    const loop = new HostLoop(HOST_LOOP_MODEL, () => loopRandom.uniform(0, 1), time.nowUs());
    const built = stationHardwareOf(config, {
      logger, time,
      simulated: {
        seed: `bench-fairness:${options.link}:${options.seed}`,
        wire: { toHostDelayUs: toHostDelayOf(options.link, loop) },
        // Hours of pings: keep no history of what the stations received (memory stays flat).
        stationDefaults: { bootloaderMs: 300, receivedLimit: 64 },
      },
      simulatedStation: (id) => {
        const zip = ZIP_TABLES.find((t) => t.stations.includes(id));
        if (zip !== undefined) return { rfidPollUs: POLL_STEP_US[zip.resting as Resting] };
        return (KILLER_TABLE.stations as readonly string[]).includes(id) ? { rfidPollUs: POLL_STEP_US[0] } : {};
      },
    });
    const simulated = built.simulated;
    if (simulated === undefined) throw new Error('bench fairness: the hardware is not simulated');
    const hardware = withFaults(built.hardware, time, options.hardware ?? {});
    const dir = mkdtempSync(path.join(tmpdir(), 'zaptable-bench-fairness-'));
    const opened = EventLog.open(path.join(dir, 'events.db'));
    if (!opened.ok) throw new Error(`bench fairness: event log: ${opened.code}: ${opened.message}`);
    const published = { states: 0, events: 0 };
    const buzzerEvents: BuzzerEvent[] = [];
    const tables = assembleTables({
      tables: config.tables, hardware, log: opened.log, clock: time, scheduler: virtualScheduler(time),
      parts: { registry: simulatedRegistry(), weights: SIMULATED_WEIGHTS },
      publisher: {
        state: () => {
          published.states++;
        },
        events: (_table: string, _game: unknown, events: readonly PendingEvent[]) => {
          published.events += events.length;
        },
      },
      buzzerPublisher: {
        state: () => undefined,
        events: (_table, events) => {
          buzzerEvents.push(...events);
        },
      },
      publishHealth: () => undefined,
      say: () => undefined,
    });
    const rig = new TableRig(published, buzzerEvents, time, simulated, tables, notes, hardware, opened.log, dir);
    hardware.onEvent((event) => {
      rig.delivered.push(event);
    });
    const started = tables.start();
    await time.settle(started, 60_000);
    await rig.waitOnline();
    return rig;
  }

  /** The buzzer table's events published since the last call. */
  takeBuzzerEvents(): BuzzerEvent[] {
    return this.buzzerEvents.splice(0);
  }

  /** The sensor events delivered since the last call (and forgets them: the bench streams). */
  takeDelivered(): SensorEvent[] {
    return this.delivered.splice(0);
  }

  async stop(): Promise<void> {
    this.tables.stopRuntimes();
    await this.time.settle(this.hardware.stop(), 60_000);
    this.table.stop();
    this.tables.stopRuntimes();
    this.log.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async waitOnline(): Promise<void> {
    const stations = new Set(this.table.names());
    const onlineCount = (): number => this.hardware.health().filter((h) => h.online && stations.has(h.station)).length;
    if (!(await this.time.advanceUntil(() => onlineCount() === stations.size, 30_000))) {
      throw new Error(`bench fairness: stations not online after 30 s (${onlineCount()} of ${stations.size})`);
    }
    // The resting cards (tags no registry knows: no game takes them for a play), then a few seconds of pings:
    // every station's clock is synced before the first race.
    for (const t of ZIP_TABLES) {
      t.stations.forEach((station, s) => {
        for (let i = 0; i < t.resting; i++) {
          this.table.placeItem(station, { uid: restingUid(t.resting, s, i), grams: 1.8, slap: false });
        }
      });
    }
    await this.time.advance(3000);
  }
}

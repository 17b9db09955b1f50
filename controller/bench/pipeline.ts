/**
 * The controller's real pipeline, assembled in-process for the latency benchmark by the composition root's own
 * functions (`stationHardwareOf()`, `assembleTables()`, as `zaptable start` does): SQLite event log → broker
 * (embedded aedes, or a spawned Mosquitto) → the real `SerialStations` driver reading simulated stations over
 * serialport's mock binding → `ControllerTransport` → the table with the app's log and publisher adapters;
 * plus an MQTT subscriber on `<base>/<table>/state` with its own `viewer` login.
 *
 * Differences from a production start, all on the test-harness side of the serial port:
 * - The bench writes the station lines itself, straight into each station's port (`emitData`), so it knows the
 *   instant a line enters the driver and can push far more lines than a 115200-baud station could. The
 *   simulated stations still boot, print their banner, answer the driver's pings and lamp commands; they are
 *   left uncalibrated and with empty pads, so they never send events of their own (the bench's lines carry the
 *   sequence numbers the driver expects after the banner, and the stations' own `micros()` as timestamps).
 * - The simulated link's delays are set to zero (`usbFrameUs` 0, `flushUs` 0, an unbounded baud rate): the
 *   benchmark measures the controller, not a model of USB. The bench's own lines bypass the link anyway.
 * - The table's arbitration window is a parameter (see latency-bench.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectAsync, type MqttClient } from 'mqtt';
import { simulatedUid } from '../app/simulated-items.ts';
import { stationHardwareOf } from '../app/station-hardware.ts';
import { stationsOf } from '../app/table-assembly.ts';
import type { TableHost } from '../app/table-host.ts';
import { validateConfig, type TableConfig, type ZaptableConfig } from '../config/index.ts';
import type { SensorEvent, TableHardware } from '../hardware/interface.ts';
import type { HardwareLogger } from '../hardware/serial/index.ts';
import type { SimulatedTable } from '../hardware/simulated/index.ts';
import { EventLog } from '../persistence/index.ts';
import { formatDeviceLine, type EventMessage } from '../protocol/index.ts';
import { simulatedTablesOverMqtt } from './simulated-tables.ts';
import type { TableSet } from '../app/table-set.ts';
import { ControllerTransport, EmbeddedBroker, type BrokerUser } from '../transport/index.ts';
import { startMosquitto, type BenchBroker } from './mosquitto.ts';

export type BrokerKind = 'embedded' | 'mosquitto';

export interface PipelineOptions {
  readonly broker: BrokerKind;
  /** The table's `timing.arbitrationWindowMs`. */
  readonly arbitrationWindowMs: number;
  /** Parent of the temporary folder holding the event log. Default: the OS temporary folder. */
  readonly dir?: string;
}

export const BASE_TOPIC = 'zaptable';
export const TABLE_ID = 'bench';
/** The seat whose card taps are measured; the other seats carry the background load. */
export const MEASURED_STATION = 'seat-1';
export const LOAD_STATIONS = ['seat-2', 'seat-3', 'seat-4'] as const;
const SEATS = [MEASURED_STATION, ...LOAD_STATIONS];

/** The card the measured seat taps: a Zip-Zap number card (see latency-bench.ts for why any card will do). */
export const MEASURED_CARD_UID = simulatedUid({ kind: 'card', card: 'R1' });

type EventBody = EventMessage extends infer E ? E extends EventMessage ? Omit<E, 'seq' | 't' | 'type'> : never : never;

/** What the driver's logger saw (warnings mean the bench's lines were not what the driver expected). */
export interface DriverNotes {
  warnings: number;
  lastWarning: string | undefined;
}

function benchConfig(arbitrationWindowMs: number): ZaptableConfig {
  const validated = validateConfig({
    tables: [{
      id: TABLE_ID, mode: 'zip-zap', seed: 1,
      seats: SEATS.map((station, i) => ({ id: `p${i + 1}`, station, bot: false })),
      // HUMAN stuck detection: no timer of the runtime's own changes the state behind the bench's back.
      rules: { stuckDetection: 'HUMAN' },
      timing: { arbitrationWindowMs },
    }],
    hardware: { kind: 'simulated', simulated: { bots: false, slapSensors: 'none' } },
  });
  if (!validated.ok) throw new Error(`bench table: ${validated.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
  return validated.config;
}

function password(): string {
  return randomBytes(18).toString('base64url');
}

export class BenchPipeline {
  /** Sensor events the driver delivered to the runtime (each one was logged before the count moved). */
  delivered = 0;
  /** State messages that arrived while no measurement was waiting for one. */
  unexpectedStates = 0;
  /** The `seq` of the last state message received. */
  lastStateSeq = -1;

  private readonly seqs = new Map<string, number>();
  private waiter: ((atMs: number) => void) | undefined;
  private gameId = 0;

  private constructor(
    readonly brokerKind: BrokerKind,
    /** What the driver's logger saw. */
    readonly driver: DriverNotes,
    private readonly dir: string,
    readonly log: EventLog,
    private readonly broker: { readonly url: string; dispose(): Promise<void> },
    private readonly sim: { readonly hardware: TableHardware; readonly table: SimulatedTable },
    private readonly transport: ControllerTransport,
    private readonly tables: TableSet,
    readonly host: TableHost,
    private readonly subscriber: MqttClient,
  ) {}

  /** Builds and starts everything; on failure, whatever was started is stopped again. */
  static async start(options: PipelineOptions): Promise<BenchPipeline> {
    const cleanups: (() => Promise<void> | void)[] = [];
    const cleanup = async (): Promise<void> => {
      for (const fn of cleanups.reverse()) {
        try {
          await fn();
        } catch {
          // keep cleaning up
        }
      }
    };
    try {
      const dir = mkdtempSync(path.join(options.dir ?? tmpdir(), 'zaptable-bench-latency-'));
      cleanups.push(() => {
        rmSync(dir, { recursive: true, force: true });
      });

      // 1. The event log (durability `process`, the default).
      const opened = EventLog.open(path.join(dir, 'events.db'));
      if (!opened.ok) throw new Error(`event log: ${opened.code}: ${opened.message}`);
      const log = opened.log;
      cleanups.push(() => {
        log.close();
      });

      // 2. The broker, with a controller and a viewer account.
      const controller: BrokerUser = { username: 'zaptable', password: password(), role: 'controller' };
      const viewer: BrokerUser = { username: 'bench-viewer', password: password(), role: 'viewer' };
      const broker = await startBroker(options.broker, [controller, viewer]);
      cleanups.push(async () => broker.dispose());

      // 3. The hardware: simulated stations read by the real serial driver.
      const notes: DriverNotes = { warnings: 0, lastWarning: undefined };
      const logger: HardwareLogger = {
        debug: () => undefined,
        info: () => undefined,
        warn: (message) => {
          notes.warnings++;
          notes.lastWarning = message;
        },
      };
      const config = benchConfig(options.arbitrationWindowMs);
      const table = config.tables[0];
      if (table === undefined) throw new Error('bench table: no table');
      const built = stationHardwareOf(config, {
        logger,
        simulated: { stationDefaults: { bootloaderMs: 0, calibrated: false }, wire: { baud: 1e12, usbFrameUs: 0, flushUs: 0 } },
      });
      if (built.simulated === undefined) throw new Error('bench: the hardware is not simulated');
      const sim = { hardware: built.hardware, table: built.simulated };
      cleanups.push(async () => {
        await sim.hardware.stop();
        sim.table.stop();
      });

      // 4. MQTT for the controller.
      const transport = new ControllerTransport({
        url: broker.url, username: controller.username, password: controller.password,
        baseTopic: BASE_TOPIC, tables: [table.id], tokens: [],
      });
      cleanups.push(async () => transport.stop());
      // 5. The table, assembled as `zaptable start` assembles it.
      const tables = simulatedTablesOverMqtt(config, sim.hardware, log, transport);
      cleanups.push(() => {
        tables.stopRuntimes();
      });
      const host = tables.hosts.get(table.id);
      if (host === undefined) throw new Error('bench: no table host');
      await transport.start();

      // 6. The subscriber, logged in as a viewer.
      const subscriber = await connectAsync(broker.url, {
        protocolVersion: 4, username: viewer.username, password: viewer.password, clientId: `bench-viewer-${process.pid}`,
        clean: true, reconnectPeriod: 0,
      });
      cleanups.push(async () => subscriber.endAsync(true));
      // Like the controller's own connections (and any latency-minded client): no Nagle delay on the acks.
      (subscriber.stream as Partial<Pick<Socket, 'setNoDelay'>>).setNoDelay?.(true);

      const pipeline = new BenchPipeline(options.broker, notes, dir, log, broker, sim, transport, tables, host, subscriber);
      await pipeline.wire(table);
      return pipeline;
    } catch (error) {
      await cleanup();
      throw error;
    }
  }

  /** The current game's id in the log. */
  get currentGameId(): number {
    return this.gameId;
  }

  /** The broker's URL. */
  get brokerUrl(): string {
    return this.broker.url;
  }

  /** Sensor rows logged for the current game so far. */
  sensorRows(): number {
    return this.log.reader.counts(this.gameId).sensor;
  }

  /**
   * Resolves with `performance.now()` at the arrival of the next state message, or undefined after
   * `timeoutMs`. Only one waiter at a time.
   */
  nextState(timeoutMs: number): Promise<number | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        resolve(undefined);
      }, timeoutMs);
      this.waiter = (atMs) => {
        clearTimeout(timer);
        this.waiter = undefined;
        resolve(atMs);
      };
    });
  }

  /** One event line as the station would send it now, `\n` included; advances the station's sequence. */
  line(station: string, body: EventBody): string {
    const seq = this.seqs.get(station) ?? 0;
    this.seqs.set(station, (seq + 1) % 2 ** 32);
    const message = { ...body, type: 'event', seq, t: this.sim.table.micros(station) } as EventMessage;
    return `${formatDeviceLine(message)}\n`;
  }

  /** Hands bytes to the driver as the station's port receiving them (one read on the host). */
  write(station: string, bytes: string): void {
    const port = this.sim.table.port(station);
    if (port === undefined || !port.emitData(bytes)) throw new Error(`bench: the port of ${station} is not open`);
  }

  /** Stops everything and removes the temporary folder. */
  async stop(): Promise<void> {
    const steps: (() => Promise<void> | void)[] = [
      async () => this.subscriber.endAsync(true),
      () => {
        this.tables.stopRuntimes();
      },
      async () => this.sim.hardware.stop(),
      () => {
        this.sim.table.stop();
      },
      async () => this.transport.stop(),
      async () => this.broker.dispose(),
      () => {
        this.log.close();
      },
      () => {
        rmSync(this.dir, { recursive: true, force: true });
      },
    ];
    let first: unknown;
    for (const step of steps) {
      try {
        await step();
      } catch (error) {
        first ??= error;
      }
    }
    if (first !== undefined) throw first instanceof Error ? first : new Error('bench: stopping the pipeline failed');
  }

  private async wire(table: TableConfig): Promise<void> {
    const stations = new Set(stationsOf(table));
    const hardware = this.sim.hardware;
    hardware.onEvent((_event: SensorEvent) => {
      this.delivered++;
    });
    this.subscriber.on('message', (_topic, payload) => {
      const atMs = performance.now();
      const seq = (JSON.parse(payload.toString('utf8')) as { seq?: unknown }).seq;
      if (typeof seq === 'number') this.lastStateSeq = seq;
      if (this.waiter === undefined) this.unexpectedStates++;
      else this.waiter(atMs);
    });
    await this.subscriber.subscribeAsync(`${BASE_TOPIC}/${table.id}/state`, { qos: 1 });
    // Continues or starts the table's game, routes the sensor events, starts the hardware.
    await this.tables.start();
    this.gameId = Number(this.host.runtime.currentGameId);
    await waitForOnline(hardware, stations, 10_000);
    // The retained state delivered on subscribing (and any start-up publish) is not a measurement.
    await new Promise((resolve) => setTimeout(resolve, 200));
    this.unexpectedStates = 0;
  }
}

async function startBroker(kind: BrokerKind, users: readonly BrokerUser[]): Promise<BenchBroker> {
  if (kind === 'mosquitto') return startMosquitto(BASE_TOPIC, users);
  const broker = new EmbeddedBroker({ baseTopic: BASE_TOPIC, users, port: 0, host: '127.0.0.1' });
  const port = await broker.start();
  return { name: 'embedded aedes', url: `mqtt://127.0.0.1:${port}`, dispose: async () => broker.close() };
}

async function waitForOnline(hardware: TableHardware, stations: ReadonlySet<string>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const online = new Set(hardware.health().filter((h) => h.online).map((h) => h.station));
    if ([...stations].every((s) => online.has(s))) return;
    if (Date.now() > deadline) throw new Error(`bench: stations not online after ${timeoutMs} ms (online: ${[...online].join(', ') || 'none'})`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

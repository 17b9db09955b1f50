/**
 * Shared set-up for the serial driver tests: a simulated table read by the real driver, on virtual time,
 * with every sensor event, health report, port change and log line collected for assertions.
 */
import type { SensorEvent, StationHealth } from '../../../controller/hardware/interface.ts';
import type { HardwareLogger, LogFields } from '../../../controller/hardware/serial/logger.ts';
import type { PortStatus } from '../../../controller/hardware/serial/port-supervisor.ts';
import type { SerialStations } from '../../../controller/hardware/serial/serial-stations.ts';
import type { SerialStationHealth } from '../../../controller/hardware/serial/station-record.ts';
import {
  createSimulatedHardware, type SimulatedHardwareOptions, type SimulatedTable,
} from '../../../controller/hardware/simulated/simulated-table.ts';
import { VirtualTime } from '../../../controller/hardware/simulated/virtual-time.ts';

export interface LogEntry {
  readonly level: 'debug' | 'info' | 'warn';
  readonly message: string;
  readonly fields: LogFields | undefined;
}

export function collectingLogger(entries: LogEntry[]): HardwareLogger {
  return {
    debug: (message, fields) => entries.push({ level: 'debug', message, fields }),
    info: (message, fields) => entries.push({ level: 'info', message, fields }),
    warn: (message, fields) => entries.push({ level: 'warn', message, fields }),
  };
}

export interface Rig {
  readonly time: VirtualTime;
  readonly hardware: SerialStations;
  readonly table: SimulatedTable;
  readonly events: SensorEvent[];
  readonly healthReports: StationHealth[];
  readonly portReports: PortStatus[];
  readonly log: LogEntry[];
  /** The current health of one station (throws when the driver has never seen it). */
  health(station: string): SerialStationHealth;
  /** Advances virtual time until `predicate` holds; fails the test when it does not within `maxMs`. */
  until(predicate: () => boolean, maxMs?: number): Promise<void>;
  /** Starts the driver and waits until every plugged station is online. */
  startAll(): Promise<void>;
  stop(): Promise<void>;
}

/** Fast defaults for tests: a short bootloader pause (a real board takes ~1.6 s; the banner wait is tested separately). */
export const FAST_BOOT = { bootloaderMs: 200 } as const;

export function rig(options: SimulatedHardwareOptions = {}): Rig {
  const time = new VirtualTime();
  const log: LogEntry[] = [];
  const { hardware, table } = createSimulatedHardware({
    seats: 2,
    ...options,
    stationDefaults: { ...FAST_BOOT, ...options.stationDefaults },
    time,
    driver: { logger: collectingLogger(log), ...options.driver },
  });
  const events: SensorEvent[] = [];
  const healthReports: StationHealth[] = [];
  const portReports: PortStatus[] = [];
  hardware.onEvent((e) => events.push(e));
  hardware.onHealth((h) => healthReports.push(h));
  hardware.onPort((p) => portReports.push(p));
  const self: Rig = {
    time, hardware, table, events, healthReports, portReports, log,
    health(station) {
      const found = hardware.health().find((h) => h.station === station);
      if (found === undefined) throw new Error(`no health for ${station}`);
      return found;
    },
    async until(predicate, maxMs = 30_000) {
      if (!(await time.advanceUntil(predicate, maxMs))) throw new Error(`condition not met within ${maxMs} ms of virtual time`);
    },
    async startAll() {
      await hardware.start();
      const plugged = (options.stations ?? table.names().map((id) => ({ id, plugged: true })))
        .filter((s) => s.plugged !== false).map((s) => s.id);
      await self.until(() => plugged.every((id) => hardware.health().some((h) => h.station === id && h.online)));
    },
    async stop() {
      await hardware.stop();
      table.stop();
    },
  };
  return self;
}

/** Events of one kind (and station), in arrival order. */
export function eventsOf<K extends SensorEvent['kind']>(events: readonly SensorEvent[], kind: K, station?: string): Extract<SensorEvent, { kind: K }>[] {
  type Wanted = Extract<SensorEvent, { kind: K }>;
  const wanted = (e: SensorEvent): e is Wanted => e.kind === kind && (station === undefined || e.station === station);
  return events.filter(wanted);
}

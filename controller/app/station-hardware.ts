/**
 * The hardware a configuration asks for: serial seat and pile stations, or the simulated table (software
 * stations read by the real serial driver), and a johnny-five buzzer hub beside either. `zaptable start`, the
 * benchmarks and the test harnesses all build it here; a benchmark or test hands in its own time (a
 * `VirtualTime`) and the simulated stations' USB link.
 */
import type { TableConfig, ZaptableConfig } from '../config/index.ts';
import { BuzzerHub } from '../hardware/buzzer-hub/index.ts';
import type { Clock, TableHardware } from '../hardware/interface.ts';
import {
  createSimulatedHardware, type SimulatedHardwareOptions, type SimulatedStationConfig, type SimulatedTable,
} from '../hardware/simulated/index.ts';
import { SerialStations, type HardwareLogger, type SerialStationsOptions } from '../hardware/serial/index.ts';
import type { Scheduler } from '../hardware/serial/timers.ts';
import { CombinedHardware } from './combined-hardware.ts';

/** What differs between a production start and a benchmark or test, besides the configuration. */
export interface StationHardwareOptions {
  readonly logger: HardwareLogger;
  /** Time for the simulated stations and the driver (a `VirtualTime`). Default: real time. */
  readonly time?: Clock & Scheduler;
  /** The simulated stations' options over the configuration's (their USB link, firmware timing, seed). */
  readonly simulated?: Omit<SimulatedHardwareOptions, 'stations' | 'time' | 'driver'>;
  /** One simulated station's firmware settings over the defaults (a benchmark's poll step per pad). */
  readonly simulatedStation?: (id: string) => Partial<Omit<SimulatedStationConfig, 'id' | 'kind'>>;
  /** Driver options over the configuration's. */
  readonly driver?: Partial<SerialStationsOptions>;
}

/** The hardware, and its parts a caller may need (the simulated world, the hub's piezo). */
export interface StationHardware {
  readonly hardware: TableHardware;
  readonly simulated?: SimulatedTable;
  readonly hub?: BuzzerHub;
}

/** Builds (does not start) the hardware the configuration asks for. */
export function stationHardwareOf(config: ZaptableConfig, options: StationHardwareOptions): StationHardware {
  const hubConfig = config.hardware.buzzerHub;
  const stations = seatStationsOf(config, config.tables, options);
  if (hubConfig === undefined) return stations;
  // Buzzer hub buttons come from the hub; everything else from the seat stations (serial or simulated).
  const hub = new BuzzerHub({
    io: hubConfig.port, buttons: hubConfig.buttons, debounceMs: hubConfig.debounceMs,
    latency: { eventLoopUs: hubConfig.hostDelayMs * 1000 },
    ...(hubConfig.piezo === undefined ? {} : { piezoPin: hubConfig.piezo }),
  });
  const hubIds = hubConfig.buttons.map((b) => b.id);
  const seats = stations.hardware;
  const hardware = new CombinedHardware([seats, hub], (part) => (part === hub ? hubIds : seats.health().map((h) => h.station)));
  return { ...stations, hardware, hub };
}

function seatStationsOf(
  config: ZaptableConfig, tables: readonly TableConfig[], options: StationHardwareOptions,
): StationHardware {
  const hubIds = new Set((config.hardware.buzzerHub?.buttons ?? []).map((b) => b.id));
  const serial = config.hardware.serial;
  const driver: Partial<SerialStationsOptions> = {
    logger: options.logger, sensorTiming: serial.intervals, slapMatching: serial.slapMatching, ...options.driver,
  };
  if (config.hardware.kind === 'simulated') {
    const slaps = config.hardware.simulated.slapSensors;
    const stations = tables.flatMap((t) => [
      ...t.seats.map((s) => ({ id: s.station, kind: 'seat' as const, slapSensor: slaps === 'all' })),
      ...(t.pileStation === undefined ? [] : [{ id: t.pileStation, kind: 'pile' as const, slapSensor: slaps !== 'none' }]),
      ...(t.mode === 'buzzer' && t.buzzer.hostStation !== undefined ? [{ id: t.buzzer.hostStation, kind: 'seat' as const }] : []),
    ]).filter((s) => !hubIds.has(s.id)).map((s) => ({ ...options.simulatedStation?.(s.id), ...s }));
    // The simulated stations run through the real serial driver, with the same sensor intervals.
    const sim = createSimulatedHardware({
      stationDefaults: { bootloaderMs: 300 }, ...options.simulated, stations, driver,
      ...(options.time === undefined ? {} : { time: options.time }),
    });
    return { hardware: sim.hardware, simulated: sim.table };
  }
  const hardware = new SerialStations({
    ...(serial.ports === 'auto' ? { discovery: { vendorIds: serial.vendorIds } } : { ports: serial.ports }),
    baudRate: serial.baudRate,
    timing: { bannerTimeoutMs: serial.bannerTimeoutMs, commandTimeoutMs: serial.commandTimeoutMs },
    ping: { intervalMs: serial.pingIntervalMs },
    ...driver,
    ...(options.time === undefined ? {} : { clock: options.time, scheduler: options.time }),
  });
  return { hardware };
}

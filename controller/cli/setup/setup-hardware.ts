/**
 * The hardware the set-up commands talk to: serial stations from the configuration, or a simulated table
 * (with `--simulate`, or `hardware.kind: simulated`) on which a scripted person does the placing. Both are
 * the real serial driver, so the flows see exactly the events and replies a real table gives.
 */
import type { ZaptableConfig } from '../../config/index.ts';
import {
  createSimulatedHardware, SerialStations, systemClock, systemScheduler,
  type Clock, type HardwareLogger, type Scheduler as HardwareScheduler, type SerialStationHealth, type SimulatedStationSpec,
  type SimulatedStationConfig, type SimulatedTable, type StationId,
} from '../../hardware/index.ts';
import type { Scheduler } from '../../runtime/ports.ts';
import type { Output } from '../output.ts';

/** Time for the hardware and the flows: a `VirtualTime` in tests, real time otherwise. */
export type SetupTime = Clock & HardwareScheduler;

export const REAL_TIME: SetupTime = {
  nowUs: () => systemClock.nowUs(), wallMs: () => systemClock.wallMs(),
  setTimeout: (cb, ms) => systemScheduler.setTimeout(cb, ms), clearTimeout: (h) => {
    systemScheduler.clearTimeout(h);
  },
};

export interface SetupHardware {
  readonly stations: SerialStations;
  /** The simulated table, when simulating. */
  readonly table: SimulatedTable | undefined;
  stop(): Promise<void>;
}

/** The runtime's scheduler port over the hardware's `setTimeout`/`clearTimeout`. */
export function afterScheduler(time: HardwareScheduler): Scheduler {
  return {
    after(ms, fn) {
      const handle = time.setTimeout(fn, ms);
      return () => {
        time.clearTimeout(handle);
      };
    },
  };
}

/** Hardware warnings go to stderr (a station unplugged is worth knowing mid-run); the rest is dropped. */
export function setupLogger(io: Output): HardwareLogger {
  return {
    debug: () => undefined,
    info: () => undefined,
    warn: (message, fields) => {
      io.err(`${message}${fields === undefined ? '' : ` ${JSON.stringify(fields)}`}`);
    },
  };
}

export interface OpenOptions {
  readonly simulate: boolean;
  /** Simulated stations (ids), when simulating. */
  readonly simulatedStations: readonly StationId[];
  /** Simulated scales start uncalibrated (calibrate) or calibrated (enroll). */
  readonly simulatedCalibrated: boolean;
  readonly time: SetupTime;
  readonly io: Output;
  /** Settings of the simulated stations beyond the defaults. */
  readonly simulatedStation?: Partial<SimulatedStationConfig>;
}

export function openHardware(config: ZaptableConfig, options: OpenOptions): SetupHardware {
  const logger = setupLogger(options.io);
  if (options.simulate) {
    const stations: SimulatedStationSpec[] = options.simulatedStations.map((id) => ({ id, kind: 'seat' }));
    // A short bootloader pause: the demo should not wait 1.6 s per board for nothing.
    const { hardware, table } = createSimulatedHardware({
      stations, time: options.time, driver: { logger },
      stationDefaults: { bootloaderMs: 300, calibrated: options.simulatedCalibrated, ...options.simulatedStation },
    });
    return {
      stations: hardware, table, stop: async () => {
        await hardware.stop();
        table.stop();
      },
    };
  }
  const serial = config.hardware.serial;
  const stations = new SerialStations({
    ...(serial.ports === 'auto' ? { discovery: { vendorIds: serial.vendorIds } } : { ports: serial.ports }),
    baudRate: serial.baudRate,
    timing: { bannerTimeoutMs: serial.bannerTimeoutMs, commandTimeoutMs: serial.commandTimeoutMs },
    ping: { intervalMs: serial.pingIntervalMs },
    sensorTiming: serial.intervals,
    clock: options.time,
    scheduler: options.time,
    logger,
  });
  return { stations, table: undefined, stop: () => stations.stop() };
}

/**
 * Waits until `ready` holds for the stations' health, or `timeoutMs` passes. Resolves with the health
 * either way; the caller decides what is missing.
 */
export function waitForStations(
  stations: SerialStations, ready: (health: readonly SerialStationHealth[]) => boolean, timeoutMs: number, scheduler: Scheduler,
): Promise<SerialStationHealth[]> {
  return new Promise((resolve) => {
    let cancel = (): void => undefined;
    const finish = (): void => {
      unsubscribe();
      cancel();
      resolve(stations.health());
    };
    const unsubscribe = stations.onHealth(() => {
      if (ready(stations.health())) finish();
    });
    if (ready(stations.health())) {
      finish();
      return;
    }
    cancel = scheduler.after(timeoutMs, finish);
  });
}

/** The seat stations of the configuration, in table and seat order. */
export function configuredSeatStations(config: ZaptableConfig): StationId[] {
  // Validation fills in every seat's station (`seat-N` on simulated hardware).
  return [...new Set(config.tables.flatMap((table) => table.seats.map((seat) => seat.station)))];
}

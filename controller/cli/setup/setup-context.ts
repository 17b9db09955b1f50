/**
 * What both set-up commands do before and after their flow: load the configuration, open the hardware,
 * wait for the station(s), and on the way out close the ports and remove the Ctrl-C handler.
 */
import { formatConfigError, loadConfig, type ZaptableConfig } from '../../config/index.ts';
import type { SensorEvent, SerialStationHealth, SimulatedStationConfig, SimulatedTable, StationId } from '../../hardware/index.ts';
import type { Scheduler } from '../../runtime/ports.ts';
import type { Output } from '../output.ts';
import { interruptController } from './interrupt.ts';
import { afterScheduler, openHardware, REAL_TIME, waitForStations, type SetupHardware, type SetupTime } from './setup-hardware.ts';

/** What tests inject: virtual time and an abort signal standing in for Ctrl-C. */
export interface SetupDeps {
  readonly time?: SetupTime;
  readonly signal?: AbortSignal;
  /** Seed of the scripted person's tags. Default `1`. */
  readonly seed?: string;
  /** Settings of the simulated stations beyond the defaults (a weak reader's `readRangeMm`, say). */
  readonly simulatedStation?: Partial<SimulatedStationConfig>;
  /** Hands a test the simulated table once it is open, to act on it as a person would. */
  readonly onSimulatedTable?: (table: SimulatedTable) => void;
}

/** Loads the configuration; prints every error and returns undefined when it is not valid. */
export function configFor(file: string | undefined, io: Output, command: string): ZaptableConfig | undefined {
  const loaded = loadConfig({ ...(file === undefined ? {} : { file }), generateSecrets: false });
  if (loaded.ok) return loaded.config;
  for (const error of loaded.errors) io.err(formatConfigError(error, loaded.file));
  io.err(`zaptable ${command}: the configuration is not valid`);
  return undefined;
}

export interface Session {
  readonly hardware: SetupHardware;
  readonly time: SetupTime;
  readonly scheduler: Scheduler;
  readonly signal: AbortSignal;
  /** Stops the flow as Ctrl-C does. */
  interrupt(): void;
  /** Forwards sensor events until `close()`. */
  onEvent(listener: (event: SensorEvent) => void): void;
  close(): Promise<void>;
}

export interface OpenSession {
  readonly config: ZaptableConfig;
  readonly simulate: boolean;
  readonly simulatedStations: readonly StationId[];
  readonly simulatedCalibrated: boolean;
  readonly deps: SetupDeps;
  readonly io: Output;
}

export async function openSession(o: OpenSession): Promise<Session> {
  const time = o.deps.time ?? REAL_TIME;
  const interrupt = interruptController(o.deps.signal, o.deps.signal === undefined);
  const hardware = openHardware(o.config, {
    simulate: o.simulate, simulatedStations: o.simulatedStations, simulatedCalibrated: o.simulatedCalibrated, time, io: o.io,
    ...(o.deps.simulatedStation === undefined ? {} : { simulatedStation: o.deps.simulatedStation }),
  });
  const unsubscribers: (() => void)[] = [];
  await hardware.stations.start();
  if (hardware.table !== undefined) o.deps.onSimulatedTable?.(hardware.table);
  return {
    hardware, time, scheduler: afterScheduler(time), signal: interrupt.signal, interrupt: () => {
      interrupt.abort();
    },
    onEvent(listener) {
      unsubscribers.push(hardware.stations.onEvent(listener));
    },
    async close() {
      for (const u of unsubscribers) u();
      interrupt.dispose();
      await hardware.stop();
    },
  };
}

/**
 * Waits for stations to come online: `wanted` by id, or else every seat station that announces itself
 * within the banner wait. Returns those online, in id order. Only seats have a scale; a pile station's
 * reader is as good as any for enrolling cards (`pile: true`).
 */
export async function onlineSeats(
  session: Session, wanted: readonly StationId[] | undefined, waitMs: number, pile = false,
): Promise<StationId[]> {
  const seats = (health: readonly SerialStationHealth[]): SerialStationHealth[] =>
    health.filter((h) => h.online && (h.kind === 'seat' || pile));
  const ready = wanted === undefined
    ? () => false // unknown stations: give every board its banner wait
    : (health: readonly SerialStationHealth[]) => wanted.every((id) => seats(health).some((h) => h.station === id));
  const health = await Promise.race([
    waitForStations(session.hardware.stations, ready, waitMs, session.scheduler),
    aborted(session.signal).then(() => []),
  ]);
  const online = seats(health).map((h) => h.station).sort();
  return wanted === undefined ? online : wanted.filter((id) => online.includes(id));
}

/** Resolves when `signal` aborts. */
export function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => {
      resolve();
    }, { once: true });
  });
}

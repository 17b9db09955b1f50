/**
 * Faults the fairness benchmark injects to show it can fail (issue 16 item 5), by wrapping the hardware the
 * composition root is handed: the serial driver, the runtimes and the engines stay the production code, but
 * what the tables receive is broken in one known way. (The batch window and the power-up allowance are
 * configuration values: table-rig.ts `ConfigFaults`.)
 */
import type { Clock, EventTime, SensorEvent, TableHardware } from '../../hardware/interface.ts';

export interface HardwareFaults {
  /** The slap matcher drops cards: a tag arrival dated by a slap never reaches the table. */
  readonly dropSlapCards?: boolean;
  /** Every interval (sensor allowance and clock-mapping uncertainty) scaled by this factor (0.85: 15 % narrower). */
  readonly intervalScale?: number;
  /** Arbitration by arrival order: every event is dated exactly at its arrival, with no interval. */
  readonly arrivalOrder?: boolean;
}

function faultyTime(time: EventTime, faults: HardwareFaults, arrivalUs: number): EventTime {
  if (faults.arrivalOrder === true) return { ...time, hostUs: arrivalUs, uncertaintyUs: 0, beforeUs: 0, afterUs: 0 };
  const k = faults.intervalScale ?? 1;
  if (k === 1) return time;
  return { ...time, uncertaintyUs: time.uncertaintyUs * k, beforeUs: time.beforeUs * k, afterUs: time.afterUs * k };
}

function faultyEvent(event: SensorEvent, faults: HardwareFaults, arrivalUs: number): SensorEvent | undefined {
  if (event.kind === 'tag-arrived') {
    if (faults.dropSlapCards === true && event.slap !== undefined) return undefined;
    const slapTime = event.slap && faultyTime(event.slap.time, faults, arrivalUs);
    const slap = event.slap === undefined || slapTime === undefined ? {} : { slap: { ...event.slap, time: slapTime } };
    return { ...event, time: faultyTime(event.time, faults, arrivalUs), ...slap };
  }
  return { ...event, time: faultyTime(event.time, faults, arrivalUs) };
}

/** The hardware with `faults` applied to every sensor event; the hardware itself when there are none. */
export function withFaults(hardware: TableHardware, clock: Clock, faults: HardwareFaults): TableHardware {
  if (faults.dropSlapCards !== true && faults.arrivalOrder !== true && (faults.intervalScale ?? 1) === 1) return hardware;
  return {
    start: async () => hardware.start(),
    stop: async () => hardware.stop(),
    health: () => hardware.health(),
    setLamp: async (station, pattern) => hardware.setLamp(station, pattern),
    onHealth: (listener) => hardware.onHealth(listener),
    onEvent: (listener) => hardware.onEvent((event) => {
      const faulty = faultyEvent(event, faults, clock.nowUs());
      if (faulty !== undefined) listener(faulty);
    }),
  };
}

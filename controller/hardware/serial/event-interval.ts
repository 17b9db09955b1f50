/**
 * The interval in which the physical thing behind an event line happened, around its device stamp (design
 * principle 4; docs/timing.md §3). Pure: the firmware's stamping points (hardware/protocol.md) and the
 * physical allowances below are all it knows.
 *
 * Every figure is a bound the hardware must not exceed, not a typical value: a tie is honest only if the
 * true time is always inside. Widths are in device µs and apply before the clock mapping's own uncertainty.
 */
import type { EventMessage } from '../../protocol/index.ts';

/** The physical allowances behind the intervals (µs). */
export interface SensorTiming {
  /**
   * Longest delay from an edge (button, slap sensor) to its `micros()` stamp in the interrupt. The firmware
   * turns interrupts off for about 1 µs per HX711 clock pulse only (firmware/src/hx711.h: never for the whole
   * 25-pulse read, which would stretch a pulse past the HX711's 60 µs power-down limit), so the delay is
   * another interrupt running or queued ahead (serial, timer 0: a few µs each) plus the 4 µs step of
   * `micros()`: ~10 µs expected (hardware/protocol.md, *Time*). The default 80 µs leaves a wide margin.
   */
  readonly isrLatencyUs: number;
  /**
   * Longest time a tag needs after entering the field before it answers a poll: the tag's power-up and
   * reset. A tag already there at the last poll that missed it may have been powering up.
   */
  readonly tagPowerUpUs: number;
  /**
   * Protocol 1 (firmware 0.1–0.2) sends `TAG±` without a window: the longest inventory cycle period it has
   * (13 tags with 7-byte UIDs on a seat: ~132 ms, hardware/protocol.md *RFID timing*) with margin.
   */
  readonly legacyTagCycleUs: number;
  /**
   * How long before a settled weight's stamp the load may have come to rest: the stability filter's window
   * (5 samples of the HX711 at 10 samples/s) plus one sample interval.
   */
  readonly weightWindowUs: number;
}

export const DEFAULT_SENSOR_TIMING: SensorTiming = {
  isrLatencyUs: 80,
  tagPowerUpUs: 5_000,
  legacyTagCycleUs: 150_000,
  weightWindowUs: 600_000,
};

/** Where the physical thing lies around the stamp `t`: in device time `[t − beforeUs, t + afterUs]`. */
export interface SensorInterval {
  readonly beforeUs: number;
  readonly afterUs: number;
}

/** The interval of one event line (every stamp is taken after the thing it stamps, so `afterUs` is 0). */
export function eventInterval(message: EventMessage, timing: SensorTiming = DEFAULT_SENSOR_TIMING): SensorInterval {
  switch (message.event) {
    case 'BTN+':
    case 'BTN-':
    case 'SLAP':
      return { beforeUs: timing.isrLatencyUs, afterUs: 0 };
    case 'TAG+':
      // Arrived after the last poll that got no answer from it, less its power-up: it may have been there,
      // still waking up. Protocol 1: somewhere in the last inventory cycle.
      return { beforeUs: (message.windowUs ?? timing.legacyTagCycleUs) + timing.tagPowerUpUs, afterUs: 0 };
    case 'TAG-':
      // Left after the last check it answered. Protocol 1 stamps the end of the first of two missed cycles:
      // the last read can lie up to two cycles back.
      return { beforeUs: message.windowUs ?? 2 * timing.legacyTagCycleUs, afterUs: 0 };
    case 'W':
      return { beforeUs: timing.weightWindowUs, afterUs: 0 };
    case 'FAULT+':
    case 'FAULT-':
      // Health, not a physical happening anyone orders; the stamp is when the firmware noticed.
      return { beforeUs: 0, afterUs: 0 };
  }
}

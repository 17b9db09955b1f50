/**
 * When something happened at the table: the one declaration of an event's time (docs/timing.md §3). The
 * hardware layer produces it, the buzzer ranks presses by it, the event log stores it column by column.
 *
 * Every event carries its time twice — as the station stamped it (`deviceUs`, unwrapped, comparable only
 * within one station boot = `epoch`) and mapped to the controller's monotonic clock (`hostUs`) with the half
 * width of the interval that holds the true time (`uncertaintyUs`) — plus the sensor's own interval around
 * the stamp (`beforeUs`, `afterUs`). Pure type, no code.
 */

/** Where an event's time comes from. */
export type TimeSource = 'device' | 'host';

/** When something happened. */
export interface EventTime {
  /** 'device': stamped by the station's firmware with micros(); 'host': stamped by the controller on arrival. */
  readonly source: TimeSource;
  /** The station boot the stamp belongs to (increments when a station restarts). Host-stamped: 0. */
  readonly epoch: number;
  /** Unwrapped device time in µs (host-stamped: equal to hostUs). */
  readonly deviceUs: number;
  /** The raw 32-bit `micros()` value from the line, for the log and disputes (host-stamped: undefined). */
  readonly rawUs?: number;
  /** Controller monotonic time in µs. */
  readonly hostUs: number;
  /** Half width in µs of the interval holding the true controller time; Infinity before the first sync. */
  readonly uncertaintyUs: number;
  /**
   * The sensor's own interval around the stamp (docs/timing.md §3): the physical thing happened in device time
   * `[deviceUs − beforeUs, deviceUs + afterUs]`, before the clock mapping's `uncertaintyUs` is added on both
   * sides. A button or slap: its interrupt latency; a tag's arrival: the window since the last poll that did
   * not see it, plus the tag's power-up time; a tag's departure: the window since the last read that saw it; a
   * settled weight: the filter window. Device µs, finite, ≥ 0. Host-stamped sources (the johnny-five hub) set
   * both to 0: their whole latency interval is already `hostUs ± uncertaintyUs` on the controller's clock.
   */
  readonly beforeUs: number;
  /** How long after the stamp the physical thing may have happened (device µs, finite, ≥ 0; see `beforeUs`). */
  readonly afterUs: number;
}

/**
 * Host timestamps for the buzzer hub, with an honest uncertainty (design principle 4). Pure.
 *
 * StandardFirmata carries no time: the hub stamps a button change with `clock.nowUs()` when the Firmata
 * DIGITAL_MESSAGE reaches JavaScript (firmata-io parses it and calls the pin's digitalRead callback in the
 * same tick as the serial 'data' event; there is no earlier point to hook). The press happened some time
 * before that, within [minLatency, maxLatency]. The event reports the middle of that interval and its half
 * width, so the interval holds the true time whenever the latency bounds hold.
 *
 * The path of one report, edge → stamp (defaults: StandardFirmata on an Uno R3, docs/buzzer-hub.md; the
 * measured figures come from `npx tsx test/firmata/measure-host-delay.ts`, the real StandardFirmata in
 * avr8js on a pty, the hub on its production path):
 * 1. Scan: StandardFirmata checks the digital inputs once per `loop()`, not per `samplingInterval` (the
 *    19 ms interval only paces analog and I²C reads, whose block lengthens the loop it falls in). An edge
 *    waits up to one loop: [0, inputScanUs]. Measured: a loop every 15 µs; edge → first byte ≤ 29 µs.
 * 2. Backlog: the report waits behind bytes already in the AVR's serial TX buffer (64 bytes; `Serial.write`
 *    blocks when full), i.e. behind other reports when another button is bouncing or pressed at the same
 *    time: [0, k · transfer], k counted from the reports that arrived just before (see `ReportWindow`).
 * 3. Transfer: 3 bytes × 10 bits (8N1). StandardFirmata asks for 57600 baud, which the Arduino core runs at
 *    16 MHz / 16 / 17 = 58 824 baud (its special case for 57600, +2.1 %): 510 µs, always (measured 510).
 * 4. Bridge: the Uno's ATmega16U2 (Arduino-usbserial) forwards UART bytes to USB when its flush timer
 *    overflows: timer 0 at 16 MHz / 256, 8 bits → every 4096 µs: [0, bridgeFlushUs]. (An FTDI FT232's
 *    default latency timer is 16 ms: set `bridgeFlushUs` accordingly, or lower the timer.)
 * 5. USB: a full-speed bulk IN endpoint is polled once per 1 ms frame: [0, usbFrameUs].
 * 6. Host: kernel tty, libuv, serialport, firmata-io and the event loop until the callback runs:
 *    [0, eventLoopUs]. Scheduling has no hard bound; this is a measured allowance, not a physical one. On a
 *    shared 2-vCPU machine at load average 8–25, pty write → stamp took p99 33–97 ms, max 41–139 ms, and
 *    50 ms held for 93–100 % of edges (docs/buzzer-hub.md quotes each run with its load). A controller that
 *    stalls longer (GC, synchronous work, a starved CPU) stamps that much later: its intervals lie — which
 *    the running controller reports (host-delay-monitor.ts: p99 on bridge/health, a warning per edge).
 * johnny-five's Button debounce (7 ms, trailing) is not on this path: the hub reads the raw pin callback and
 * debounces itself, stamping the first edge of a change; debouncing delays the event, not its stamp.
 */
import type { EventTime } from '../interface.ts';

/** The latency bounds of one digital report, all in µs except `baud`. */
export interface LatencyModel {
  /** Longest time an edge waits for the firmware to scan the inputs (one Firmata `loop()`). */
  readonly inputScanUs: number;
  /** Serial baud rate; 0 = no serial link (e.g. a Raspberry Pi GPIO IO plugin: set the bridge/USB terms to 0 too). */
  readonly baud: number;
  /** The firmware's serial TX buffer in bytes: the most a report can queue behind. */
  readonly txBufferBytes: number;
  /** Longest time the USB-serial bridge holds received bytes before sending them over USB. */
  readonly bridgeFlushUs: number;
  /** Longest wait for the host's next poll of the USB endpoint (one full-speed frame). */
  readonly usbFrameUs: number;
  /** Allowance for kernel, libuv and event-loop delay until the IO callback runs (measured, item 6). */
  readonly eventLoopUs: number;
}

/** StandardFirmata on an Uno R3 (ATmega16U2 bridge) at 57600 baud; see the file comment for each number. */
export const DEFAULT_FIRMATA_LATENCY: LatencyModel = {
  // Measured ≤ 29 µs (a loop every 15 µs, a lamp blinking meanwhile); the margin covers the 19 ms sampling
  // block and the processing of a burst of lamp/piezo writes from the host in the same loop.
  inputScanUs: 500,
  // What the AVR's USART really runs when StandardFirmata asks for 57600 (the wire time follows it).
  baud: 58_824,
  txBufferBytes: 64,
  bridgeFlushUs: 4096,
  usbFrameUs: 1000,
  // Measured, not derived: see item 6 above (and `hardware.buzzerHub.hostDelayMs` to change it).
  eventLoopUs: 50_000,
};

/** A Firmata DIGITAL_MESSAGE: command + port, then the port's 8 bits in two 7-bit bytes. */
export const FIRMATA_DIGITAL_MESSAGE_BYTES = 3;
/** 8N1: start bit, 8 data bits, stop bit. */
const BITS_PER_BYTE = 10;

/** Time on the wire of one digital report (µs); 0 without a serial link. */
export function reportTransferUs(model: LatencyModel): number {
  return model.baud > 0 ? (FIRMATA_DIGITAL_MESSAGE_BYTES * BITS_PER_BYTE * 1e6) / model.baud : 0;
}

/** The most reports that can wait ahead of another one in the firmware's TX buffer. */
export function maxQueuedReports(model: LatencyModel): number {
  return model.baud > 0 ? Math.floor(model.txBufferBytes / FIRMATA_DIGITAL_MESSAGE_BYTES) : 0;
}

/** Bounds (µs) of edge → stamp for a report with `queuedAhead` reports possibly ahead of it. */
export function latencyBounds(model: LatencyModel, queuedAhead: number): { minUs: number; maxUs: number } {
  const transferUs = reportTransferUs(model);
  const backlogUs = Math.min(Math.max(queuedAhead, 0), maxQueuedReports(model)) * transferUs;
  return {
    minUs: transferUs,
    maxUs: model.inputScanUs + backlogUs + transferUs + model.bridgeFlushUs + model.usbFrameUs + model.eventLoopUs,
  };
}

/**
 * How far back (µs) a report that was ahead of another one in the TX buffer can have arrived: it left the
 * wire at most a full buffer plus one transfer before the later one did, and the later one took at most
 * bridge + USB + event loop after the wire. Reports that arrived earlier were not queued ahead of it.
 */
export function backlogWindowUs(model: LatencyModel): number {
  const transferUs = reportTransferUs(model);
  return maxQueuedReports(model) * transferUs + transferUs + model.bridgeFlushUs + model.usbFrameUs + model.eventLoopUs;
}

/** The event time of a report stamped at `arrivalUs`: the middle of the latency interval and its half width. */
export function hostEventTime(arrivalUs: number, bounds: { minUs: number; maxUs: number }): EventTime {
  const exact = arrivalUs - (bounds.minUs + bounds.maxUs) / 2;
  const hostUs = Math.round(exact);
  // Rounding moves the centre by up to 0.5 µs: widen by that, and round the width up, so the interval
  // still holds everything the bounds allow.
  const uncertaintyUs = Math.ceil((bounds.maxUs - bounds.minUs) / 2 + Math.abs(hostUs - exact));
  // The whole latency interval is on the controller's own clock, so it is all in `uncertaintyUs`; there is no
  // device stamp for a sensor interval to extend (docs/timing.md §3).
  return { source: 'host', epoch: 0, deviceUs: hostUs, hostUs, uncertaintyUs, beforeUs: 0, afterUs: 0 };
}

/**
 * Arrival times of the hub's reports over the last `backlogWindowUs`, one entry per Firmata message (all
 * ports share the TX buffer). `queuedAhead(now)` is an upper bound on the reports that could have been
 * ahead of the one arriving now: every report of the window except the newest (the current one).
 */
export class ReportWindow {
  private readonly arrivals: number[] = [];

  constructor(private readonly windowUs: number) {}

  /** Records a report that arrived at `arrivalUs` (non-decreasing). */
  record(arrivalUs: number): void {
    this.arrivals.push(arrivalUs);
    while (this.arrivals.length > 0 && (this.arrivals[0] ?? arrivalUs) < arrivalUs - this.windowUs) this.arrivals.shift();
  }

  /** Reports of the window before the newest one. */
  queuedAhead(): number {
    return Math.max(this.arrivals.length - 1, 0);
  }
}

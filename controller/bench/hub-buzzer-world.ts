/**
 * The johnny-five buzzer hub's physical side for the fairness benchmark: a press on a button of a
 * StandardFirmata board becomes 3-byte digital reports (one per level change a scan sees, bounce included)
 * that queue in the board's TX buffer, cross the 57600-baud wire and wait for the USB-serial bridge's flush.
 * From there the host side is the seat stations' own (bench/sim/simulated-host.ts, either link model),
 * and the hub stamps exactly as `BuzzerHub` does: `ReportWindow` counts the reports that may be queued ahead,
 * `hostEventTime(arrival, latencyBounds(…))` states the interval (hardware/buzzer-hub/host-timestamp.ts).
 * So the stated interval is checked against a world it did not write: if the host is slower than the
 * hub's `eventLoopUs` assumption, the true press falls outside and shows up here.
 */
import {
  DEFAULT_FIRMATA_LATENCY, ReportWindow, backlogWindowUs, hostEventTime, latencyBounds, reportTransferUs, type LatencyModel,
} from '../hardware/buzzer-hub/host-timestamp.ts';
import type { EventTime } from '../hardware/interface.ts';
import { SeededRandom } from '../kernel/random.ts';
import { deliverToHost } from './sim/simulated-host.ts';
import type { LinkModel } from './sim/simulated-link.ts';

/**
 * The board and the button as they are: the world the hub's stated latency model (`LatencyModel`) is judged
 * against, kept apart from it so that a wrong statement shows.
 */
export interface HubWorldModel {
  /** The Firmata serial rate, bits/s (10 bits a byte). */
  readonly baud: number;
  /** The USB-serial bridge's flush period (the Uno's 16U2: timer 0 overflow, 4096 µs), on its own grid. */
  readonly bridgeFlushUs: number;
  /** One Firmata `loop()` (the digital scan period), µs: drawn per pair. The stated bound is `inputScanUs`. */
  readonly loopUs: readonly [number, number];
  /** Contact bounce after the first edge, µs. */
  readonly bounceUs: readonly [number, number];
  /** Chance that a scan during the bounce reads the contact closed. */
  readonly bounceClosedChance: number;
}

export const DEFAULT_HUB_WORLD: HubWorldModel = {
  baud: 57_600, bridgeFlushUs: 4096, loopUs: [50, 500], bounceUs: [1000, 3000], bounceClosedChance: 0.6,
};

/** Two buttons of one hub (one serial stream), or one button on each of two hubs (two streams, one host). */
export type HubLayout = 'one-hub' | 'two-hubs';

/** One press as the hub stamped it. */
export interface HubPress {
  readonly trueUs: number;
  readonly time: EventTime;
  readonly arrivalUs: number;
}

interface Report {
  readonly hub: number;
  /** When the bridge handed it to USB. */
  readonly flushedUs: number;
  /** The press it stamps (its first report showing the button pressed), else -1. */
  readonly press: number;
}

const PAIR_SPACING_US = 200_000;

/**
 * Simulates `pairs` press pairs at each separation; returns, per separation, the two presses of every pair
 * (the truly earlier first) as the hub stamped them.
 */
export function simulateHubPairs(
  seed: string, link: LinkModel, layout: HubLayout, separationsUs: readonly number[], pairs: number,
  latency: LatencyModel = DEFAULT_FIRMATA_LATENCY, world: HubWorldModel = DEFAULT_HUB_WORLD,
): HubPress[][][] {
  const rng = new SeededRandom(`buzzer-hub:${layout}:${link.name}:${seed}`);
  const transfer = reportTransferUs({ ...latency, baud: world.baud });
  const hubs = layout === 'one-hub' ? 1 : 2;
  const bridgePhase = Array.from({ length: hubs }, () => rng.uniform(0, world.bridgeFlushUs));
  const txFree = Array.from({ length: hubs }, () => -Infinity);
  const reports: Report[] = [];
  const truth: number[] = [];
  const plan: { sep: number; presses: [number, number] }[] = [];
  let t = 1_000_000;
  for (const sep of separationsUs) {
    for (let i = 0; i < pairs; i++) {
      t += PAIR_SPACING_US;
      const times = [t + rng.uniform(0, 10_000), 0];
      times[1] = (times[0] as number) + sep;
      // One loop period and phase per hub for this pair (the scan is the same loop for both buttons of a hub).
      const loops = Array.from({ length: hubs }, () => {
        const loop = rng.uniform(world.loopUs[0], world.loopUs[1]);
        return { loop, phase: rng.uniform(0, loop) };
      });
      const pending: { hub: number; scanUs: number; press: number; pin: number }[] = [];
      // Which button has the lower pin (reported first when both change in one scan): either.
      const pins = rng.chance(0.5) ? [0, 1] : [1, 0];
      const ids: number[] = [];
      times.forEach((edge, k) => {
        const hub = hubs === 1 ? 0 : k;
        const { loop, phase } = loops[hub] as { loop: number; phase: number };
        const press = truth.length;
        truth.push(edge);
        ids.push(press);
        // Scans from the first edge: during the bounce a scan may read the contact open or closed; a report
        // goes out for every change seen. The first report showing it pressed is the one the hub stamps.
        const bounceEnd = edge + rng.uniform(world.bounceUs[0], world.bounceUs[1]);
        let closed = false;
        let stamped = false;
        for (let scan = phase + Math.ceil((edge - phase) / loop) * loop; ; scan += loop) {
          const level = scan >= bounceEnd || rng.chance(world.bounceClosedChance);
          if (level !== closed) {
            pending.push({ hub, scanUs: scan, press: level && !stamped ? press : -1, pin: pins[k] as number });
            stamped ||= level;
            closed = level;
          }
          if (scan >= bounceEnd && closed) break;
        }
      });
      plan.push({ sep, presses: [ids[0] as number, ids[1] as number] });
      // In scan order through each hub's TX buffer (reports of one scan leave in pin order).
      pending.sort((a, b) => a.scanUs - b.scanUs || a.pin - b.pin);
      for (const r of pending) {
        const wireEnd = Math.max(r.scanUs, txFree[r.hub] as number) + transfer;
        txFree[r.hub] = wireEnd;
        const ph = bridgePhase[r.hub] as number;
        const flushedUs = ph + Math.ceil((wireEnd - ph) / world.bridgeFlushUs) * world.bridgeFlushUs;
        reports.push({ hub: r.hub, flushedUs, press: r.press });
      }
    }
  }
  // Per hub in order (FIFO), through the host: the seat stations' link model.
  reports.sort((a, b) => a.hub - b.hub || a.flushedUs - b.flushedUs);
  const arrivals = deliverToHost(rng, link, {
    port: reports.map((r) => r.hub), wireEndUs: reports.map((r) => r.flushedUs),
  }, { framePhaseUs: rng.uniform(0, link.serial.usbFrameUs), flushed: true });
  // The hub's own stamping, in arrival order per hub (BuzzerHub.onReading).
  const order = reports.map((_, i) => i).sort((a, b) => (arrivals[a] as number) - (arrivals[b] as number) || a - b);
  const windows = Array.from({ length: hubs }, () => new ReportWindow(backlogWindowUs(latency)));
  const stamped: (HubPress | undefined)[] = truth.map(() => undefined);
  for (const i of order) {
    const r = reports[i] as Report;
    const arrivalUs = arrivals[i] as number;
    const window = windows[r.hub] as ReportWindow;
    window.record(arrivalUs);
    if (r.press >= 0) {
      stamped[r.press] = {
        trueUs: truth[r.press] as number, arrivalUs, time: hostEventTime(arrivalUs, latencyBounds(latency, window.queuedAhead())),
      };
    }
  }
  return separationsUs.map((sep) => plan.filter((p) => p.sep === sep).map((p) => p.presses.map((id) => {
    const s = stamped[id];
    if (s === undefined) throw new Error('hub bench: a press was never reported');
    return s;
  })));
}

/**
 * `zaptable bench venue` (issue 19 item 6): a venue on this machine, as docs/venue.md and
 * docs/venue-broadcast.md set it up, with its audience:
 *
 * - the venue Mosquitto, N controller processes (`zaptable start`, M simulated tables each played by bots) and
 *   the venue dashboard process (`zaptable dashboard`, its own account);
 * - a public Mosquitto bridged from the venue's (the texts `zaptable mosquitto-config bridge|public` print),
 *   with a WebSocket listener;
 * - the audience: V venue MQTT viewers in this process (every table's events; also the reference for what was
 *   published), D WebSocket viewers on the dashboard's `/live` and P anonymous mqtt.js viewers over `ws://` on
 *   the public broker, the last two in child processes of their own (venue/viewer-process.ts).
 *
 * Over S seconds after a warm-up it measures, for each kind of viewer, sensor → viewer latency (receipt minus
 * the event's `at`: when the card or barrel landed, on the controller's clock after clock sync; one machine,
 * one clock) over every (event, viewer) delivery, and **lost deliveries**: every viewer must get every event
 * of the tables it follows (venue/deliveries.ts); a lost one fails the step. And the CPU and memory of every
 * process (venue/process-figures.ts), so that a reader sees when the 2 cores themselves were the limit.
 *
 * Loopback only: what a real venue adds (Wi-Fi, Pis, the internet to the public broker) is not in these figures.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { freeLoopbackPort } from './mosquitto.ts';
import { startVenueBrokers, VENUE_BASE, VIEWER_USER, type VenueBrokers } from './venue/brokers.ts';
import type { DeliveryTally } from './venue/deliveries.ts';
import { meanFigures, ProcessWindow, type ProcessFigures } from './venue/process-figures.ts';
import { rangesBetween, startViewerGroup, VenueViewers, type LatencyByType, type ViewerGroup } from './venue/viewers.ts';
import { buildBundle } from './memory-bench.ts';
import {
  controllerAccounts, startControllers, startVenueDashboard, venueTables, type VenueShape, type ZaptableProcess,
} from './venue/zaptable-processes.ts';

export type { ProcessFigures } from './venue/process-figures.ts';

/** A fault the bench injects on purpose (to see it report lost deliveries), or none. */
export type VenueFault = 'bridge-cut';

export interface VenueBenchOptions extends VenueShape {
  /** MQTT viewers on the venue broker (this process), each following every table. */
  readonly venueViewers: number;
  /** WebSocket viewers on the venue dashboard's `/live` (a child process). */
  readonly dashboardViewers: number;
  readonly dashboardFollow: 'all' | 'one';
  /** Anonymous MQTT-over-WebSocket viewers on the public broker (a child process). */
  readonly publicViewers: number;
  readonly publicFollow: 'all' | 'one';
  readonly seconds: number;
  readonly warmupSeconds: number;
  /** How long after the window the last events may still arrive before they count as lost (default 5 s). */
  readonly graceSeconds?: number;
  readonly fault?: VenueFault;
}

/** What one kind of viewer got. */
export interface ViewerFigures extends DeliveryTally {
  /** Connections closed during the run (a viewer dropped by a server, or a broker). */
  readonly closes: number;
  /** Connection attempts refused or dropped while the viewers connected (each tried again until it got in). */
  readonly connectErrors: number;
  /** Every message these viewers received in the window (states, events, statuses…), per second. */
  readonly messagesPerSecond: number;
}

export interface VenueBenchFigures {
  readonly controllers: number;
  readonly tables: number;
  readonly seconds: number;
  /** Events the controllers published in the window (per table seq ranges, summed). */
  readonly events: number;
  readonly venueViewers: ViewerFigures;
  readonly dashboardViewers: ViewerFigures;
  readonly publicViewers: ViewerFigures;
  /** One venue viewer's latency by event type: where the tail comes from. */
  readonly venueByType: LatencyByType;
  readonly venueBroker: ProcessFigures;
  readonly publicBroker: ProcessFigures;
  readonly dashboard: ProcessFigures;
  readonly controllersEach: readonly ProcessFigures[];
  readonly controllerMean: ProcessFigures;
  readonly dashboardViewerProcess: ProcessFigures;
  readonly publicViewerProcess: ProcessFigures;
  /** This process: the venue viewers and the bench's bookkeeping. */
  readonly bench: ProcessFigures;
  /** The 1-, 5- and 15-minute load averages at the end of the window. */
  readonly load: readonly number[];
  readonly fault?: VenueFault;
  readonly startMs: number;
}

const sleep = async (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
/** How long the `bridge-cut` fault keeps the public link down, in the middle of the window. */
const CUT_MS = 2000;

function viewerFigures(group: ViewerGroup, tallied: Awaited<ReturnType<ViewerGroup['tally']>>, seconds: number): ViewerFigures {
  return {
    ...tallied.tally, closes: tallied.closes, connectErrors: group.connectErrors, messagesPerSecond: tallied.messages / seconds,
  };
}

/** Runs one step (N controllers) and returns its figures; every process and file is gone afterwards. */
export async function runVenueBench(
  options: VenueBenchOptions, progress: (text: string) => void = () => undefined,
): Promise<VenueBenchFigures> {
  const dir = mkdtempSync(path.join(tmpdir(), 'zaptable-bench-venue-'));
  const step = `${options.controllers} x ${options.tablesPerController}`;
  const tables = venueTables(options);
  // Everything started so far, for the `finally` to stop whatever a failure left running.
  const owned: { brokers?: VenueBrokers; processes: ZaptableProcess[]; groups: ViewerGroup[]; venue?: VenueViewers } = {
    processes: [], groups: [],
  };
  try {
    progress(`${step}: building dist/ (the controllers and the dashboard run from it, as on a Pi)`);
    buildBundle('venue');
    progress(`${step}: starting the brokers`);
    const brokers = await startVenueBrokers(controllerAccounts(options), options.fault);
    owned.brokers = brokers;
    progress(`${step}: starting ${options.controllers} controller(s) and the venue dashboard`);
    const started = performance.now();
    const [controllers, dashboard] = await Promise.all([
      startControllers(dir, options, brokers.venue.url),
      freeLoopbackPort().then(async (port) => startVenueDashboard(dir, options, brokers.venue.url, port)),
    ]);
    owned.processes.push(...controllers, dashboard);
    const startMs = performance.now() - started;
    progress(`${step}: connecting ${options.venueViewers} venue, ${options.dashboardViewers} dashboard and ${options.publicViewers} public viewers`);
    const venue = await VenueViewers.start(brokers.venue.url, VIEWER_USER, VENUE_BASE, options.venueViewers);
    owned.venue = venue;
    const dashboardGroup = await startViewerGroup({
      kind: 'dashboard', url: dashboard.url, baseTopic: VENUE_BASE, tables, viewers: options.dashboardViewers, follow: options.dashboardFollow,
    });
    owned.groups.push(dashboardGroup);
    const publicGroup = await startViewerGroup({
      kind: 'public', url: brokers.public.wsUrl, baseTopic: VENUE_BASE, tables, viewers: options.publicViewers, follow: options.publicFollow,
    });
    owned.groups.push(publicGroup);

    progress(`${step}: warming up ${options.warmupSeconds} s`);
    await sleep(options.warmupSeconds * 1000);
    const window = new ProcessWindow(new Map<string, number>([
      ['venueBroker', brokers.venue.pid ?? 0], ['publicBroker', brokers.public.pid ?? 0], ['dashboard', dashboard.pid],
      ['dashboardViewers', dashboardGroup.pid], ['publicViewers', publicGroup.pid], ['bench', process.pid],
      ...controllers.map((c, i) => [`controller-${i}`, c.pid] as const),
    ]));
    window.start();
    const opened = venue.snapshot(tables);
    venue.takeMessages();
    dashboardGroup.mark();
    publicGroup.mark();
    const windowStart = performance.now();
    progress(`${step}: measuring ${options.seconds} s${options.fault === undefined ? '' : ` (fault: ${options.fault})`}`);
    if (options.fault === 'bridge-cut' && brokers.cutBridge !== undefined) {
      await sleep(Math.max(0, (options.seconds * 1000 - CUT_MS) / 2));
      progress(`${step}: measuring; the public link is cut for ${CUT_MS / 1000} s (fault)`);
      await brokers.cutBridge(CUT_MS);
    }
    await sleep(Math.max(0, options.seconds * 1000 - (performance.now() - windowStart)));
    const figures = window.end();
    const closed = venue.snapshot(tables);
    const venueMessages = venue.takeMessages();
    const load = loadavg();
    const seconds = (performance.now() - windowStart) / 1000;
    const ranges = rangesBetween(opened, closed);
    progress(`${step}: counting every viewer's deliveries`);
    const graceMs = (options.graceSeconds ?? 5) * 1000;
    const [venueTally, dashboardTally, publicTally] = await Promise.all([
      venue.tally(ranges, graceMs), dashboardGroup.tally(ranges, graceMs), publicGroup.tally(ranges, graceMs),
    ]);
    const each = controllers.map((_, i) => figures.get(`controller-${i}`) as ProcessFigures);
    const get = (key: string): ProcessFigures => figures.get(key) as ProcessFigures;
    return {
      controllers: options.controllers, tables: tables.length, seconds,
      events: Object.values(ranges).reduce((sum, [from, to]) => sum + to - from, 0),
      venueViewers: { ...venueTally, closes: 0, connectErrors: 0, messagesPerSecond: venueMessages / seconds },
      dashboardViewers: viewerFigures(dashboardGroup, dashboardTally, seconds),
      publicViewers: viewerFigures(publicGroup, publicTally, seconds),
      venueByType: venue.byType(ranges),
      venueBroker: get('venueBroker'), publicBroker: get('publicBroker'), dashboard: get('dashboard'),
      controllersEach: each, controllerMean: meanFigures(each),
      dashboardViewerProcess: get('dashboardViewers'), publicViewerProcess: get('publicViewers'), bench: get('bench'),
      load, ...(options.fault === undefined ? {} : { fault: options.fault }), startMs,
    };
  } finally {
    for (const group of owned.groups) group.stop();
    await owned.venue?.close();
    await Promise.all(owned.processes.map(async (p) => p.stop()));
    await owned.brokers?.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The goals of issue 19 (at 8 controllers x 2 tables on this machine). */
export const VENUE_GOALS = { venueP99Ms: 50, publicP99Ms: 150 } as const;

/**
 * The verdict of one step: every delivery made (0 lost) and the p99 goals, venue viewers (MQTT and the
 * dashboard's) ≤ 50 ms and public viewers ≤ 150 ms. NaN (no delivery at all) misses.
 */
export function venueVerdict(f: VenueBenchFigures): { pass: boolean; misses: string[] } {
  const misses: string[] = [];
  const lost = f.venueViewers.lost + f.dashboardViewers.lost + f.publicViewers.lost;
  if (f.events === 0) misses.push('no event was published in the window');
  if (lost > 0) misses.push(`${lost} deliveries lost`);
  const p99 = (name: string, figures: ViewerFigures, goal: number): void => {
    if (figures.viewers > 0 && !(figures.p99Ms <= goal)) misses.push(`${name} p99 ${figures.p99Ms.toFixed(0)} ms > ${goal} ms`);
  };
  p99('venue viewer', f.venueViewers, VENUE_GOALS.venueP99Ms);
  p99('dashboard viewer', f.dashboardViewers, VENUE_GOALS.venueP99Ms);
  p99('public viewer', f.publicViewers, VENUE_GOALS.publicP99Ms);
  return { pass: misses.length === 0, misses };
}

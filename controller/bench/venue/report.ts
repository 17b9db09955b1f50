/** The lines `zaptable bench venue` prints: latencies and losses per kind of viewer, then each process's cost. */
import type { ProcessFigures, VenueBenchFigures, VenueBenchOptions, ViewerFigures } from '../venue-bench.ts';
import { VENUE_GOALS, venueVerdict } from '../venue-bench.ts';
import { DEFAULT_ARBITRATION_WINDOW_MS } from '../../config/schema-tables.ts';

const ms = (value: number): string => (Number.isFinite(value) ? value.toFixed(value < 100 ? 1 : 0) : 'NaN');
const viewerCell = (v: ViewerFigures): string =>
  `${`${ms(v.p50Ms)}/${ms(v.p99Ms)}/${ms(v.maxMs)}`.padStart(19)} ${String(v.lost).padStart(6)}`;
const processCell = (p: ProcessFigures): string =>
  `${p.cpuPercent.toFixed(0)}% ${p.rssMb.toFixed(0)}/${p.peakRssMb.toFixed(0)}`.padStart(14);
const follows = (follow: 'all' | 'one'): string => (follow === 'all' ? 'every table' : 'one table each');

export function venueReport(options: VenueBenchOptions, results: readonly VenueBenchFigures[]): string[] {
  // A window set to the default is the goal's conditions; any other is not, and both lines below say so.
  const offDefault = options.arbitrationWindowMs !== undefined && options.arbitrationWindowMs !== DEFAULT_ARBITRATION_WINDOW_MS;
  const lines = [
    `venue: ${options.tablesPerController} table(s) per controller, bots at speed ${options.speed}, ${options.seconds} s per step `
    + `after ${options.warmupSeconds} s of warm-up (loopback)${options.fault === undefined ? '' : `; FAULT: ${options.fault}`}`,
    offDefault
      ? `arbitration window: ${options.arbitrationWindowMs} ms (--window-ms; NOT the tables' default of ${DEFAULT_ARBITRATION_WINDOW_MS} ms)`
      : `arbitration window: each table's default (${DEFAULT_ARBITRATION_WINDOW_MS} ms; a card play waits it out)`,
    `viewers: ${options.venueViewers} venue MQTT (every table), ${options.dashboardViewers} dashboard /live (${follows(options.dashboardFollow)}), `
    + `${options.publicViewers} public MQTT over WebSocket (${follows(options.publicFollow)})`,
    '',
    'sensor -> viewer latency, ms p50/p99/max, and lost deliveries',
    ' ctl tables events/s       venue MQTT   lost      dashboard WS   lost  public MQTT/WS    lost',
  ];
  for (const r of results) {
    lines.push(`${String(r.controllers).padStart(4)}${String(r.tables).padStart(7)}${(r.events / r.seconds).toFixed(1).padStart(9)}`
      + `${viewerCell(r.venueViewers)}${viewerCell(r.dashboardViewers)}${viewerCell(r.publicViewers)}`);
  }
  lines.push('', 'messages/s received by all the viewers of a kind (states, events, statuses: what each server sent them)');
  lines.push(' ctl       venue MQTT     dashboard WS   public MQTT/WS   closed connections   failed connection attempts');
  for (const r of results) {
    const kinds = [r.venueViewers, r.dashboardViewers, r.publicViewers];
    lines.push(`${String(r.controllers).padStart(4)}${kinds.map((v) => v.messagesPerSecond.toFixed(0).padStart(17)).join('')}`
      + kinds.reduce((sum, v) => sum + v.closes, 0).toString().padStart(21)
      + kinds.reduce((sum, v) => sum + v.connectErrors, 0).toString().padStart(29));
  }
  lines.push(
    '',
    'CPU (% of one core over the window) and RSS MB (VmRSS at the end / VmHWM peak)',
    ' ctl  venue broker public broker     dashboard  controller x1   dash viewers  public viewers          bench  load (1 min)',
  );
  for (const r of results) {
    lines.push(`${String(r.controllers).padStart(4)}${processCell(r.venueBroker)}${processCell(r.publicBroker)}${processCell(r.dashboard)}`
      + `${processCell(r.controllerMean)}${processCell(r.dashboardViewerProcess)}${processCell(r.publicViewerProcess)}${processCell(r.bench)}`
      + (r.load[0] ?? Number.NaN).toFixed(1).padStart(14));
  }
  const last = results.at(-1);
  if (last !== undefined) {
    lines.push('', `one venue MQTT viewer by event type at ${last.controllers} x ${last.tables / last.controllers}, ms p50/p99/max (count)`);
    for (const [type, s] of Object.entries(last.venueByType)) {
      lines.push(`  ${type.padEnd(20)}${`${ms(s.p50Ms)}/${ms(s.p99Ms)}/${ms(s.maxMs)}`.padStart(19)} (${s.count})`);
    }
  }
  lines.push('', `goals (issue 19, at 8 x 2, the tables' default window): 0 lost; p99 venue viewers (MQTT, dashboard) <= ${VENUE_GOALS.venueP99Ms} ms, public viewers <= ${VENUE_GOALS.publicP99Ms} ms`);
  for (const r of results) {
    const verdict = venueVerdict(r);
    const lost = r.venueViewers.viewersWithLoss + r.dashboardViewers.viewersWithLoss + r.publicViewers.viewersWithLoss;
    lines.push(`${String(r.controllers).padStart(4)} x ${r.tables / r.controllers}: ${verdict.pass ? 'PASS' : 'MISS'}`
      + (verdict.misses.length === 0 ? '' : `  (${verdict.misses.join('; ')}${lost > 0 ? `; ${lost} viewers missed events` : ''})`)
      + (offDefault ? `  [window ${options.arbitrationWindowMs} ms: not the goal's conditions]` : ''));
  }
  return lines;
}

/**
 * `zaptable bench timing`: how well the controller orders near-simultaneous presses. Runs the simulated
 * table of hardware/clock/timing-bench.ts and prints, per press separation and for pairs on one station and
 * across stations, the share put in the right order by our arbitration (correct / tie / wrong) and by host
 * arrival order, the clock-mapping error, and a PASS/MISS line per goal. Figures, not a timed test: the
 * exit code is 0 whatever the figures say (2 for a usage error).
 */
import {
  BENCH_SEPARATIONS_US, runTimingBench, type CellFigures, type TimingBenchFigures,
} from '../../hardware/clock/timing-bench.ts';
import { DEFAULT_LINK } from '../../hardware/clock/simulated-link.ts';
import { intOption, parse } from '../args.ts';
import type { Output } from '../output.ts';

export const benchTimingHelp = `zaptable bench timing [--pairs N] [--seed S] [--stations K] [--ping-ms P] [--no-banner] [--json]

Simulates a table of seat stations (resonators off by up to +-0.5 %, micros() with 4 us steps
and the 32-bit wrap, USB delivery jitter of several ms with stalls, random restarts) and
measures, for press pairs 20 us to 20 ms apart, on one station and across stations, how
often our arbitration orders them correctly / calls a tie / orders them wrongly, against
host arrival order; and the error of mapping device time to controller time.
Same seed, same figures.

  --pairs N      pairs per separation and kind (default 5000; 20 cells)
  --seed S       simulation seed (default 1)
  --stations K   simulated stations, 2-16 (default 4)
  --ping-ms P    ping period per station in ms, 10-5000 (default 100)
  --no-banner    restarts print no banner: the controller must notice them from the timestamps
  --json         print the figures as JSON`;

const pct = (n: number, of: number): string => (of === 0 ? '-' : `${((n / of) * 100).toFixed(3)} %`);
const us = (x: number): string => `${x.toFixed(1)} us`;

function separationLabel(sepUs: number): string {
  return sepUs >= 1000 ? `${sepUs / 1000} ms` : `${sepUs} us`;
}

const WIDTHS = [12, 7, 11, 10, 10, 14, 10] as const;

function columns(cells: readonly string[]): string {
  return cells.map((text, i) => text.padStart(WIDTHS[i] ?? 10)).join('');
}

function row(c: CellFigures): string {
  return columns([
    separationLabel(c.separationUs), String(c.pairs),
    pct(c.arbitration.correct, c.pairs), pct(c.arbitration.tie, c.pairs), pct(c.arbitration.wrong, c.pairs),
    pct(c.arrival.correct, c.pairs), pct(c.arrival.wrong, c.pairs),
  ]);
}

/** The human-readable report, one string per line. */
export function formatTimingReport(f: TimingBenchFigures, pingMs: number, banners: boolean): string[] {
  const l = DEFAULT_LINK;
  const m = f.mapping;
  const lines = [
    `timing benchmark: seed ${f.seed}, ${f.pairsPerCell} pairs per cell, ${f.stations} stations, ${f.simulatedHours.toFixed(2)} h simulated`,
    `  stations: resonators within +-0.5 % (+10 ppm slow wander), micros() in 4 us steps wrapping at 2^32 (${f.wraps} wraps),`,
    `            ${f.restarts} restarts (${banners ? 'with' : 'without'} banner), ${f.restartsDetected} noticed by the controller`,
    `  link:     ${l.baud} baud; USB frames ${l.usbFrameUs} us out, flush ${l.usbFlushUs} us in; host delivery exp(${l.hostDeliveryMeanUs / 1000} ms)`
    + ` + ${l.stallChance * 100} % stalls up to ${l.stallMaxUs / 1000} ms`,
    `  sync:     ping every ${pingMs} ms per station (${f.syncSamples} samples used)`,
    '',
    'Ties are counted in their own column: a tie is neither correct nor wrong. "correct" counts only pairs put',
    'in the true order, so every tie counts against the goals. Arrival order always decides (no ties).',
    '',
    `${' '.repeat(19)}${'---- our arbitration ----'.padStart(31)}${'--- arrival order ---'.padStart(24)}`,
    columns(['separation', 'pairs', 'correct', 'tie', 'wrong', 'correct', 'wrong']),
  ];
  for (const kind of ['same-station', 'cross-station'] as const) {
    lines.push(kind === 'same-station' ? '  same station' : '  across stations');
    for (const sep of BENCH_SEPARATIONS_US) {
      const cell = f.cells.find((c) => c.kind === kind && c.separationUs === sep);
      if (cell !== undefined) lines.push(row(cell));
    }
  }
  const lost = f.cells.reduce((n, c) => n + c.lost, 0);
  lines.push(
    `  (${lost} pairs not evaluated: a press fell into a restart)`,
    '',
    `clock mapping, ${m.events} presses: |error| p50 ${us(m.p50Us)}, p99 ${us(m.p99Us)}, max ${us(m.maxUs)};`
    + ` reported uncertainty p50 ${us(m.uncertaintyP50Us)}, p99 ${us(m.uncertaintyP99Us)}`,
    `  true time within the reported uncertainty: ${pct(m.withinBound, 1)}; presses before a boot's first sync: ${m.unsynced}`,
    '',
    ...f.goals.map((g) => `${g.met ? 'PASS' : 'MISS'}  ${g.goal}  (${g.value})`),
  );
  return lines;
}

export function benchTimingCommand(argv: readonly string[], io: Output): number {
  const { values } = parse(argv, {
    pairs: { type: 'string' }, seed: { type: 'string' }, stations: { type: 'string' },
    'ping-ms': { type: 'string' }, 'no-banner': { type: 'boolean' }, json: { type: 'boolean' },
  });
  const pairs = intOption(values.pairs, 'pairs', 5000);
  const stations = intOption(values.stations, 'stations', 4, 2, 16);
  const pingMs = intOption(values['ping-ms'], 'ping-ms', 100, 10, 5000);
  const banners = values['no-banner'] !== true;
  const seed = values.seed ?? '1';
  const figures = runTimingBench({ pairs, seed, stations, pingIntervalUs: pingMs * 1000, banners }, (text) => {
    io.progress(`bench timing: ${text}`);
  });
  io.progress('');
  if (values.json === true) {
    io.out(JSON.stringify({ ...figures, pingMs, banners }, null, 2));
    return 0;
  }
  for (const line of formatTimingReport(figures, pingMs, banners)) io.out(line);
  return 0;
}

/**
 * The human-readable report of `zaptable bench timing`: the model (stations, firmware, intervals, links,
 * baselines), then per link model the table of cells, the clock mapping, the interval check and the goals.
 */
import {
  BENCH_SEPARATIONS_US, PAIR_KINDS, type CellFigures, type LinkFigures, type TimingBenchFigures,
} from '../../bench/timing/timing-bench.ts';
import { DEFAULT_SEAT_FIRMWARE as FW } from '../../bench/timing/seat-firmware.ts';
import { DEFAULT_SENSOR_TIMING as ST } from '../../hardware/serial/event-interval.ts';
import { PESSIMISTIC_LINK, REALISTIC_LINK, type CommonModeDelivery, type IndependentDelivery } from '../../bench/sim/simulated-link.ts';

const pct = (n: number, of: number): string => (of === 0 ? '-' : `${((n / of) * 100).toFixed(3)} %`);
const us = (x: number): string => `${x.toFixed(1)} us`;
const ms = (x: number): string => `${(x / 1000).toFixed(1)} ms`;
const range = ([lo, hi]: readonly [number, number], unit = 1000): string => `${lo / unit}-${hi / unit}`;

function separationLabel(sepUs: number): string {
  return sepUs >= 1000 ? `${sepUs / 1000} ms` : `${sepUs} us`;
}

const WIDTHS = [12, 7, 11, 10, 10, 12, 10, 11] as const;

function columns(cells: readonly string[]): string {
  return cells.map((text, i) => text.padStart(WIDTHS[i] ?? 10)).join('');
}

function row(c: CellFigures): string {
  return columns([
    separationLabel(c.separationUs), String(c.pairs),
    pct(c.ours.correct, c.pairs), pct(c.ours.tie, c.pairs), pct(c.ours.wrong, c.pairs),
    pct(c.arrival.correct, c.pairs), pct(c.arrival.wrong, c.pairs), pct(c.inside, 2 * c.pairs),
  ]);
}

/**
 * What this benchmark measures, said first: its own model of the serial driver and `arbitrate()`, not the
 * controller `zaptable start` assembles (docs/timing.md §4).
 */
export const TIMING_PATH_NOTE: readonly string[] = [
  'PATH MEASURED: a model of the serial driver (bench/timing/link-run.ts) and arbitrate(), the buzzer\'s ranking,',
  'on a simulated world - not the controller as `zaptable start` assembles it, and not the Zip-Zap or Killer-21',
  'races. For what the table decides, `zaptable bench fairness` is the authority (real driver, runtimes, engines).',
  '',
];

function modelLines(f: TimingBenchFigures, pingMs: number): string[] {
  const real = REALISTIC_LINK.host as CommonModeDelivery;
  const pess = PESSIMISTIC_LINK.host as IndependentDelivery;
  const serial = REALISTIC_LINK.serial;
  const windows = f.tagWindows.map((w) => `${w.resting} resting p50 ${ms(w.p50Us)} max ${ms(w.maxUs)}`).join('; ');
  const shared = Math.max(...f.tagWindows.map((w) => (Number.isNaN(w.sharedMaxUs) ? 0 : w.sharedMaxUs)));
  return [
    ...TIMING_PATH_NOTE,
    `timing benchmark: seed ${f.seed}, ${f.pairsPerCell} pairs per cell, ${f.stations} stations, ${f.simulatedHours.toFixed(2)} h simulated`
    + ' (one world, both link models)',
    `  stations: resonators within +-0.5 % (+10 ppm slow wander), micros() in 4 us steps wrapping at 2^32 (${f.wraps} wraps),`,
    `            ${f.restarts} restarts with a 1.5-2 s bootloader`,
    '  firmware 0.3.0 as hardware/protocol.md measures it (7-byte UIDs; docs/timing.md §4):',
    `    button  the ISR reads micros() ${range(FW.isrEntryUs, 1)} us after the first edge (another interrupt first: up to ${FW.otherIsrMaxUs} us more);`,
    `            ${range(FW.bounceUs)} ms of bounce; the line is queued ${FW.debounceQuietUs / 1000} ms after the last edge, sent after the reader's step`,
    '    slap    stamped in its interrupt like a button; the card\'s TAG+ is dated by the one slap inside its interval',
    `    tags    one reader step per loop pass: a poll (${range(FW.emptyPollUs)} ms), then a presence check of a resting tag`,
    `            (${range(FW.presenceCheckUs)} ms, each tag at most every ${FW.checkIntervalUs / 1000} ms); a poll at most every ${range(FW.minPollIntervalUs)} ms;`,
    `            a card answers after its power-up (${range(FW.tagPowerUpUs)} ms) and is read in its poll's step (${range(FW.readPollUs)} ms);`,
    '            TAG+ stamped at that poll, window back to the last poll nobody answered;',
    `            windows: ${windows}; two cards in one window: up to ${ms(shared)}`,
    `    weight  W ... U at the next sample, W ... S ${FW.scaleSettleSamples} samples later (traffic only: no race is decided by a weight)`,
    `  intervals (eventInterval(), as the serial driver): BTN+ and SLAP ${ST.isrLatencyUs} us before the stamp; TAG+ its window`
    + ` + ${ST.tagPowerUpUs} us power-up allowance`,
    `  links: ${serial.baud} baud; USB frames ${serial.usbFrameUs / 1000} ms out; the USB-serial chip flushes 0-${serial.usbFlushUs / 1000} ms in; then`,
    `    realistic    one USB host controller (1 ms frames in) and one event loop for every port: per-port jitter exp(${real.perPortJitterMeanUs} us),`,
    `                 ${range(real.serviceUs, 1)} us per line, busy spells ${real.busySpellsPerS}/s of exp(${real.busyMeanUs / 1000} ms),`
    + ` stalls ${real.stallsPerS}/s up to ${real.stallMaxUs / 1000} ms`,
    `    pessimistic  independent per line: exp(${pess.meanUs / 1000} ms) + ${pess.stallChance * 100} % stalls up to ${pess.stallMaxUs / 1000} ms`,
    '  arrival order, the strongest host-stamping competitor for each link:',
    '    realistic    its firmware sends buttons and slaps from the interrupt, tags when read; it stamps on arrival and',
    '                 subtracts the best constant per kind (the median delay on this run)',
    '    pessimistic  host arrival order of our own lines',
    `  sync: ping every ${pingMs} ms per station`,
    '',
    'Ties are counted in their own column: a tie is neither correct nor wrong. "correct" counts only pairs put',
    'in the true order, so every tie counts against the goals. Arrival order always decides (no ties).',
    '"in interval": share of the pairs\' true times inside the interval they were compared by (must be 100 %).',
  ];
}

function linkLines(l: LinkFigures, f: TimingBenchFigures): string[] {
  const m = l.mapping;
  const offsets = l.arrivalOffsetsUs === undefined ? 'raw arrival order'
    : `arrival minus ${ms(l.arrivalOffsetsUs.edge)} (edges), ${ms(l.arrivalOffsetsUs.tag)} (tags)`;
  const lines = [
    '',
    `=== ${l.link} link (${l.lines} lines, ${l.syncSamples} sync samples, ${l.restartsDetected} of ${f.restarts} restarts noticed;`
    + ` baseline: ${offsets})`,
    `${' '.repeat(19)}${'---- our arbitration ----'.padStart(31)}${'-- arrival order --'.padStart(22)}${'in'.padStart(11)}`,
    columns(['separation', 'pairs', 'correct', 'tie', 'wrong', 'correct', 'wrong', 'interval']),
  ];
  for (const k of PAIR_KINDS) {
    const cells = BENCH_SEPARATIONS_US.flatMap((sep) => l.cells.filter((c) => c.kind === k.kind && c.separationUs === sep));
    if (cells.length === 0) continue;
    lines.push(`  ${k.label}`, ...cells.map(row));
  }
  const lost = l.cells.reduce((n, c) => n + c.lost, 0);
  lines.push(
    `  (${lost} pairs not evaluated: an event fell into a restart)`,
    `clock mapping, ${m.events} stamps: |error| p50 ${us(m.p50Us)}, p99 ${us(m.p99Us)}, max ${us(m.maxUs)};`
    + ` reported uncertainty p50 ${us(m.uncertaintyP50Us)}, p99 ${us(m.uncertaintyP99Us)}`,
    `  stamp within the reported uncertainty: ${pct(m.withinBound, 1)}; stamps before a boot's first sync: ${m.unsynced}`,
    `true time inside its whole interval (device time / controller time), width p50 and max:`,
    ...l.intervals.map((i) => `  ${i.source.padEnd(13)} ${String(i.events).padStart(7)} events  ${pct(i.insideDevice, i.events)} /`
      + ` ${pct(i.insideHost, i.syncedEvents)}   ${i.widthP50Us >= 1000 ? ms(i.widthP50Us) : us(i.widthP50Us)},`
      + ` ${i.widthMaxUs >= 1000 ? ms(i.widthMaxUs) : us(i.widthMaxUs)}`),
    ...l.goals.map((g) => `${g.met ? 'PASS' : 'MISS'}  [${l.link}] ${g.goal}  (${g.value})`),
  );
  return lines;
}

/** The report, one string per line. */
export function formatTimingReport(f: TimingBenchFigures, pingMs: number): string[] {
  return [...modelLines(f, pingMs), ...f.links.flatMap((l) => linkLines(l, f))];
}

/**
 * `zaptable bench buzzer`: buzzer mode's two figures — how fast a press becomes the winner on a viewer's
 * screen (p50/p99), and how fair the ranking is (share of press pairs ordered correctly, by separation) for
 * seat-station buzzers and for hub buzzers, beside host arrival order. The methods are in
 * controller/bench/buzzer-latency.ts and buzzer-fairness.ts. Figures, not a timed test: exit code 0.
 */
import { runBuzzerFairness, type FairnessCell, type FairnessFigures, type LinkFairness } from '../../bench/buzzer-fairness.ts';
import { runBuzzerLatency, type BuzzerLatencyFigures } from '../../bench/buzzer-latency.ts';
import { intOption, parse } from '../args.ts';
import type { Output } from '../output.ts';

export const benchBuzzerHelp = `zaptable bench buzzer [--samples N] [--pairs P] [--seed S] [--window-ms W] [--no-latency] [--json]

latency    a press at a simulated seat station (real serial driver, simulated USB-serial delays)
           -> the state with the winner at an MQTT subscriber logged in as a viewer (embedded broker,
           SQLite log): p50 / p99 / max. Includes the arbitration window the runtime waits on purpose.
fairness   press pairs at known separations: share ordered correctly / called a tie / ordered wrongly
           by the buzzer ranking, and by host arrival order, and the share of true press times inside
           the stated interval; for seat-station buzzers (the timing benchmark's simulated stations) and
           for johnny-five hub buttons (one hub, and two hubs) through the same host model as the
           seats; under both link models (realistic: one event loop and USB host for every port;
           pessimistic: independent delays per line). It ranks with rankPresses()/arbitrate() directly,
           the seat presses from the timing benchmark's model of the serial driver: not the buzzer
           runtime on the controller \`zaptable start\` assembles - \`zaptable bench fairness\` (its
           buzzer rows) races that, and is the authority for what the table decides.

  --samples N    latency samples (default 200, plus 10 % warm-up)
  --pairs P      pairs per separation for fairness (default 2000)
  --seed S       simulation seed (default 1)
  --window-ms W  the table's arbitration window (default 30, the configuration default)
  --no-latency   fairness only (no broker, no real time)
  --json         print the figures as JSON`;

const pct = (n: number, of: number): string => (of === 0 ? '-' : `${((n / of) * 100).toFixed(2)} %`);
const sep = (us: number): string => (us >= 1000 ? `${us / 1000} ms` : `${us} us`);

function rows(cells: readonly FairnessCell[]): string[] {
  return cells.map((c) => [
    sep(c.separationUs).padStart(10), String(c.pairs).padStart(7),
    pct(c.ours.correct, c.pairs).padStart(10), pct(c.ours.tie, c.pairs).padStart(10), pct(c.ours.wrong, c.pairs).padStart(9),
    pct(c.arrival.correct, c.pairs).padStart(12), pct(c.arrival.wrong, c.pairs).padStart(10),
    pct(c.inside, 2 * c.pairs).padStart(11),
  ].join(''));
}

function linkRows(l: LinkFairness): string[] {
  return [
    `  ${l.link} link`,
    '   seat-station buzzers (two stations, device time + clock sync)',
    ...rows(l.seat),
    '   hub buzzers, two buttons of one johnny-five hub (host-stamped, one serial stream)',
    ...rows(l.oneHub),
    '   hub buzzers, one button on each of two hubs (host-stamped, two streams, one host)',
    ...rows(l.twoHubs),
    `   hub: true press time within the stated interval for ${(l.hubWithinBound * 100).toFixed(3)} % of presses`,
  ];
}

export function formatBuzzerReport(latency: BuzzerLatencyFigures | undefined, fair: FairnessFigures, seed: string): string[] {
  const lines: string[] = [];
  if (latency !== undefined) {
    lines.push(
      `press at the device -> winner at an MQTT viewer (${latency.samples} samples, ${latency.lost} lost; arbitration window ${latency.arbitrationWindowMs} ms):`,
      `  p50 ${latency.p50Ms.toFixed(1)} ms   p99 ${latency.p99Ms.toFixed(1)} ms   max ${latency.maxMs.toFixed(1)} ms`,
      '',
    );
  }
  const head = `${'separation'.padStart(10)}${'pairs'.padStart(7)}${'correct'.padStart(10)}${'tie'.padStart(10)}${'wrong'.padStart(9)}`
    + `${'correct'.padStart(12)}${'wrong'.padStart(10)}${'interval'.padStart(11)}`;
  lines.push(
    `fairness (seed ${seed}); a tie is neither correct nor wrong; arrival order always decides;`,
    'path measured: rankPresses() on the timing benchmark\'s driver model (seats) and the hub\'s stamping (hubs), not the',
    'buzzer runtime on the assembled controller: `zaptable bench fairness` (buzzer rows) is the authority for that;',
    '"in interval": presses whose true time lay inside the interval stated for them',
    `${' '.repeat(17)}${'---- buzzer ranking ----'.padStart(29)}${'-- arrival order --'.padStart(22)}${'in'.padStart(11)}`,
    head,
    ...fair.links.flatMap(linkRows),
  );
  return lines;
}

export async function benchBuzzerCommand(argv: readonly string[], io: Output): Promise<number> {
  const { values } = parse(argv, {
    samples: { type: 'string' }, pairs: { type: 'string' }, seed: { type: 'string' }, 'window-ms': { type: 'string' },
    'no-latency': { type: 'boolean' }, json: { type: 'boolean' },
  });
  const samples = intOption(values.samples, 'samples', 200);
  const pairs = intOption(values.pairs, 'pairs', 2000);
  const windowMs = intOption(values['window-ms'], 'window-ms', 30, 0, 1000);
  const seed = values.seed ?? '1';
  const progress = (text: string): void => {
    io.progress(`bench buzzer: ${text}`);
  };
  const latency = values['no-latency'] === true ? undefined : await runBuzzerLatency(samples, windowMs, progress);
  const fair = runBuzzerFairness(pairs, seed, progress);
  io.progress('');
  if (values.json === true) io.out(JSON.stringify({ latency, fairness: fair }, null, 2));
  else for (const line of formatBuzzerReport(latency, fair, seed)) io.out(line);
  return 0;
}

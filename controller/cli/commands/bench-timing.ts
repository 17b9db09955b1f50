/**
 * `zaptable bench timing`: how well the controller orders near-simultaneous happenings. Runs the simulated
 * table of bench/timing/timing-bench.ts under both link models and prints, per pair kind and separation,
 * the share put in the right order by our arbitration (correct / tie / wrong) and by the arrival-order
 * baseline, the clock-mapping error, whether every true time lay inside its interval, and a PASS/MISS line
 * per goal. Figures, not a timed test: the exit code is 0 whatever the figures say (2 for a usage error).
 */
import { runTimingBench } from '../../bench/timing/timing-bench.ts';
import { LINK_MODELS } from '../../bench/sim/simulated-link.ts';
import { UsageError, intOption, parse } from '../args.ts';
import type { Output } from '../output.ts';
import { formatTimingReport } from './bench-timing-report.ts';

export const benchTimingHelp = `zaptable bench timing [--pairs N] [--seed S] [--stations K] [--ping-ms P] [--link L] [--slap-miss PCT] [--no-banner] [--json]

Simulates a table of seat stations (resonators off by up to +-0.5 %, micros() with 4 us steps
and the 32-bit wrap, random restarts) whose firmware stamps buttons, slap sensors and tag reads
as the real one does, and measures, for pairs 20 us to 50 ms apart - on one station (button vs
card, card vs card) and across stations (button vs button; card vs card on tag-only and on
slap-sensor stations) - how often our arbitration orders them correctly / calls a tie / orders
them wrongly, against the strongest arrival-order competitor; the clock-mapping error; and
whether every true time lay inside its reported interval. Both link models, realistic (one
event loop and USB host for every port) and pessimistic (independent delays per line), run
over the same simulated world. Same seed, same figures.

What it measures is its own model of the serial driver (bench/timing/link-run.ts) and arbitrate(),
the buzzer's ranking - not the controller as \`zaptable start\` assembles it, and not the Zip-Zap or
Killer-21 races: for those, \`zaptable bench fairness\` is the authority.

  --pairs N        pairs per cell (default 2000; 55 cells per link model)
  --seed S         simulation seed (default 1)
  --stations K     simulated stations, 2-16 (default 4)
  --ping-ms P      ping period per station in ms, 10-5000 (default 100)
  --link L         realistic, pessimistic or both (default both)
  --slap-miss PCT  percent of landings the slap sensor misses, 0-100 (default 0)
  --no-banner      restarts print no banner: the controller must notice them from the timestamps
  --json           print the figures as JSON`;

export function benchTimingCommand(argv: readonly string[], io: Output): number {
  const { values } = parse(argv, {
    pairs: { type: 'string' }, seed: { type: 'string' }, stations: { type: 'string' }, 'ping-ms': { type: 'string' },
    link: { type: 'string' }, 'slap-miss': { type: 'string' }, 'no-banner': { type: 'boolean' }, json: { type: 'boolean' },
  });
  const pairs = intOption(values.pairs, 'pairs', 2000);
  const stations = intOption(values.stations, 'stations', 4, 2, 16);
  const pingMs = intOption(values['ping-ms'], 'ping-ms', 100, 10, 5000);
  const slapMiss = intOption(values['slap-miss'], 'slap-miss', 0, 0, 100);
  const linkName = values.link ?? 'both';
  const links = LINK_MODELS.filter((l) => linkName === 'both' || l.name === linkName);
  if (links.length === 0) throw new UsageError(`--link must be realistic, pessimistic or both, got "${linkName}"`);
  const banners = values['no-banner'] !== true;
  const seed = values.seed ?? '1';
  const started = Date.now();
  const figures = runTimingBench({
    pairs, seed, stations, pingIntervalUs: pingMs * 1000, banners, links, slapMissChance: slapMiss / 100,
  }, (text) => {
    io.progress(`bench timing (${((Date.now() - started) / 1000).toFixed(0)} s): ${text}`);
  });
  io.progress('');
  if (values.json === true) {
    io.out(JSON.stringify({ ...figures, pingMs, banners }, null, 2));
    return 0;
  }
  for (const line of formatTimingReport(figures, pingMs)) io.out(line);
  return 0;
}

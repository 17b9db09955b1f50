/**
 * `zaptable bench NAME`: benchmarks that print figures (never timed tests). Each benchmark is its own module;
 * this file only dispatches.
 */
import { UsageError } from '../args.ts';
import type { Output } from '../output.ts';
import { benchEventLog, benchPlayWrites } from '../../persistence/bench.ts';
import { intOption, parse } from '../args.ts';
import { benchLatencyCommand, benchLatencyHelp } from './bench-latency.ts';
import { benchFloodCommand, benchFloodHelp } from './bench-flood.ts';
import { benchSoakCommand, benchSoakHelp } from './bench-soak.ts';
import { benchBuzzerCommand, benchBuzzerHelp } from './bench-buzzer.ts';
import { benchDashboardCommand, benchDashboardHelp } from './bench-dashboard.ts';
import { benchFairnessCommand, benchFairnessHelp } from './bench-fairness.ts';
import { benchTimingCommand, benchTimingHelp } from './bench-timing.ts';
import { benchVenueCommand, benchVenueHelp } from './bench-venue.ts';

const eventLogHelp = `zaptable bench eventlog [--events N] [--batch B] [--durability process|power] [--play-rate R] [--play-seconds S]

Appends N sensor events (default 200000) to a fresh SQLite event log in a temporary folder, committing
every B events (default 100), and prints events/s, commit latency percentiles and the bytes the process
wrote per event. Then, for the SD card: S seconds (default 20; 0 skips) of real time at R logged events
per second (default 5: a busy 6-seat table's presses, tags and weights, rounded up), each committed alone
with the writer's idle checkpoints running, and the bytes written per hour of play that makes
(/proc/self/io, Linux).`;

async function benchEventLogCommand(argv: readonly string[], io: Output): Promise<number> {
  const { values } = parse(argv, {
    events: { type: 'string' }, batch: { type: 'string' }, durability: { type: 'string' }, 'play-rate': { type: 'string' },
    'play-seconds': { type: 'string' },
  });
  const durability = values.durability ?? 'process';
  if (durability !== 'process' && durability !== 'power') throw new UsageError('--durability must be process or power');
  const print = (line: string): void => {
    io.out(line);
  };
  const playRate = intOption(values['play-rate'], 'play-rate', 5, 1, 1000);
  const playSeconds = intOption(values['play-seconds'], 'play-seconds', 20, 0, 86_400);
  benchEventLog(intOption(values.events, 'events', 200_000), { batch: intOption(values.batch, 'batch', 100), durability, print });
  if (playSeconds > 0) await benchPlayWrites(playSeconds, playRate, { durability, print });
  return 0;
}

interface Benchmark {
  readonly summary: string;
  readonly help: string;
  run(argv: readonly string[], io: Output): number | Promise<number>;
}

const BENCHMARKS: Readonly<Record<string, Benchmark>> = {
  timing: {
    summary: 'clock sync and first-press arbitration vs host arrival order, on simulated stations',
    help: benchTimingHelp,
    run: benchTimingCommand,
  },
  fairness: {
    summary: 'races on the controller as `zaptable start` builds it, under five USB link models, against the true times',
    help: benchFairnessHelp,
    run: benchFairnessCommand,
  },
  buzzer: {
    summary: 'buzzer mode: press → winner on a viewer latency, and the fairness table for stations and hub buttons',
    help: benchBuzzerHelp,
    run: benchBuzzerCommand,
  },
  dashboard: {
    summary: 'many tables publishing, many browser viewers: MQTT → viewer latency, server CPU and memory',
    help: benchDashboardHelp,
    run: benchDashboardCommand,
  },
  venue: {
    summary: 'N controller processes on one Mosquitto with viewers: sensor → viewer latency, broker and controller CPU and RSS',
    help: benchVenueHelp,
    run: benchVenueCommand,
  },
  eventlog: {
    summary: 'SQLite event log append throughput and commit latency',
    help: eventLogHelp,
    run: benchEventLogCommand,
  },
  flood: {
    summary: 'one client floods the tables with requests: a calm referee\'s and a viewer\'s latency, answers, memory',
    help: benchFloodHelp,
    run: benchFloodCommand,
  },
  soak: {
    summary: 'the demo with bots at 4 tables for a given time: RSS and heap every 10 s, and their slopes',
    help: benchSoakHelp,
    run: benchSoakCommand,
  },
  latency: {
    summary: 'sensor line to MQTT state message (p50/p99/max), sensor events/s, memory; embedded broker and Mosquitto',
    help: benchLatencyHelp,
    run: benchLatencyCommand,
  },
};

export const benchHelp = `zaptable bench NAME [options]

Benchmarks print their figures; they are measurements, not pass/fail tests.

${Object.entries(BENCHMARKS).map(([name, b]) => `  ${name.padEnd(10)} ${b.summary}`).join('\n')}

Run \`zaptable bench NAME --help\` for a benchmark's options.`;

export async function benchCommand(argv: readonly string[], io: Output): Promise<number> {
  const [name, ...rest] = argv;
  const bench = BENCHMARKS[name ?? ''];
  if (!bench) throw new UsageError(name === undefined ? 'bench needs a NAME' : `unknown benchmark "${name}"`);
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(bench.help);
    return 0;
  }
  return bench.run(rest, io);
}

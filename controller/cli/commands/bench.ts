/**
 * `zaptable bench NAME`: benchmarks that print figures (never timed tests). Each benchmark is its own module,
 * loaded only when it runs: a benchmark's process then holds its own code and packages, not every other
 * benchmark's (the dashboard benchmark's browser and web server, say) — `bench fairness` measures its own
 * peak RSS against a goal.
 */
import { UsageError, intOption, parse } from '../args.ts';
import type { Command } from '../main.ts';
import type { Output } from '../output.ts';

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
  const { benchEventLog, benchPlayWrites } = await import('../../persistence/bench.ts');
  benchEventLog(intOption(values.events, 'events', 200_000), { batch: intOption(values.batch, 'batch', 100), durability, print });
  if (playSeconds > 0) await benchPlayWrites(playSeconds, playRate, { durability, print });
  return 0;
}

/** Each benchmark's line in `zaptable bench`'s help. */
const SUMMARIES: Readonly<Record<string, string>> = {
  timing: 'clock sync and first-press arbitration vs host arrival order, on simulated stations',
  fairness: 'races on the controller as `zaptable start` builds it, under five USB link models, against the true times',
  buzzer: 'buzzer mode: press → winner on a viewer latency, and the fairness table for stations and hub buttons',
  dashboard: 'many tables publishing, many browser viewers: MQTT → viewer latency, server CPU and memory',
  venue: 'N controllers, the venue dashboard and a bridged public broker with their viewers: sensor → viewer latency, lost deliveries, every process\'s CPU and RSS',
  eventlog: 'SQLite event log append throughput and commit latency',
  flood: 'one client floods the tables with requests: a calm referee\'s and a viewer\'s latency, answers, memory',
  soak: 'the demo with bots at 4 tables for a given time: RSS and heap every 10 s, and their slopes',
  memory: 'the controller (`zaptable start`, the demo) in a process of its own: its RSS from /proc, min/median/max',
  latency: 'sensor line to MQTT state message (p50/p99/max), sensor events/s, memory; embedded broker and Mosquitto',
};

/** Each benchmark's module, loaded only when it runs. */
const LOADERS: Readonly<Record<string, Command['load']>> = {
  timing: async () => import('./bench-timing.ts').then((m) => ({ help: m.benchTimingHelp, run: m.benchTimingCommand })),
  fairness: async () => import('./bench-fairness.ts').then((m) => ({ help: m.benchFairnessHelp, run: m.benchFairnessCommand })),
  buzzer: async () => import('./bench-buzzer.ts').then((m) => ({ help: m.benchBuzzerHelp, run: m.benchBuzzerCommand })),
  dashboard: async () => import('./bench-dashboard.ts')
    .then((m) => ({ help: m.benchDashboardHelp, run: m.benchDashboardCommand })),
  venue: async () => import('./bench-venue.ts').then((m) => ({ help: m.benchVenueHelp, run: m.benchVenueCommand })),
  eventlog: async () => Promise.resolve({ help: eventLogHelp, run: benchEventLogCommand }),
  flood: async () => import('./bench-flood.ts').then((m) => ({ help: m.benchFloodHelp, run: m.benchFloodCommand })),
  soak: async () => import('./bench-soak.ts').then((m) => ({ help: m.benchSoakHelp, run: m.benchSoakCommand })),
  memory: async () => import('./bench-memory.ts').then((m) => ({ help: m.benchMemoryHelp, run: m.benchMemoryCommand })),
  latency: async () => import('./bench-latency.ts').then((m) => ({ help: m.benchLatencyHelp, run: m.benchLatencyCommand })),
};

const BENCHMARKS: Readonly<Record<string, Command>> = Object.fromEntries(
  Object.entries(SUMMARIES).map(([name, summary]) => [name, { summary, load: LOADERS[name] as Command['load'] }]),
);

export const benchHelp = `zaptable bench NAME [options]

Benchmarks print their figures; they are measurements, not pass/fail tests.

${Object.entries(BENCHMARKS).map(([name, b]) => `  ${name.padEnd(10)} ${b.summary}`).join('\n')}

Run \`zaptable bench NAME --help\` for a benchmark's options.`;

export async function benchCommand(argv: readonly string[], io: Output): Promise<number> {
  const [name, ...rest] = argv;
  const bench = BENCHMARKS[name ?? ''];
  if (!bench) throw new UsageError(name === undefined ? 'bench needs a NAME' : `unknown benchmark "${name}"`);
  const loaded = await bench.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(loaded.help);
    return 0;
  }
  return loaded.run(rest, io);
}

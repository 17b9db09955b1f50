/**
 * The `zaptable` command line: one entry point, one subcommand per job. Each subcommand has its own help
 * (`zaptable help COMMAND` or `zaptable COMMAND --help`).
 */
import { UsageError } from './args.ts';
import { processOutput, type Output } from './output.ts';

/** A loaded subcommand: its help text and what runs it (a benchmark of `bench` too). */
export interface Loaded {
  readonly help: string;
  run(argv: readonly string[], io: Output): number | Promise<number>;
}

/** A subcommand (a benchmark of `bench` too): what `help` lists, and how its module is loaded. */
export interface Command {
  readonly summary: string;
  /**
   * Loads the command's module on demand: the controller's process (`start`) then holds only what it runs,
   * not the dashboard benchmark, the simulators or the setup tools (a few tens of MB on a Raspberry Pi).
   */
  load(): Promise<Loaded>;
}

const COMMANDS: Readonly<Record<string, Command>> = {
  start: {
    summary: 'the main job: broker, controller on the table (or the simulated table with bots), dashboard',
    load: async () => import('./commands/start.ts').then((m) => ({ help: m.startHelp, run: m.startCommand })),
  },
  dashboard: {
    summary: 'the live dashboard alone, following the tables of every controller on the configured broker (a venue)',
    load: async () => import('./commands/dashboard.ts').then((m) => ({ help: m.dashboardHelp, run: m.dashboardCommand })),
  },
  enroll: {
    summary: 'tag every barrel and card: walks you through it, rejects duplicates, saves the registry',
    load: async () => import('./commands/enroll.ts').then((m) => ({ help: m.enrollHelp, run: m.enrollCommand })),
  },
  stations: {
    summary: 'what the stations say: each one online (firmware, faults), then its tags, weights, button, slaps',
    load: async () => import('./commands/stations.ts').then((m) => ({ help: m.stationsHelp, run: m.stationsCommand })),
  },
  calibrate: {
    summary: 'tare and calibrate each station with a known weight; learn barrel and stone weights (--read-range: the reader)',
    load: async () => import('./commands/calibrate.ts').then((m) => ({ help: m.calibrateHelp, run: m.calibrateCommand })),
  },
  buzzer: {
    summary: 'buzzer mode: export every press as CSV; replay a question\'s ranking to settle a dispute',
    load: async () => import('./commands/buzzer.ts').then((m) => ({ help: m.buzzerHelp, run: m.buzzerCommand })),
  },
  flash: {
    summary: 'put a station\'s firmware or StandardFirmata (buzzer hub) on a board, with progress (avrgirl-arduino)',
    load: async () => import('./commands/flash.ts').then((m) => ({ help: m.flashHelp, run: m.flashCommand })),
  },
  venue: {
    summary: 'several controllers on one broker: the venue broker\'s Mosquitto ACL from the controllers\' files',
    load: async () => import('./commands/venue.ts').then((m) => ({ help: m.venueHelp, run: m.venueCommand })),
  },
  config: {
    summary: 'check a configuration file, print examples and the key reference',
    load: async () => import('./commands/config-check.ts').then((m) => ({ help: m.configHelp, run: m.configCommand })),
  },
  'mosquitto-config': {
    summary: 'Mosquitto configuration for a venue\'s public broadcast: the bridge to the public broker, its read-only ACL',
    load: async () => import('./commands/mosquitto-config.ts').then((m) => ({ help: m.mosquittoConfigHelp, run: m.mosquittoConfigCommand })),
  },
  history: {
    summary: 'games in the event log with results; one game\'s full log',
    load: async () => import('./commands/history.ts').then((m) => ({ help: m.historyHelp, run: m.historyCommand })),
  },
  log: {
    summary: 'the event log: archive old games, back it up while running; export or repair a damaged one',
    load: async () => import('./commands/log.ts').then((m) => ({ help: m.logHelp, run: m.logCommand })),
  },
  replay: {
    summary: 'replay an action log, or a game from the event log (with raw device times for disputes)',
    load: async () => import('./commands/replay.ts').then((m) => ({ help: m.replayHelp, run: m.replayCommand })),
  },
  scenario: {
    summary: 'run rule scenario files and report pass/fail per case',
    load: async () => import('./commands/scenario.ts').then((m) => ({ help: m.scenarioHelp, run: m.scenarioCommand })),
  },
  simulate: {
    summary: 'bots play complete games on the rules engines; prints throughput and outcome statistics',
    load: async () => import('./commands/simulate.ts').then((m) => ({ help: m.simulateHelp, run: m.simulateCommand })),
  },
  demo: {
    summary: 'bots play one game of each game on the rules engines; prints the outcome',
    load: async () => import('./commands/demo.ts').then((m) => ({ help: m.demoHelp, run: m.demoCommand })),
  },
  bench: {
    summary: 'benchmarks that print figures (fairness, timing, eventlog, latency, dashboard, buzzer, venue)',
    load: async () => import('./commands/bench.ts').then((m) => ({ help: m.benchHelp, run: m.benchCommand })),
  },
};

export function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return [
    'zaptable — the controller of a sensor-equipped game table (Zapp Zerapp, Zip-Zap) and buzzer system',
    '',
    'Usage: zaptable COMMAND [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Run `zaptable help COMMAND` or `zaptable COMMAND --help` for the options of a command.',
  ].join('\n');
}

/** Runs the command line; returns the process exit code (0 ok, 1 failure, 2 usage error). */
export async function main(argv: readonly string[], io: Output = processOutput): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || (name === 'help' && rest.length === 0)) {
    io.out(usage());
    return 0;
  }
  if (name === 'help') {
    const topic = COMMANDS[rest[0] ?? ''];
    if (!topic) {
      io.err(`zaptable: unknown command "${rest[0] ?? ''}"\n\n${usage()}`);
      return 2;
    }
    io.out((await topic.load()).help);
    return 0;
  }
  const found = COMMANDS[name];
  if (!found) {
    io.err(`zaptable: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  const command = await found.load();
  if ((rest.includes('--help') || rest.includes('-h')) && !(name === 'bench' && rest.length > 1)) {
    io.out(command.help);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`zaptable ${name}: ${error.message}\n\n${command.help}`);
      return 2;
    }
    throw error;
  }
}

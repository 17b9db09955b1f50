/**
 * The `zaptable` command line: one entry point, one subcommand per job. Each subcommand has its own help
 * (`zaptable help COMMAND` or `zaptable COMMAND --help`).
 */
import { UsageError } from './args.ts';
import { benchCommand, benchHelp } from './commands/bench.ts';
import { configCommand, configHelp } from './commands/config-check.ts';
import { dashboardCommand, dashboardHelp } from './commands/dashboard.ts';
import { demoCommand, demoHelp } from './commands/demo.ts';
import { historyCommand, historyHelp } from './commands/history.ts';
import { replayCommand, replayHelp } from './commands/replay.ts';
import { scenarioCommand, scenarioHelp } from './commands/scenario.ts';
import { simulateCommand, simulateHelp } from './commands/simulate.ts';
import { startCommand, startHelp } from './commands/start.ts';
import { processOutput, type Output } from './output.ts';

interface Command {
  readonly summary: string;
  readonly help: string;
  run(argv: readonly string[], io: Output): number | Promise<number>;
}

const COMMANDS: Readonly<Record<string, Command>> = {
  start: { summary: 'the main job: broker, controller on the table (or the simulated table with bots), dashboard', help: startHelp, run: startCommand },
  demo: { summary: 'bots play one game of each game; prints the outcome (what `npm start` runs for now)', help: demoHelp, run: demoCommand },
  dashboard: { summary: 'the live dashboard alone, following the tables on the configured broker', help: dashboardHelp, run: dashboardCommand },
  simulate: { summary: 'bots play complete games; prints throughput and outcome statistics', help: simulateHelp, run: simulateCommand },
  replay: { summary: 'apply an action log and print the resulting view', help: replayHelp, run: replayCommand },
  scenario: { summary: 'run rule scenario files and report pass/fail per case', help: scenarioHelp, run: scenarioCommand },
  history: { summary: 'games in the event log with results; one game\'s full log', help: historyHelp, run: historyCommand },
  config: { summary: 'check a configuration file, print examples and the key reference', help: configHelp, run: configCommand },
  bench: { summary: 'benchmarks that print figures (timing)', help: benchHelp, run: benchCommand },
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
    io.out(topic.help);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`zaptable: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
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

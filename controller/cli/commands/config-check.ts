/**
 * `zaptable config`: check a configuration file (every error at once, with its line), print the effective
 * configuration with secrets masked, print an example, or print the key reference.
 */
import { projectFile } from '../../config/project-root.ts';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { formatConfigError, loadConfig, maskSecrets, referenceMarkdown } from '../../config/index.ts';
import { parse, UsageError } from '../args.ts';
import type { Output } from '../output.ts';

export const configHelp = `zaptable config check [FILE] [--json]
zaptable config example [simulated|table-4|killer-21|killer-21-table-deal|buzzer-quiz|external-mosquitto|venue-pi|venue-dashboard]
zaptable config reference

check      validates FILE (default: $ZAPTABLE_CONFIG, else ./zaptable.yaml, else the built-in demo)
           with the environment overrides applied, exactly as start-up does. Prints every error with
           its path and line (exit 1), or OK and the effective configuration with secrets masked (exit 0).
example    prints an example file: simulated (the demo), table-4 (a real 4-seat table on serial
           stations), killer-21 (a simulated Killer-21 table), killer-21-table-deal (a real Killer-21
           table dealing a real deck), buzzer-quiz (a buzzer table for events), external-mosquitto
           (an external broker with TLS), venue-pi and venue-dashboard (a Pi per table on a venue's
           broker, and the dashboard for the room: docs/venue.md).
reference  prints every key with its type, default and meaning (Markdown).

  --json    check: print the result as JSON (errors, or the masked configuration and notes)

Environment: ZAPTABLE_MQTT_PASSWORD, ZAPTABLE_DASHBOARD_TOKEN, ZAPTABLE__SECTION__KEY=value
(see docs/configuration.md). Environment wins over the file, the file over the defaults.`;

/** docs/config-examples/, found from this file so that the command works from any directory. */
export const EXAMPLES_DIR = projectFile('docs', 'config-examples');

/** A short name for a file whose name is long; every file is also named by its own name without `.yaml`. */
const SHORT_NAMES: Readonly<Record<string, string>> = { 'table-4': 'table-4-seats.yaml' };

/** Every example by name: the short names, then each file of the folder (so a new file needs no code). */
function examples(): Readonly<Record<string, string>> {
  const out: Record<string, string> = { ...SHORT_NAMES };
  for (const file of readdirSync(EXAMPLES_DIR).filter((f) => f.endsWith('.yaml')).sort()) out[file.slice(0, -'.yaml'.length)] ??= file;
  return out;
}

function check(argv: readonly string[], io: Output): number {
  const { values, positionals } = parse(argv, { json: { type: 'boolean' } });
  if (positionals.length > 1) throw new UsageError('config check takes at most one FILE');
  const result = loadConfig({ ...(positionals[0] === undefined ? {} : { file: positionals[0] }), generateSecrets: false });
  const shown = result.file === undefined ? undefined : path.relative(process.cwd(), result.file) || result.file;
  if (!result.ok) {
    if (values.json) io.out(JSON.stringify({ ok: false, file: result.file ?? null, errors: result.errors }, null, 2));
    else {
      for (const error of result.errors) io.err(formatConfigError(error, shown));
      io.err(`${result.errors.length} error${result.errors.length === 1 ? '' : 's'} in ${shown ?? 'the configuration'}`);
    }
    return 1;
  }
  const masked = maskSecrets(result.config);
  if (values.json) {
    io.out(JSON.stringify({ ok: true, file: result.file ?? null, notes: result.notes, config: masked }, null, 2));
    return 0;
  }
  io.out(`OK: ${shown ?? 'built-in defaults'}`);
  for (const note of result.notes) io.out(`note: ${note}`);
  io.out('');
  io.out('# effective configuration (secrets masked)');
  io.out(stringify(masked).trimEnd());
  return 0;
}

function example(argv: readonly string[], io: Output): number {
  const { positionals } = parse(argv, {});
  const name = positionals[0] ?? 'simulated';
  const all = examples();
  const file = all[name];
  if (file === undefined || positionals.length > 1) throw new UsageError(`config example takes one of ${Object.keys(all).join(', ')}`);
  io.out(readFileSync(path.join(EXAMPLES_DIR, file), 'utf8').trimEnd());
  return 0;
}

export function configCommand(argv: readonly string[], io: Output): number {
  const [action, ...rest] = argv;
  if (action === undefined) throw new UsageError('config needs an action: check, example or reference');
  switch (action) {
    case 'check': return check(rest, io);
    case 'example': return example(rest, io);
    case 'reference':
      parse(rest, {});
      io.out(referenceMarkdown());
      return 0;
    default: throw new UsageError(`unknown action "${action}" (check, example or reference)`);
  }
}

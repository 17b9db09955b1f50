/**
 * `zaptable venue acl`: the venue broker's Mosquitto ACL file, written from the controllers' own configuration
 * files (docs/venue.md), so that each controller may publish only its own bridge topics and tables. Checked
 * first, as on event day nobody wants to find it out at the tables: every controller needs its own id and its
 * own broker account, and no table id may be configured on two controllers (`TABLE_ID_TAKEN`).
 */
import { formatConfigError, loadConfig, type ZaptableConfig } from '../../config/index.ts';
import { mosquittoAcl, type BrokerAccount } from '../../transport/index.ts';
import { parse, UsageError } from '../args.ts';
import type { Output } from '../output.ts';

export const venueHelp = `zaptable venue acl CONFIG... [--referee USER]... [--viewer USER]...

Prints the Mosquitto acl_file for a venue: one block per controller (read from its configuration file:
controller.id, mqtt.controller.username, its tables), which may write only <base>/bridge/<id>/# and its
own tables' topics, then the referee accounts (dashboards) and viewer accounts. Refuses, and prints
nothing, when two controllers share an id, a broker account or a table id, or their base topics differ.

  --referee USER   a referee account (repeatable; default: dashboard.mqtt.username of the first file)
  --viewer USER    a viewer account (repeatable; default: mqtt.viewer.username of the first file)

Example: zaptable venue acl pi-bar-1.yaml pi-bar-2.yaml pi-stage.yaml > /etc/mosquitto/zaptable.acl`;

/** The problems that make a set of controller configurations unusable at one venue (empty when fine). */
export function venueProblems(configs: readonly { readonly file: string; readonly config: ZaptableConfig }[]): string[] {
  const problems: string[] = [];
  const seen = (what: string, key: (c: ZaptableConfig) => readonly string[], code: string): void => {
    const owner = new Map<string, string>();
    for (const { file, config } of configs) {
      for (const value of key(config)) {
        const first = owner.get(value);
        if (first === undefined) owner.set(value, file);
        else problems.push(`${code}: ${what} ${value} is configured in ${first} and in ${file}`);
      }
    }
  };
  seen('controller id', (c) => [c.controller.id], 'CONTROLLER_ID_TAKEN');
  // Read on one machine, a file without `controller.id` gets this machine's host name, not its Pi's.
  if (problems.some((p) => p.startsWith('CONTROLLER_ID_TAKEN'))) {
    problems.push('set controller.id in each file (without it a controller is named after the host it runs on)');
  }
  seen('broker account', (c) => [c.mqtt.controller.username], 'ACCOUNT_SHARED');
  seen('table id', (c) => c.tables.map((t) => t.id), 'TABLE_ID_TAKEN');
  const bases = new Set(configs.map(({ config }) => config.mqtt.baseTopic));
  if (bases.size > 1) problems.push(`BASE_TOPICS_DIFFER: the controllers use different base topics (${[...bases].join(', ')})`);
  return problems;
}

function acl(argv: readonly string[], io: Output): number {
  const { values, positionals } = parse(argv, {
    referee: { type: 'string', multiple: true }, viewer: { type: 'string', multiple: true },
  });
  if (positionals.length === 0) throw new UsageError('venue acl needs the configuration file of every controller');
  const configs: { file: string; config: ZaptableConfig }[] = [];
  let failed = false;
  for (const file of positionals) {
    // The Pis' TLS files are on the Pis, not on the laptop that writes the ACL.
    const loaded = loadConfig({ file, generateSecrets: false, tlsFiles: false });
    if (!loaded.ok) {
      for (const error of loaded.errors) io.err(formatConfigError(error, file));
      failed = true;
    } else {
      configs.push({ file, config: loaded.config });
    }
  }
  if (failed) return 1;
  const problems = venueProblems(configs);
  for (const problem of problems) io.err(problem);
  if (problems.length > 0) return 1;
  const first = configs[0]?.config;
  if (first === undefined) return 1;
  const accounts: BrokerAccount[] = [
    ...configs.map(({ config }) => ({
      username: config.mqtt.controller.username, role: 'controller' as const,
      venue: { controller: config.controller.id, tables: config.tables.map((t) => t.id) },
    })),
    ...(values.referee ?? [first.dashboard.mqtt.username]).map((username) => ({ username, role: 'referee' as const })),
    ...(values.viewer ?? [first.mqtt.viewer.username]).map((username) => ({ username, role: 'viewer' as const })),
  ];
  try {
    io.out(mosquittoAcl(first.mqtt.baseTopic, accounts).trimEnd());
  } catch (error) {
    io.err(error instanceof Error ? error.message : String(error));
    return 1;
  }
  return 0;
}

export function venueCommand(argv: readonly string[], io: Output): number {
  const [sub, ...rest] = argv;
  if (sub === 'acl') return acl(rest, io);
  throw new UsageError(`venue takes acl, not ${JSON.stringify(sub ?? '')}`);
}

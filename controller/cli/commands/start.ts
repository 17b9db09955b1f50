/**
 * `zaptable start`: the main job. Loads and checks the configuration, then starts the event log, the MQTT
 * broker (embedded by default), the controller on the configured hardware (the simulated table with bots when
 * none is configured) and the dashboard; prints where to look; shuts down cleanly on Ctrl-C.
 */
import { missingNodeFlags, nodeCommand } from '../../app/node-flags.ts';
import { ControllerApp, type DashboardStartOptions } from '../../app/controller-app.ts';
import { formatConfigError, loadConfig, maskSecrets, type ZaptableConfig } from '../../config/index.ts';
import { parse } from '../args.ts';
import type { Output } from '../output.ts';

export const startHelp = `zaptable start [--config FILE] [--no-dashboard]

Starts everything on this machine: the event log (SQLite), the MQTT broker (embedded unless the
config names an external one), the controller on the configured hardware — the simulated table
with bots when no hardware is configured — and the live dashboard. Ctrl-C stops it cleanly; a
game in progress continues where it stopped at the next start.

  --config FILE     the configuration (default ./zaptable.yaml, or $ZAPTABLE_CONFIG; without
                    one: the built-in demo). Check it first with \`zaptable config check FILE\`.
  --no-dashboard    do not start the dashboard`;

/**
 * The dashboard as `zaptable start` runs it (exported for the dashboard's end-to-end tests). Imported only
 * when the dashboard starts: Fastify, its plugins and esbuild are ~20 MB of resident memory that a controller
 * with its dashboard off (a Pi whose venue serves the dashboard) never loads (test/app/lazy-modules.test.ts).
 */
export async function dashboardFor(options: DashboardStartOptions) {
  const { config } = options;
  const { startDashboard } = await import('../../../dashboard/server/server.ts');
  return startDashboard({
    host: config.dashboard.host,
    port: config.dashboard.port,
    token: config.dashboard.token ?? '',
    simulated: options.simulated,
    // The configuration page's (token only); its secrets never reach the dashboard.
    config: maskSecrets(config),
    mqtt: {
      url: options.brokerUrl, username: config.dashboard.mqtt.username, password: config.dashboard.mqtt.password ?? '',
      baseTopic: config.mqtt.baseTopic, ...(options.tls === undefined ? {} : { tls: options.tls }),
    },
  });
}

/**
 * What to type to watch the tables: with the demo viewer login (read-only) on the embedded broker, never the
 * controller's account, which may publish state. Viewers may read the public topics, not `<base>/#`.
 */
function viewerHint(brokerUrl: string, config: ZaptableConfig): string {
  const { hostname, port } = new URL(brokerUrl);
  const base = config.mqtt.baseTopic;
  const topics = `-t '${base}/+/state' -t '${base}/+/events' -t '${base}/+/status'`;
  const viewer = config.mqtt.viewer;
  if (config.mqtt.broker === 'embedded' && viewer.password !== undefined) {
    return `mosquitto_sub -h ${hostname} -p ${port} -u ${viewer.username} -P '${viewer.password}' -v ${topics}`;
  }
  return `mosquitto_sub -h ${hostname} -p ${port} -u <a viewer login of your broker> -P <its password> -v ${topics}`;
}

/**
 * The banner's dashboard lines: this machine's address, then every LAN address for phones and tablets (a
 * wildcard host listens on all of them; 127.0.0.1 on a phone is the phone itself).
 */
export function dashboardLines(local: string | undefined, lan: readonly string[]): string[] {
  if (local === undefined) return [];
  const lines = [`  dashboard  ${local}${lan.length > 0 ? '  (this machine)' : ''}`];
  for (const url of lan) lines.push(`             ${url}  (phones and tablets on this network)`);
  return lines;
}

export async function startCommand(argv: readonly string[], io: Output): Promise<number> {
  const { values } = parse(argv, { config: { type: 'string' }, 'no-dashboard': { type: 'boolean' } });
  const loaded = loadConfig(values.config === undefined ? {} : { file: values.config });
  if (!loaded.ok) {
    io.err(`zaptable start: the configuration${loaded.file ? ` ${loaded.file}` : ''} has ${loaded.errors.length} error(s):`);
    for (const error of loaded.errors) io.err(`  ${formatConfigError(error)}`);
    return 1;
  }
  const { config } = loaded;
  for (const note of loaded.notes) io.out(`note: ${note}`);
  const app = new ControllerApp({
    config, tls: loaded.tls,
    say: (line) => {
      io.out(line);
    },
    ...(values['no-dashboard'] ? {} : { dashboard: dashboardFor }),
  });
  let started;
  try {
    started = await app.start();
  } catch (error) {
    io.err(`zaptable start: ${(error as Error).message}`);
    return 1;
  }
  io.out('');
  io.out('zaptable is running');
  io.out(`  tables     ${started.tables.join(', ')} (${hardwareWords(config)})`);
  io.out(`  MQTT       ${started.brokerUrl}  (base topic ${config.mqtt.baseTopic})`);
  const venueUrl = (maskSecrets(config) as typeof config).mqtt.venue.url;
  if (venueUrl !== undefined) io.out(`  venue      ${venueUrl}  (linked; the tables play on whatever the venue network does)`);
  io.out(`  try        ${viewerHint(started.brokerUrl, config)}`);
  io.out(`  event log  ${started.databaseFile}`);
  for (const line of dashboardLines(started.dashboardUrl, started.dashboardLanUrls ?? [])) io.out(line);
  for (const secret of loaded.generated) {
    io.out(`  ${secret.path} for this run: ${secret.value}  (set ${secret.variable} to keep one)`);
  }
  const missing = missingNodeFlags();
  if (missing.length > 0) {
    io.out(`  memory     node runs without ${missing.join(' ')}: ${nodeCommand('start')} holds 14–18 MB less (docs/performance.md, "The node flags")`);
  }
  io.out('Press Ctrl-C to stop.');
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  io.out('stopping…');
  await app.stop();
  io.out('stopped.');
  return 0;
}

/** What the tables run on, in words: "simulated table with bots" only when a bot plays some seat. */
export function hardwareWords(config: ZaptableConfig): string {
  if (config.hardware.kind !== 'simulated') return 'serial stations';
  const bots = config.hardware.simulated.bots && config.tables.some((t) => t.seats.some((s) => s.bot));
  return bots ? 'simulated table with bots' : 'simulated table, no bots (play from the simulator panel)';
}

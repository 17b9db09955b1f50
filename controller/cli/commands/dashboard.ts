/**
 * `zaptable dashboard`: the dashboard alone, following a broker on which a controller runs elsewhere (or
 * another process on this machine). It reads the same configuration as the controller: the broker
 * (`mqtt.*`), the dashboard's identity (`dashboard.mqtt`), its token and address (`dashboard.*`). The passwords
 * and the token must be set (file or environment): ones generated for this run would not match the broker's.
 */
import { loadConfig, formatConfigError, maskSecrets } from '../../config/index.ts';
import { startDashboard } from '../../../dashboard/server/server.ts';
import { intOption, parse } from '../args.ts';
import type { Output } from '../output.ts';

export const dashboardHelp = `zaptable dashboard [--config FILE] [--host HOST] [--port PORT] [--broker URL]

Serves the live dashboard for every table of every controller under the configured base topic
(one controller, or a venue of several on one broker: docs/venue.md), connected to the broker as the
dashboard's identity. Viewing needs no login; controls need dashboard.token. A request goes to the
controller that runs the table, with that controller's token from dashboard.controllerTokens
(dashboard.token for a controller not listed).

  --config FILE   the configuration (default ./zaptable.yaml or $ZAPTABLE_CONFIG)
  --host HOST     listen address (default dashboard.host)
  --port PORT     HTTP port (default dashboard.port)
  --broker URL    broker URL (default: the embedded broker's address, or mqtt.external.url;
                  mqtt.external.tls applies to it with broker: external)

Stops on Ctrl-C (SIGINT) or SIGTERM.`;

/** Resolves when the process is asked to stop. */
async function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    const done = (signal: string): void => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(signal);
    };
    const onInt = (): void => {
      done('SIGINT');
    };
    const onTerm = (): void => {
      done('SIGTERM');
    };
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
  });
}

/** `stop` resolves when the dashboard should stop (default: SIGINT or SIGTERM); tests pass their own. */
export async function dashboardCommand(
  argv: readonly string[], io: Output, stop: () => Promise<string> = untilSignal,
): Promise<number> {
  const { values } = parse(argv, { config: { type: 'string' }, host: { type: 'string' }, port: { type: 'string' }, broker: { type: 'string' } });
  const loaded = loadConfig({ ...(values.config === undefined ? {} : { file: values.config }) });
  if (!loaded.ok) {
    for (const error of loaded.errors) io.err(formatConfigError(error, loaded.file));
    return 1;
  }
  const { config } = loaded;
  for (const g of loaded.generated) {
    if (g.path === 'dashboard.token' || g.path === 'dashboard.mqtt.password') {
      io.err(`zaptable dashboard: ${g.path} is not configured; set ${g.variable} to the value the controller uses`);
      return 1;
    }
  }
  const embeddedHost = config.mqtt.embedded.host === '0.0.0.0' ? '127.0.0.1' : config.mqtt.embedded.host;
  const url = values.broker ?? (config.mqtt.broker === 'external' ? config.mqtt.external.url : `mqtt://${embeddedHost}:${config.mqtt.embedded.port}`);
  if (url === undefined) {
    io.err('zaptable dashboard: no broker URL (mqtt.external.url or --broker)');
    return 1;
  }
  const token = config.dashboard.token ?? '';
  let running;
  try {
    running = await startDashboard({
      host: values.host ?? config.dashboard.host,
      port: intOption(values.port, 'port', config.dashboard.port, 1, 65_535),
      token,
      controllerTokens: Object.fromEntries(config.dashboard.controllerTokens.map((c) => [c.controller, c.token])),
      simulated: config.hardware.kind === 'simulated',
      config: maskSecrets(config),
      mqtt: {
        url, username: config.dashboard.mqtt.username, password: config.dashboard.mqtt.password ?? '', baseTopic: config.mqtt.baseTopic,
        ...(loaded.tls.external === undefined ? {} : { tls: loaded.tls.external }),
      },
      logger: { level: config.log.level === 'silent' ? 'silent' : config.log.level },
    });
  } catch (error) {
    // A refused login or a certificate that does not verify: said in one line, not a stack trace.
    io.err(`zaptable dashboard: ${(error as Error).message}`);
    return 1;
  }
  io.out(`dashboard: ${running.url} (broker ${url.replace(/\/\/[^@/]*@/, '//')}, base topic ${config.mqtt.baseTopic})`);
  for (const lan of running.lanUrls) io.out(`dashboard: ${lan} (phones and tablets on this network)`);
  const signal = await stop();
  io.out(`dashboard: ${signal}, stopping`);
  await running.close();
  return 0;
}

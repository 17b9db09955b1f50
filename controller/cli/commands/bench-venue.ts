/**
 * `zaptable bench venue`: N controller processes on one Mosquitto with the venue dashboard, a bridged public
 * broker and their viewers, for N = 1, 2, 4, 8 by default. Method: controller/bench/venue-bench.ts. Figures,
 * not a timed test (exit code 0 whatever they say; the verdict is printed).
 */
import { runVenueBench, type VenueBenchFigures, type VenueBenchOptions } from '../../bench/venue-bench.ts';
import { venueReport } from '../../bench/venue/report.ts';
import { mosquittoProblem } from '../../bench/mosquitto.ts';
import { DEFAULT_ARBITRATION_WINDOW_MS } from '../../config/schema-tables.ts';
import { UsageError, intOption, parse } from '../args.ts';
import type { Output } from '../output.ts';
import { runAndReport } from './bench-options.ts';

export const benchVenueHelp = `zaptable bench venue [--controllers 1,2,4,8] [--tables M] [--speed X] [--seconds S]
        [--venue-viewers V] [--dashboard-viewers D] [--dashboard-follow all|one]
        [--public-viewers P] [--public-follow one|all] [--window-ms W] [--fault bridge-cut] [--json]

A venue on this machine (docs/venue.md, docs/venue-broadcast.md): the venue Mosquitto with an account and a
scoped ACL per controller, and for each count N in --controllers: N controller processes (zaptable start, M
simulated tables each, default 2, bots in every seat at --speed, default 4), the venue dashboard process
(zaptable dashboard) and a public Mosquitto bridged from the venue's (the texts of zaptable mosquitto-config
bridge|public, plus a WebSocket listener). The audience:

  --venue-viewers V      MQTT viewers on the venue broker, every table's events (default 50)
  --dashboard-viewers D  WebSocket viewers on the dashboard's /live (default 500), in a process of their own
  --dashboard-follow     all: every table (big screens; default)  one: one table each (phones)
  --public-viewers P     anonymous MQTT-over-WebSocket viewers on the public broker (default 1000), in a
                         process of their own
  --public-follow        one: one table's state and events each, round-robin (default)  all: every table
  --window-ms W          every table's arbitration window (default: the table's own, ${DEFAULT_ARBITRATION_WINDOW_MS} ms). A card play
                         waits it out for earlier-stamped plays from other stations; 0 shows what it costs
  --fault bridge-cut     cut the public link for 2 s mid-window: the bench must report lost deliveries (MISS)

After 5 s of warm-up, for S seconds (default 15) it measures sensor -> viewer latency for each kind of viewer
(receipt minus the event's time on the controller's clock; p50, p99, max), lost deliveries (every viewer must
get every event of the tables it follows, by per-table seq), and the CPU (% of one core) and RSS of every
process (Linux /proc). Prints one line per N and a verdict.

Needs Debian's mosquitto. Goals (issue 19) at 8 controllers x 2 tables: 0 lost, p99 <= 50 ms to a venue viewer,
<= 150 ms to a public viewer, with the tables' default window.`;

function countsOption(value: string | undefined): number[] {
  const counts = (value ?? '1,2,4,8').split(',').map((s) => Number(s.trim()));
  if (counts.length === 0 || counts.some((n) => !Number.isInteger(n) || n < 1 || n > 32)) {
    throw new UsageError('--controllers must be a comma-separated list of whole numbers from 1 to 32');
  }
  return counts;
}

function followOption(value: string | undefined, name: string, fallback: 'all' | 'one'): 'all' | 'one' {
  const follow = value ?? fallback;
  if (follow !== 'all' && follow !== 'one') throw new UsageError(`--${name} must be all or one`);
  return follow;
}

function faultOption(value: string | undefined): VenueBenchOptions['fault'] {
  if (value === undefined) return undefined;
  if (value !== 'bridge-cut') throw new UsageError('--fault must be bridge-cut');
  return value;
}

export async function benchVenueCommand(argv: readonly string[], io: Output): Promise<number> {
  const { values } = parse(argv, {
    controllers: { type: 'string' }, tables: { type: 'string' }, seconds: { type: 'string' }, speed: { type: 'string' },
    'venue-viewers': { type: 'string' }, 'dashboard-viewers': { type: 'string' }, 'dashboard-follow': { type: 'string' },
    'public-viewers': { type: 'string' }, 'public-follow': { type: 'string' }, fault: { type: 'string' },
    'window-ms': { type: 'string' }, json: { type: 'boolean' },
  });
  const counts = countsOption(values.controllers);
  const fault = faultOption(values.fault);
  const options: Omit<VenueBenchOptions, 'controllers'> = {
    tablesPerController: intOption(values.tables, 'tables', 2, 1, 16),
    venueViewers: intOption(values['venue-viewers'], 'venue-viewers', 50, 1, 5000),
    dashboardViewers: intOption(values['dashboard-viewers'], 'dashboard-viewers', 500, 0, 5000),
    dashboardFollow: followOption(values['dashboard-follow'], 'dashboard-follow', 'all'),
    publicViewers: intOption(values['public-viewers'], 'public-viewers', 1000, 0, 10_000),
    publicFollow: followOption(values['public-follow'], 'public-follow', 'one'),
    seconds: intOption(values.seconds, 'seconds', 15, 1, 3600),
    speed: intOption(values.speed, 'speed', 4, 1, 100),
    warmupSeconds: 5,
    ...(values['window-ms'] === undefined ? {} : { arbitrationWindowMs: intOption(values['window-ms'], 'window-ms', DEFAULT_ARBITRATION_WINDOW_MS, 0, 10_000) }),
    ...(fault === undefined ? {} : { fault }),
  };
  const problem = mosquittoProblem();
  if (problem !== undefined) {
    io.err(`bench venue: ${problem}`);
    return 1;
  }
  return runAndReport(io, 'venue', values.json === true, async (progress) => {
    const results: VenueBenchFigures[] = [];
    for (const controllers of counts) results.push(await runVenueBench({ ...options, controllers }, progress));
    return results;
  }, (results) => venueReport({ ...options, controllers: counts.at(-1) ?? 1 }, results));
}

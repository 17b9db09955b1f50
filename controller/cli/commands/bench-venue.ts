/**
 * `zaptable bench venue`: N controller processes on one Mosquitto with viewers, for N = 1, 2, 4, 8 by default.
 * Method: controller/bench/venue-bench.ts. Figures, not a timed test (exit code 0 whatever they say).
 */
import { runVenueBench, type VenueBenchFigures } from '../../bench/venue-bench.ts';
import { mosquittoProblem } from '../../bench/mosquitto.ts';
import { UsageError, intOption, parse } from '../args.ts';
import type { Output } from '../output.ts';

export const benchVenueHelp = `zaptable bench venue [--controllers 1,2,4,8] [--tables M] [--viewers V] [--seconds S] [--speed X] [--json]

A venue on this machine (docs/venue.md): Mosquitto with an account and a scoped ACL per controller, and for
each count N in --controllers, N controller processes (zaptable start, M simulated tables each, default 2,
bots in every seat at --speed, default 4) and V MQTT viewers (default 50) following every table's events.
After 5 s of warm-up, for S seconds (default 15) it measures the sensor -> viewer latency (a viewer's receipt
minus the event's time on the controller's clock; p50, p99, max), and the broker's and the controllers'
CPU (% of one core) and RSS (Linux /proc). Prints one line per N: how the cost grows with the controllers.

Needs Debian's mosquitto. Goal (issue 19): p99 <= 50 ms at 8 controllers x 2 tables.`;

function countsOption(value: string | undefined): number[] {
  const counts = (value ?? '1,2,4,8').split(',').map((s) => Number(s.trim()));
  if (counts.length === 0 || counts.some((n) => !Number.isInteger(n) || n < 1 || n > 32)) {
    throw new UsageError('--controllers must be a comma-separated list of whole numbers from 1 to 32');
  }
  return counts;
}

export async function benchVenueCommand(argv: readonly string[], io: Output): Promise<number> {
  const { values } = parse(argv, {
    controllers: { type: 'string' }, tables: { type: 'string' }, viewers: { type: 'string' }, seconds: { type: 'string' },
    speed: { type: 'string' }, json: { type: 'boolean' },
  });
  const problem = mosquittoProblem();
  if (problem !== undefined) {
    io.err(`bench venue: ${problem}`);
    return 1;
  }
  const counts = countsOption(values.controllers);
  const options = {
    tablesPerController: intOption(values.tables, 'tables', 2, 1, 16),
    viewers: intOption(values.viewers, 'viewers', 50, 1, 5000),
    seconds: intOption(values.seconds, 'seconds', 15, 1, 3600),
    speed: intOption(values.speed, 'speed', 4, 1, 100),
    warmupSeconds: 5,
  };
  const results: VenueBenchFigures[] = [];
  for (const controllers of counts) {
    results.push(await runVenueBench({ ...options, controllers }, (text) => {
      io.progress(`bench venue: ${text}`);
    }));
  }
  io.progress('');
  if (values.json === true) {
    io.out(JSON.stringify(results, null, 2));
    return 0;
  }
  io.out(`venue: ${options.tablesPerController} table(s) per controller, bots at speed ${options.speed}, ${options.viewers} MQTT viewers `
    + `on every table's events, ${options.seconds} s per step (Mosquitto, loopback)`);
  io.out(' ctl tables events/s   p50 ms   p99 ms   max ms   broker CPU %  RSS MB   controller CPU % (mean)  RSS MB (mean, peak)');
  for (const r of results) {
    io.out(`${String(r.controllers).padStart(4)}${String(r.tables).padStart(7)}${(r.events / r.seconds).toFixed(1).padStart(9)}`
      + `${r.p50Ms.toFixed(1).padStart(9)}${r.p99Ms.toFixed(1).padStart(9)}${r.maxMs.toFixed(1).padStart(9)}`
      + `${r.broker.cpuPercent.toFixed(1).padStart(15)}${r.broker.rssMb.toFixed(1).padStart(8)}`
      + `${r.controllerMean.cpuPercent.toFixed(1).padStart(25)}${r.controllerMean.rssMb.toFixed(1).padStart(9)}, ${r.controllerMean.peakRssMb.toFixed(1)}`);
  }
  return 0;
}

/**
 * `zaptable stations`: what the stations say, for people building or checking a table (hardware/build-guide.md).
 * Each station as it comes online (id, kind, firmware, boot counter, port, sensor faults), then every event it
 * sends — tags, settled weights, the button, slaps — through the same serial driver the controller uses, so a
 * line shown here is a line the game would see.
 */
import type { SensorEvent, SerialStationHealth, StationId } from '../../hardware/index.ts';
import { intOption, parse, UsageError } from '../args.ts';
import type { Output } from '../output.ts';
import { aborted, configFor, openSession, type SetupDeps } from '../setup/setup-context.ts';
import { configuredSeatStations } from '../setup/setup-hardware.ts';

export const stationsHelp = `zaptable stations [--station ID] [--seconds N] [--config FILE] [--simulate]

Shows what the stations say, to check a station while you build it (hardware/build-guide.md): each
station as it comes online — id, kind, firmware, protocol, boot counter, port and any sensor fault
(FAULT+ rfid: the reader does not answer; FAULT+ scale: the HX711 gives no samples) — then every event:
a tag arriving (TAG+) and leaving (TAG-), a settled weight (W, calibrated seats only), the button
(BTN+ / BTN-) and a slap (SLAP). Stop the controller first (one program per serial port).

  --station ID    only this station
  --seconds N     stop after N seconds (default: run until Ctrl-C)
  --config FILE   the configuration (default: $ZAPTABLE_CONFIG, else ./zaptable.yaml)
  --simulate      the simulated table (no hardware)`;

/** One event as a line: what the station reported, in its protocol's words. */
export function describeEvent(event: SensorEvent): string {
  switch (event.kind) {
    case 'tag-arrived': {
      const slap = event.slap === undefined ? '' : ', landed with its SLAP';
      return `TAG+ ${event.uid} (read within ${(event.time.beforeUs / 1000).toFixed(1)} ms${slap})`;
    }
    case 'tag-left':
      return `TAG- ${event.uid}`;
    case 'weight-settled':
      return `W ${event.grams.toFixed(1)} g settled`;
    case 'button-pressed':
      return 'BTN+ (pressed)';
    case 'button-released':
      return 'BTN- (released)';
    case 'slap':
      return 'SLAP';
  }
}

function describeStation(h: SerialStationHealth): string {
  if (!h.online) return `${h.station}: offline`;
  const faults = h.faults.length === 0 ? 'no faults' : h.faults.map((f) => `FAULT+ ${f}`).join(', ');
  return `${h.station}: online, ${h.kind}, firmware ${h.firmware ?? '?'} (protocol ${h.protocol ?? '?'}), boot ${h.boot}, `
    + `on ${h.port ?? '?'}; ${faults}`;
}

export async function stationsCommand(argv: readonly string[], io: Output, deps: SetupDeps = {}): Promise<number> {
  const { values, positionals } = parse(argv, {
    config: { type: 'string' }, station: { type: 'string' }, seconds: { type: 'string' }, simulate: { type: 'boolean' },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0] ?? ''}"`);
  const seconds = values.seconds === undefined ? undefined : intOption(values.seconds, 'seconds', 0, 1, 86_400);
  const config = configFor(values.config, io, 'stations');
  if (config === undefined) return 1;
  const simulate = values.simulate === true || config.hardware.kind === 'simulated';
  const only: StationId | undefined = values.station;
  const simulatedStations = only === undefined ? configuredSeatStations(config) : [only];
  const session = await openSession({ config, simulate, simulatedStations, simulatedCalibrated: true, deps, io });
  const stations = session.hardware.stations;
  const startUs = session.time.nowUs();
  const since = (): string => `+${((session.time.nowUs() - startUs) / 1e6).toFixed(3)} s`;
  const shown = new Map<StationId, string>();
  const showHealth = (): void => {
    for (const h of stations.health()) {
      if (only !== undefined && h.station !== only) continue;
      const line = describeStation(h);
      if (shown.get(h.station) === line) continue;
      shown.set(h.station, line);
      io.out(`${since()}  ${line}`);
    }
  };
  try {
    const unsubscribe = stations.onHealth(showHealth);
    session.onEvent((event) => {
      if (only === undefined || event.station === only) io.out(`${since()}  ${event.station}  ${describeEvent(event)}`);
    });
    io.out(`watching ${only ?? 'every station'}${simulate ? ' (simulated table)' : ''}; `
      + (seconds === undefined ? 'Ctrl-C stops' : `stopping after ${seconds} s`));
    showHealth();
    // Nobody online after the banner wait: say so once (the watch goes on; a board may still be plugged in).
    const quiet = session.scheduler.after(config.hardware.serial.bannerTimeoutMs + 2000, () => {
      if (shown.size === 0) io.err('no station online yet: check the USB cables, that the controller is stopped, and `hardware.serial`');
    });
    const stopped = new Promise<void>((resolve) => {
      if (seconds !== undefined) session.scheduler.after(seconds * 1000, resolve);
    });
    await Promise.race([stopped, aborted(session.signal)]);
    quiet();
    unsubscribe();
    return session.signal.aborted ? 130 : 0;
  } finally {
    await session.close();
  }
}

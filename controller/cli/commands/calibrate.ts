/**
 * `zaptable calibrate`: tares and calibrates each seat station's scale with a known weight, then learns the
 * barrel weights on one station so a settled weight gives a stone count (runtime/setup/calibrate-session.ts).
 * Every calibrated station is saved at once (storage.calibration); Ctrl-C keeps what is finished.
 */
import path from 'node:path';
import type { SensorEvent, StationId } from '../../hardware/index.ts';
import { loadCalibration, saveCalibration } from '../../runtime/calibration/calibration-file.ts';
import { loadRegistry } from '../../runtime/registry/registry-file.ts';
import { tagOf, type TagRegistry } from '../../runtime/registry/tag-registry.ts';
import { CalibrateSession } from '../../runtime/setup/calibrate-session.ts';
import type { CalibrateUpdate } from '../../runtime/setup/calibrate-types.ts';
import { intOption, parse, UsageError } from '../args.ts';
import type { Output } from '../output.ts';
import { deferred, enterPresses } from '../setup/interrupt.ts';
import { progressBar, ProgressLine } from '../setup/progress-bar.ts';
import { READ_RANGE_NEEDED_MM, READ_RANGE_WINDOW_MS, ReadRangeFlow, ReadRangePerson, type ReadRangeUpdate } from '../setup/read-range.ts';
import { CalibratePerson } from '../setup/scripted-person.ts';
import { aborted, configFor, onlineSeats, openSession, type Session, type SetupDeps } from '../setup/setup-context.ts';
import { configuredSeatStations } from '../setup/setup-hardware.ts';

export const calibrateHelp = `zaptable calibrate [--station ID] [--known-grams G] [--barrels 1,7,13] [--config FILE] [--simulate]
zaptable calibrate --read-range [--station ID] [--config FILE] [--simulate]

Calibrates the scales and learns the barrel weights. For each seat station: clear the pad and press
Enter (tare), place the known weight and press Enter (calibrate), the weight is read back and checked,
take it off. Then, on one station, place the listed barrels one by one (their tags say which barrel it
is; enroll them first): the empty-barrel and stone weights are fitted, and a barrel whose weight does
not match its tag is flagged. Saved to storage.calibration (default data/calibration.json) as it goes.
A failed step shows its code; press Enter to try it again. Ctrl-C stops. See docs/setup.md.

  --station ID       calibrate only this station, and weigh the barrels on it
                     (default: every seat station online; barrels on the first)
  --known-grams G    the known weight in grams, 1–100000 (default 500)
  --barrels LIST     barrels to weigh, comma-separated, two different at least (default 1,7,13); none: skip
  --config FILE      the configuration (default: $ZAPTABLE_CONFIG, else ./zaptable.yaml)
  --simulate         a simulated table where a scripted person does the placing (no hardware)

--read-range measures how far above the pad one tag still reads reliably (nothing is saved): hold
the tag flat over the ring on 0, 5, 10 … mm of spacers and press Enter at each height; each is
watched for ${READ_RANGE_WINDOW_MS / 1000} s (read at once, never lost). It stops at the first height that fails. A reader
must reach ${READ_RANGE_NEEDED_MM} mm (exit 0; else 1, READ_RANGE_SHORT): hardware/build-guide.md, step 4.`;

function barrelList(text: string | undefined): number[] {
  if (text === undefined) return [1, 7, 13];
  if (text === 'none') return [];
  const values = text.split(',').map((s) => Number(s.trim()));
  if (values.some((v) => !Number.isInteger(v) || v < 1 || v > 13) || new Set(values).size < 2) {
    throw new UsageError(`--barrels takes barrel numbers 1–13, comma-separated, at least two different (or none), got "${text}"`);
  }
  return values;
}

export async function calibrateCommand(argv: readonly string[], io: Output, deps: SetupDeps = {}): Promise<number> {
  const { values, positionals } = parse(argv, {
    config: { type: 'string' }, station: { type: 'string' }, 'known-grams': { type: 'string' },
    barrels: { type: 'string' }, simulate: { type: 'boolean' }, 'read-range': { type: 'boolean' },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0] ?? ''}"`);
  if (values['read-range'] === true) {
    if (values['known-grams'] !== undefined || values.barrels !== undefined) throw new UsageError('--read-range takes no --known-grams or --barrels');
    return readRangeCommand(values.config, values.station, values.simulate === true, io, deps);
  }
  const knownGrams = intOption(values['known-grams'], 'known-grams', 500, 1, 100_000);
  const barrels = barrelList(values.barrels);
  const config = configFor(values.config, io, 'calibrate');
  if (config === undefined) return 1;
  const file = config.storage.calibration;
  const calibration = loadCalibration(file);
  const registry = loadRegistry(config.storage.registry);
  if (!calibration.ok || !registry.ok) {
    const bad = !calibration.ok ? calibration : registry.ok ? undefined : registry;
    io.err(`zaptable calibrate: ${bad?.code ?? ''}: the file cannot be used; it was left untouched.`);
    for (const e of bad?.errors ?? []) io.err(`  ${e}`);
    return 1;
  }
  const untagged = barrels.filter((b) => tagOf(registry.registry, { kind: 'barrel', value: b }) === undefined);
  if (untagged.length > 0) {
    io.err(`zaptable calibrate: barrel${untagged.length === 1 ? '' : 's'} ${untagged.join(', ')} ha${untagged.length === 1 ? 's' : 've'} `
      + `no tag in ${config.storage.registry}: run \`zaptable enroll --only barrels\` first (or choose others with --barrels)`);
    return 1;
  }
  const simulate = values.simulate === true || config.hardware.kind === 'simulated';
  const wanted = values.station === undefined ? (simulate ? configuredSeatStations(config) : undefined) : [values.station];
  const session = await openSession({
    config, simulate, simulatedStations: wanted ?? configuredSeatStations(config), simulatedCalibrated: false, deps, io,
  });
  try {
    const stations = await onlineSeats(session, wanted, config.hardware.serial.bannerTimeoutMs + 2000);
    if (session.signal.aborted) return interrupted(io, path.relative(process.cwd(), file) || file);
    const first = stations[0];
    if (first === undefined) {
      io.err(`zaptable calibrate: ${wanted === undefined ? 'no seat station came online' : `station ${wanted.join(', ')} did not come online`} `
        + '(check the USB cables and `hardware.serial` in the configuration)');
      return 1;
    }
    return await run(session, {
      stations, barrelStation: first, barrels, knownGrams, registry: registry.registry, file, simulate, io,
      calibration: calibration.calibration,
    });
  } finally {
    await session.close();
  }
}

interface RunOptions {
  readonly stations: readonly StationId[];
  readonly barrelStation: StationId;
  readonly barrels: readonly number[];
  readonly knownGrams: number;
  readonly registry: TagRegistry;
  readonly calibration: Parameters<typeof saveCalibration>[1];
  readonly file: string;
  readonly simulate: boolean;
  readonly io: Output;
}

async function run(session: Session, o: RunOptions): Promise<number> {
  const line = new ProgressLine(o.io);
  const shown = path.relative(process.cwd(), o.file) || o.file;
  const ended = deferred<boolean>();
  const show = renderer(line, shown);
  let confirms: Promise<void> = Promise.resolve();
  // Enter presses and the scripted person's "done" go through one chain, so a command is never sent twice at once.
  const confirm = (): void => {
    confirms = confirms.then(() => flow.confirm()).catch((error: unknown) => {
      line.err(`✗ ${error instanceof Error ? error.message : String(error)}`);
      ended.resolve(false);
    });
  };
  const flow: CalibrateSession = new CalibrateSession({
    stations: o.stations, barrelStation: o.barrelStation, barrels: o.barrels, knownGrams: o.knownGrams,
    registry: o.registry, calibration: o.calibration, scale: session.hardware.stations, scheduler: session.scheduler,
    now: () => new Date(session.time.wallMs()),
    save: (calibration) => {
      saveCalibration(o.file, calibration);
    },
    onUpdate: (update) => {
      show(update);
      if (update.kind === 'done') ended.resolve(true);
      if (update.kind === 'save-failed') ended.resolve(false);
      person?.react(update);
    },
  });
  const table = session.hardware.table;
  const giveUp = new AbortController();
  const person = o.simulate && table !== undefined
    ? new CalibratePerson(table, o.registry, session.scheduler, confirm, () => {
        giveUp.abort();
      })
    : undefined;
  const keys = wireUp(session, flow, confirm, person === undefined);
  line.out(`calibrating ${o.stations.join(', ')} with ${o.knownGrams} g`
    + (o.barrels.length > 0 ? `, then weighing barrels ${o.barrels.join(', ')} on ${o.barrelStation}` : '')
    + `${o.simulate ? ' (simulated table, scripted person)' : ''}; calibration ${shown}`);
  try {
    flow.start();
    const ok = await Promise.race([
      ended.promise, aborted(session.signal).then(() => undefined), aborted(giveUp.signal).then(() => false),
    ]);
    flow.stop();
    await confirms;
    line.clear();
    if (ok === undefined) return interrupted(o.io, shown);
    return ok ? 0 : 1;
  } finally {
    keys?.close();
  }
}

/** Prints the flow's updates: a line per step and result, the progress bar with the current prompt. */
function renderer(line: ProgressLine, file: string): (u: CalibrateUpdate) => void {
  let barrelsHeader = false;
  return (u) => {
    if (u.kind === 'step' && u.step.kind === 'place-barrel' && !barrelsHeader) {
      barrelsHeader = true;
      line.out(`barrels on ${u.step.station}:`);
    }
    render(line, u, file);
  };
}

function render(line: ProgressLine, u: CalibrateUpdate, file: string): void {
  switch (u.kind) {
    case 'step':
      if (u.step.kind === 'clear-pad') line.out(`${u.step.station}:`);
      line.out(`  → ${u.text}`);
      line.show(`${progressBar(u.progress.done, u.progress.total)}  ${u.text}${u.step.confirm ? ' ⏎' : '…'}`);
      return;
    case 'busy':
      line.show(`  ${u.text}`);
      return;
    case 'tared':
      line.out(`  ✓ tared (zero at ${u.tareCounts} counts)`);
      return;
    case 'calibrated':
      line.out(`  ✓ calibrated (${u.perKg} counts/kg)`);
      return;
    case 'verified':
      line.out(`  ✓ reads ${u.grams.toFixed(1)} g for the ${u.knownGrams} g weight: saved`);
      return;
    case 'notice':
      line.err(`  ! ${u.message}`);
      return;
    case 'weighed':
      line.out(`  ✓ barrel ${u.barrel}: ${u.grams.toFixed(1)} g`);
      return;
    case 'learned': {
      const w = u.weights;
      line.out(`learned: empty barrel ${w.emptyGrams.toFixed(1)} g, stone ${w.stoneGrams.toFixed(2)} g, `
        + `rms ${w.rmsResidualGrams.toFixed(2)} g over ${w.samples} barrels`);
      for (const f of u.flagged) line.err(`  ⚠ WEIGHT_MISMATCH barrel ${f.barrel}: ${f.message}`);
      return;
    }
    case 'failed':
      line.err(`  ✗ ${u.code}: ${u.message}`);
      line.show(`  ${u.retry} (Ctrl-C to stop)`);
      return;
    case 'save-failed':
      line.err(`✗ SAVE_FAILED: the calibration could not be saved (${u.message}); what was saved before is safe in ${file}`);
      return;
    case 'done':
      line.out(`done: saved in ${file}`);
      return;
  }
}

/** `--read-range`: the read-range measurement alone, on one station (a seat's or the pile's reader). */
async function readRangeCommand(
  configFile: string | undefined, station: StationId | undefined, simulateFlag: boolean, io: Output, deps: SetupDeps,
): Promise<number> {
  const config = configFor(configFile, io, 'calibrate');
  if (config === undefined) return 1;
  const simulate = simulateFlag || config.hardware.kind === 'simulated';
  const wanted = station === undefined ? (simulate ? configuredSeatStations(config).slice(0, 1) : undefined) : [station];
  const session = await openSession({
    config, simulate, simulatedStations: wanted ?? configuredSeatStations(config), simulatedCalibrated: true, deps, io,
  });
  try {
    const online = await onlineSeats(session, wanted, config.hardware.serial.bannerTimeoutMs + 2000, true);
    const first = online[0];
    if (session.signal.aborted) return 130;
    if (first === undefined) {
      io.err(`zaptable calibrate: ${wanted === undefined ? 'no station came online' : `station ${wanted.join(', ')} did not come online`} `
        + '(check the USB cables and `hardware.serial` in the configuration)');
      return 1;
    }
    return await measureReadRange(session, first, simulate, io);
  } finally {
    await session.close();
  }
}

/**
 * Feeds the session's sensor events to a flow and, when a person at the keyboard confirms (no scripted person),
 * Enter to `confirm` and Ctrl-C to the session; returns the keyboard to close at the end.
 */
function wireUp(
  session: Session, flow: { handle(event: SensorEvent): void }, confirm: () => void, byKeyboard: boolean,
): ReturnType<typeof enterPresses> | undefined {
  session.onEvent((event) => {
    flow.handle(event);
  });
  return byKeyboard ? enterPresses(confirm, () => {
    session.interrupt();
  }) : undefined;
}

async function measureReadRange(session: Session, station: StationId, simulate: boolean, io: Output): Promise<number> {
  const line = new ProgressLine(io);
  const ended = deferred<number | undefined>();
  const table = session.hardware.table;
  const confirm = (): void => {
    flow.confirm();
  };
  const person = simulate && table !== undefined ? new ReadRangePerson(table, session.scheduler, confirm) : undefined;
  const flow: ReadRangeFlow = new ReadRangeFlow({
    station, scheduler: session.scheduler,
    onUpdate: (u) => {
      renderReadRange(line, u);
      if (u.kind === 'done') ended.resolve(u.reliableMm);
      person?.react(u);
    },
  });
  const keys = wireUp(session, flow, confirm, person === undefined);
  line.out(`read range on ${station}: hold one tag (25 mm NTAG213) flat over the ring at each height, on 5 mm spacers; `
    + `each height is watched for ${READ_RANGE_WINDOW_MS / 1000} s${simulate ? ' (simulated table, scripted person)' : ''}`);
  try {
    flow.start();
    const result = await Promise.race([ended.promise, aborted(session.signal).then(() => 'aborted' as const)]);
    flow.stop();
    line.clear();
    if (result === 'aborted') {
      io.err('interrupted; nothing is saved by --read-range.');
      return 130;
    }
    const reach = result === undefined ? 'no height' : `up to ${result} mm above the pad`;
    const antenna = result === undefined ? '' : ` (≈ ${(result + 14.1).toFixed(0)} mm from the antenna with the pad stack of hardware/bill-of-materials.md)`;
    if (result !== undefined && result >= READ_RANGE_NEEDED_MM) {
      line.out(`read range: reliable ${reach}${antenna}; a barrel's tag sits 2 mm above it: OK`);
      return 0;
    }
    line.err(`✗ READ_RANGE_SHORT: reliable ${reach}${antenna}; a reader must reach ${READ_RANGE_NEEDED_MM} mm. `
      + 'Check for metal near the antenna and the 11 mm standoffs, then swap the module (hardware/bill-of-materials.md, Known-bad parts)');
    return 1;
  } finally {
    keys?.close();
  }
}

function renderReadRange(line: ProgressLine, u: ReadRangeUpdate): void {
  switch (u.kind) {
    case 'step': {
      const text = u.heightMm === 0 ? 'lay the tag on the pad, over the ring (0 mm)' : `raise the tag to ${u.heightMm} mm above the pad`;
      line.out(`  → ${text}`);
      line.show(`${progressBar(u.index, u.total)}  ${text} ⏎`);
      return;
    }
    case 'watching':
      line.show(`  watching the tag at ${u.heightMm} mm for ${READ_RANGE_WINDOW_MS / 1000} s…`);
      return;
    case 'result':
      if (u.reliable) line.out(`  ✓ ${u.heightMm} mm: ${u.detail}`);
      else line.err(`  ✗ ${u.heightMm} mm: ${u.detail}`);
      return;
    case 'done':
      return;
  }
}

function interrupted(io: Output, file: string): number {
  io.err(`interrupted; every station finished so far is saved in ${file}. Run \`zaptable calibrate\` again for the rest.`);
  return 130;
}

/**
 * `zaptable enroll`: walks a person through tagging every barrel and card (runtime/setup/enroll-session.ts)
 * on one station's reader, with a progress bar. The registry is saved after every item, so Ctrl-C loses
 * nothing and running the command again resumes.
 */
import path from 'node:path';
import { loadRegistry, saveRegistry } from '../../runtime/registry/registry-file.ts';
import { describeItem, type Item } from '../../runtime/registry/items.ts';
import { forgetItem, type TagRegistry } from '../../runtime/registry/tag-registry.ts';
import { EnrollSession, type EnrollUpdate } from '../../runtime/setup/enroll-session.ts';
import { selectItems, shortLabel } from '../../runtime/setup/item-selection.ts';
import { parse, UsageError } from '../args.ts';
import type { Output } from '../output.ts';
import { deferred } from '../setup/interrupt.ts';
import { progressBar, ProgressLine } from '../setup/progress-bar.ts';
import { EnrollPerson } from '../setup/scripted-person.ts';
import { aborted, configFor, onlineSeats, openSession, type Session, type SetupDeps } from '../setup/setup-context.ts';
import { configuredSeatStations } from '../setup/setup-hardware.ts';

export const enrollHelp = `zaptable enroll [--station ID] [--only barrels|cards|zaps|k21-cards|chips] [--redo ITEM]… [--config FILE] [--simulate]

Tags the game's items: asks for barrels 1–13, every Zip-Zap number card and the six ZAP cards (Killer-21's
103 cards and 36 chips with --only k21-cards,chips), one at a time ("Place barrel 4 (4 stones) on seat-1"), reads each tag from the station's reader and saves the tag
registry (storage.registry, default data/tags.json) after every item. A tag that is already on another
item is refused and nothing is saved. Take each item off before the next one is asked for.
Ctrl-C stops; run the command again to continue where it stopped. See docs/setup.md.

  --station ID     the station whose reader to use (default: the first seat's station)
  --only GROUPS    only barrels, cards, zaps (Zip-Zap), k21-cards or chips (Killer-21), comma-separated
  --redo ITEM      tag ITEM anew (a damaged tag): barrel:7 or 7, R4, Z2, R0-3, chip:5; may be repeated
  --config FILE    the configuration (default: $ZAPTABLE_CONFIG, else ./zaptable.yaml)
  --simulate       a simulated table where a scripted person places the items (no hardware)`;

export async function enrollCommand(argv: readonly string[], io: Output, deps: SetupDeps = {}): Promise<number> {
  const { values, positionals } = parse(argv, {
    config: { type: 'string' }, station: { type: 'string' }, only: { type: 'string' },
    redo: { type: 'string', multiple: true }, simulate: { type: 'boolean' },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0] ?? ''}"`);
  const selection = selectItems(values.only, values.redo);
  if (!selection.ok) throw new UsageError(selection.message);
  const config = configFor(values.config, io, 'enroll');
  if (config === undefined) return 1;
  const file = config.storage.registry;
  const loaded = loadRegistry(file);
  if (!loaded.ok) {
    io.err(`zaptable enroll: ${loaded.code}: the tag registry cannot be used; it was left untouched.`);
    for (const e of loaded.errors) io.err(`  ${e}`);
    io.err('Repair the file (or move it away to start again) and run enroll again.');
    return 1;
  }
  const registry = selection.redo.reduce(forgetItem, loaded.registry);
  const simulate = values.simulate === true || config.hardware.kind === 'simulated';
  const station = values.station ?? configuredSeatStations(config)[0] ?? 'seat-1';

  const session = await openSession({ config, simulate, simulatedStations: [station], simulatedCalibrated: true, deps, io });
  try {
    const found = await onlineSeats(session, [station], config.hardware.serial.bannerTimeoutMs + 2000, true);
    if (session.signal.aborted) return interrupted(io, 0, file);
    if (found.length === 0) {
      io.err(`zaptable enroll: station ${station} did not come online (check its USB cable, or name another with --station)`);
      return 1;
    }
    return await run(session, { station, registry, items: selection.items, file, simulate, io, seed: deps.seed ?? '1' });
  } finally {
    await session.close();
  }
}

interface RunOptions {
  readonly station: string;
  readonly registry: TagRegistry;
  readonly items: readonly Item[];
  readonly file: string;
  readonly simulate: boolean;
  readonly io: Output;
  readonly seed: string;
}

async function run(session: Session, o: RunOptions): Promise<number> {
  const line = new ProgressLine(o.io);
  const ended = deferred<boolean>();
  const table = session.hardware.table;
  const person = o.simulate && table !== undefined
    ? new EnrollPerson(table, o.station, session.scheduler, o.seed, Object.keys(o.registry.tags))
    : undefined;
  const shown = path.relative(process.cwd(), o.file) || o.file;
  const enroll = new EnrollSession({
    registry: o.registry, items: o.items, station: o.station,
    save: (registry) => {
      saveRegistry(o.file, registry);
    },
    onUpdate: (update) => {
      render(line, update, shown);
      if (update.kind === 'done') ended.resolve(true);
      if (update.kind === 'save-failed') ended.resolve(false);
      person?.react(update);
    },
  });
  session.onEvent((event) => {
    enroll.handle(event);
  });
  line.out(`enrolling ${o.items.length} item${o.items.length === 1 ? '' : 's'} on ${o.station}${o.simulate ? ' (simulated table, scripted person)' : ''}; registry ${shown}`);
  enroll.start();
  const ok = await Promise.race([ended.promise, aborted(session.signal).then(() => undefined)]);
  line.clear();
  if (ok === undefined) return interrupted(o.io, enroll.progress().done, shown, enroll.progress().total);
  return ok ? 0 : 1;
}

function render(line: ProgressLine, u: EnrollUpdate, file: string): void {
  switch (u.kind) {
    case 'resumed':
      line.out(`resuming: ${u.alreadyTagged} of ${u.progress.total} already have a tag`);
      return;
    case 'place':
      line.show(`${progressBar(u.progress.done, u.progress.total)}  ${shortLabel(u.item).padEnd(3)}  ${u.text}`);
      return;
    case 'enrolled':
      line.out(`✓ ${progressBar(u.progress.done, u.progress.total)}  ${shortLabel(u.item).padEnd(3)}  ${describeItem(u.item)}: tag ${u.uid}`);
      return;
    case 'rejected':
      line.err(`✗ ${u.code}: ${u.message}`);
      return;
    case 'skipped':
      line.out(`- skipped: ${u.message}`);
      return;
    case 'lift':
      line.show(`${u.text}…`);
      return;
    case 'save-failed':
      line.err(`✗ SAVE_FAILED: the registry could not be saved (${u.message}); the last saved item is safe in ${file}`);
      return;
    case 'done':
      line.out(`done: ${u.progress.done} of ${u.progress.total} items have a tag; saved in ${file}`);
      return;
  }
}

function interrupted(io: Output, done: number, file: string, total?: number): number {
  io.err(`interrupted${total === undefined ? '' : `: ${done} of ${total} items have a tag`}; everything enrolled is saved in ${file}. `
    + 'Run `zaptable enroll` again to continue.');
  return 130;
}

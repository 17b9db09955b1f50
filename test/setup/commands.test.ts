/**
 * `zaptable enroll` and `zaptable calibrate` end to end with `--simulate`: the real serial driver reads a
 * simulated table on virtual time while a scripted person places what the prompts ask for.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { calibrateCommand } from '../../controller/cli/commands/calibrate.ts';
import { enrollCommand } from '../../controller/cli/commands/enroll.ts';
import { memoryOutput } from '../../controller/cli/output.ts';
import type { SetupDeps } from '../../controller/cli/setup/setup-context.ts';
import { VirtualTime } from '../../controller/hardware/simulated/virtual-time.ts';
import { loadCalibration } from '../../controller/runtime/calibration/calibration-file.ts';
import { stonesFromGrams } from '../../controller/runtime/calibration/barrel-weights.ts';
import { loadRegistry } from '../../controller/runtime/registry/registry-file.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A config file whose storage is a fresh temporary directory (simulated hardware, the demo's four seats). */
function setup(): { config: string; data: string } {
  dir = mkdtempSync(path.join(tmpdir(), 'zaptable-setup-'));
  const config = path.join(dir, 'zaptable.yaml');
  writeFileSync(config, 'storage:\n  directory: data\n');
  return { config, data: path.join(dir, 'data') };
}

type Command = (argv: readonly string[], io: ReturnType<typeof memoryOutput>, deps: SetupDeps) => Promise<number>;

async function runOnVirtualTime(command: Command, argv: readonly string[], deps: Omit<SetupDeps, 'time'> = {}) {
  const io = memoryOutput();
  const time = new VirtualTime();
  const code = await time.settle(command(argv, io, { ...deps, time }), 30 * 60_000);
  return { code, io };
}

describe('zaptable enroll --simulate', () => {
  it('tags all 69 items with distinct tags, refusing the scripted duplicate, and saves the registry', async () => {
    const { config, data } = setup();
    const { code, io } = await runOnVirtualTime(enrollCommand, ['--config', config, '--simulate']);
    expect(io.errors.filter((e) => !e.startsWith('✗ TAG_ALREADY_ENROLLED'))).toEqual([]);
    expect(code).toBe(0);
    const loaded = loadRegistry(path.join(data, 'tags.json'));
    if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
    const uids = Object.keys(loaded.registry.tags);
    expect(uids).toHaveLength(69);
    expect(new Set(Object.values(loaded.registry.tags)).size).toBe(69);
    const duplicate = /^✗ TAG_ALREADY_ENROLLED: tag 04[0-9A-F]{12} is already on barrel 1 \(1 stone\): nothing saved/;
    expect(io.errors).toEqual([expect.stringMatching(duplicate)]);
    expect(io.lines.at(-1)).toMatch(/^done: 69 of 69 items have a tag; saved in /);
  });

  it('stops cleanly on Ctrl-C with what it enrolled saved, and a re-run resumes', async () => {
    const { config, data } = setup();
    const stop = new AbortController();
    const io = memoryOutput();
    const time = new VirtualTime();
    const running = enrollCommand(['--config', config, '--simulate', '--only', 'barrels'], io, { time, signal: stop.signal });
    await time.advanceUntil(() => io.lines.filter((l) => l.startsWith('✓')).length >= 5, 60_000);
    stop.abort();
    expect(await time.settle(running, 60_000)).toBe(130);
    expect(io.errors.at(-1)).toMatch(/^interrupted: \d+ of 13 items have a tag; everything enrolled is saved in .*/);
    expect(io.errors.at(-1)).toContain('Run `zaptable enroll` again to continue.');
    const partial = loadRegistry(path.join(data, 'tags.json'));
    if (!partial.ok) throw new Error('registry');
    const saved = Object.keys(partial.registry.tags).length;
    expect(saved).toBeGreaterThanOrEqual(5);
    expect(saved).toBeLessThan(13);

    // The same seed: the scripted person must not put the first run's tags on new items.
    const again = await runOnVirtualTime(enrollCommand, ['--config', config, '--simulate', '--only', 'barrels']);
    expect(again.code).toBe(0);
    expect(again.io.lines).toContain(`resuming: ${saved} of 13 already have a tag`);
    const full = loadRegistry(path.join(data, 'tags.json'));
    expect(full.ok && Object.keys(full.registry.tags).length).toBe(13);
  });

  it('refuses a corrupted registry with a clear error and leaves the file untouched', async () => {
    const { config, data } = setup();
    const file = path.join(data, 'tags.json');
    mkdirSync(data, { recursive: true });
    writeFileSync(file, '{"version":1,"tags":{"04AA');
    const { code, io } = await runOnVirtualTime(enrollCommand, ['--config', config, '--simulate']);
    expect(code).toBe(1);
    expect(io.errors[0]).toBe('zaptable enroll: REGISTRY_CORRUPT: the tag registry cannot be used; it was left untouched.');
    expect(io.errors[1]).toContain('is not valid JSON');
    expect(readFileSync(file, 'utf8')).toBe('{"version":1,"tags":{"04AA');
  });
});

describe('zaptable calibrate --simulate', () => {
  it('calibrates every seat and learns plausible barrel weights', async () => {
    const { config, data } = setup();
    expect((await runOnVirtualTime(enrollCommand, ['--config', config, '--simulate', '--only', 'barrels'])).code).toBe(0);
    const { code, io } = await runOnVirtualTime(calibrateCommand, ['--config', config, '--simulate']);
    expect(io.errors).toEqual([]);
    expect(code).toBe(0);
    const loaded = loadCalibration(path.join(data, 'calibration.json'));
    if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
    const c = loaded.calibration;
    expect(Object.keys(c.stations)).toEqual(['seat-1', 'seat-2', 'seat-3', 'seat-4']);
    for (const s of Object.values(c.stations)) expect(s).toMatchObject({ knownGrams: 500, perKg: 420_000, verifiedGrams: 500 });
    const w = c.barrels?.weights;
    if (w === undefined) throw new Error('no barrel weights');
    expect(w.emptyGrams).toBeGreaterThan(10);
    expect(w.emptyGrams).toBeLessThan(30);
    expect(w.stoneGrams).toBeGreaterThan(2);
    expect(w.stoneGrams).toBeLessThan(6);
    expect(w.rmsResidualGrams).toBeLessThan(0.5);
    expect(c.barrels?.samples.map((s) => s.barrel)).toEqual([1, 7, 13]);
    for (let k = 1; k <= 13; k++) expect(stonesFromGrams(w, w.emptyGrams + k * w.stoneGrams).stones).toBe(k);
    expect(io.lines.some((l) => l.startsWith('learned: empty barrel'))).toBe(true);
  });

  it('needs the barrels enrolled first, and refuses a corrupted calibration file untouched', async () => {
    const { config, data } = setup();
    const first = await runOnVirtualTime(calibrateCommand, ['--config', config, '--simulate', '--station', 'seat-1']);
    expect(first.code).toBe(1);
    expect(first.io.errors[0]).toMatch(/^zaptable calibrate: barrels 1, 7, 13 have no tag in .*tags\.json: /);
    expect(first.io.errors[0]).toContain('run `zaptable enroll --only barrels` first');
    mkdirSync(data, { recursive: true });
    writeFileSync(path.join(data, 'calibration.json'), 'not json');
    const second = await runOnVirtualTime(calibrateCommand, ['--config', config, '--simulate']);
    expect(second.code).toBe(1);
    expect(second.io.errors[0]).toBe('zaptable calibrate: CALIBRATION_CORRUPT: the file cannot be used; it was left untouched.');
    expect(readFileSync(path.join(data, 'calibration.json'), 'utf8')).toBe('not json');
  });
});

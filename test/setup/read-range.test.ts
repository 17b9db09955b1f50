/**
 * `zaptable calibrate --read-range --simulate`: the real serial driver reads a simulated station whose reader
 * has a set range (a tag within `readRangeMm` of the antenna answers every poll, up to 3 mm beyond it comes and
 * goes, farther never), 14.1 mm under the pad's surface as the documented pad stack has it; a scripted person
 * holds the tag at each prompted height. The reported height is the last one the model reads reliably.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { calibrateCommand } from '../../controller/cli/commands/calibrate.ts';
import { memoryOutput } from '../../controller/cli/output.ts';
import type { SetupDeps } from '../../controller/cli/setup/setup-context.ts';
import { VirtualTime } from '../../controller/hardware/simulated/virtual-time.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function config(): string {
  dir = mkdtempSync(path.join(tmpdir(), 'zaptable-read-range-'));
  const file = path.join(dir, 'zaptable.yaml');
  writeFileSync(file, 'storage:\n  directory: data\n');
  return file;
}

async function readRange(deps: Omit<SetupDeps, 'time'> = {}) {
  const io = memoryOutput();
  const time = new VirtualTime();
  const code = await time.settle(calibrateCommand(['--config', config(), '--simulate', '--read-range'], io, { ...deps, time }), 10 * 60_000);
  return { code, io };
}

describe('zaptable calibrate --read-range --simulate', () => {
  it('a well-tuned reader (30 mm) reads reliably up to 15 mm above the pad, and the check passes', async () => {
    const { code, io } = await readRange();
    expect(io.errors).toEqual(['  ✗ 20 mm: not read']);
    expect(io.lines.filter((l) => l.startsWith('  ✓'))).toEqual([0, 5, 10, 15].map((h) => `  ✓ ${h} mm: read, held for 3 s`));
    expect(io.lines.at(-1)).toBe('read range: reliable up to 15 mm above the pad (≈ 29 mm from the antenna with the pad stack of '
      + 'hardware/bill-of-materials.md); a barrel\'s tag sits 2 mm above it: OK');
    expect(code).toBe(0);
  });

  it('a poorly tuned reader fails at the height where its tag comes and goes, with READ_RANGE_SHORT', async () => {
    // 22 mm of range: 0 mm (14.1 from the antenna) reads; 5 mm (19.1) too; 10 mm (24.1) lies in the band where it flickers.
    const { code, io } = await readRange({ simulatedStation: { readRangeMm: 22 } });
    expect(io.lines.filter((l) => l.startsWith('  ✓'))).toEqual(['  ✓ 0 mm: read, held for 3 s', '  ✓ 5 mm: read, held for 3 s']);
    expect(io.errors[0]).toMatch(/^ {2}✗ 10 mm: read, but lost \d+ times in 3 s$/);
    expect(io.errors[1]).toMatch(/^✗ READ_RANGE_SHORT: reliable up to 5 mm above the pad .*a reader must reach 15 mm/);
    expect(code).toBe(1);
  });

  it('a reader that reads nothing through the pad reports no height', async () => {
    const { code, io } = await readRange({ simulatedStation: { readRangeMm: 10 } });
    expect(io.errors).toEqual(['  ✗ 0 mm: not read', expect.stringMatching(/^✗ READ_RANGE_SHORT: reliable no height; a reader must reach 15 mm/) as string]);
    expect(code).toBe(1);
  });

  it('refuses the weighing options with --read-range', async () => {
    // Refused before any hardware is opened.
    await expect(calibrateCommand(['--config', config(), '--read-range', '--known-grams', '200'], memoryOutput()))
      .rejects.toThrow(/--read-range takes no --known-grams/);
  });
});

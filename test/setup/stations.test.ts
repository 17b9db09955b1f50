/**
 * `zaptable stations --simulate`: the build guide's check command. The real serial driver reads simulated
 * stations (one with a slap sensor, one with a reader that stopped answering) while the test acts on the table
 * as a maker would: each station is announced with its firmware and faults, and a tag, a weight, the button and
 * a slap each come out as one line.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stationsCommand } from '../../controller/cli/commands/stations.ts';
import { memoryOutput } from '../../controller/cli/output.ts';
import type { SimulatedTable } from '../../controller/hardware/index.ts';
import { VirtualTime } from '../../controller/hardware/simulated/virtual-time.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function config(): string {
  dir = mkdtempSync(path.join(tmpdir(), 'zaptable-stations-'));
  const file = path.join(dir, 'zaptable.yaml');
  writeFileSync(file, 'storage:\n  directory: data\n');
  return file;
}

describe('zaptable stations --simulate', () => {
  it('announces each station, then prints its tags, weights, button and slaps as they happen', async () => {
    const io = memoryOutput();
    const time = new VirtualTime();
    let table: SimulatedTable | undefined;
    const running = stationsCommand(['--config', config(), '--simulate', '--seconds', '20'], io, {
      time, simulatedStation: { slapSensor: true }, onSimulatedTable: (t) => {
        table = t;
      },
    });
    expect(await time.advanceUntil(() => io.lines.filter((l) => l.includes(': online')).length === 4, 10_000)).toBe(true);
    if (table === undefined) expect.fail('no simulated table');
    const t: SimulatedTable = table;
    t.station('seat-2').setSensorFault('rfid', true);
    await time.advanceUntil(() => io.lines.some((l) => l.includes('FAULT+ rfid')), 2000);
    t.placeItem('seat-1', { uid: '04AABBCCDDEEFF', grams: 22.1 });
    await time.advanceUntil(() => io.lines.some((l) => l.includes('W 22.1 g')), 3000);
    t.pressButton('seat-1', { holdMs: 150 });
    await time.advanceUntil(() => io.lines.some((l) => l.includes('BTN-')), 1000);
    t.knock('seat-3');
    expect(await time.settle(running, 60_000)).toBe(0);

    const seat = (name: string) => io.lines.filter((l) => l.includes(`  ${name}`) || l.includes(`${name}: `)).map((l) => l.replace(/^\+\d+\.\d{3} s {2}/, ''));
    // The empty pad's settled 0.0 g at start-up is the scale working; the rest is what the test did.
    expect(seat('seat-1').filter((l) => l !== 'seat-1  W 0.0 g settled')).toEqual([
      'seat-1: online, seat, firmware 0.4.0 (protocol 2), boot 1, on /dev/zaptable-sim/1/seat-1; no faults',
      'seat-1  SLAP',
      expect.stringMatching(/^seat-1 {2}TAG\+ 04AABBCCDDEEFF \(read within \d+\.\d ms, landed with its SLAP\)$/) as string,
      'seat-1  W 22.1 g settled',
      'seat-1  BTN+ (pressed)',
      'seat-1  BTN- (released)',
    ]);
    expect(seat('seat-2')).toContainEqual(expect.stringMatching(/^seat-2: online, .*; FAULT\+ rfid$/));
    expect(seat('seat-3')).toContain('seat-3  SLAP');
    // The driver warns about the broken reader too; nothing else went wrong.
    expect(io.errors).toEqual(['serial: sensor fault {"station":"seat-2","device":"rfid"}']);
  });

  it('says so when no station comes online', async () => {
    const io = memoryOutput();
    const time = new VirtualTime();
    const running = stationsCommand(['--config', config(), '--simulate', '--seconds', '10'], io, {
      time, simulatedStation: { silent: true },
    });
    expect(await time.settle(running, 60_000)).toBe(0);
    expect(io.errors[0]).toMatch(/^no station online yet: check the USB cables/);
    // The driver's own diagnosis follows, per port.
    expect(io.errors.slice(1).every((e) => e.startsWith('serial: '))).toBe(true);
    expect(io.errors.filter((e) => e.startsWith('serial: no banner and no answer to info'))).toHaveLength(4);
  });
});

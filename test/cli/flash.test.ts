/**
 * `zaptable flash`: argument checks, image resolution and its error codes without hardware, and
 * avrgirl-arduino's real upload path (reset, sync, every page written and read back) against a model of
 * the Uno's STK500v1 bootloader (stk500-bootloader.ts) on a serialport 9 binding.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { firmataHex, FLASH_ERRORS, hexImageBytes, resolveImage } from '../../controller/cli/commands/flash-board.ts';
import { flashCommand } from '../../controller/cli/commands/flash.ts';
import { main } from '../../controller/cli/main.ts';
import { memoryOutput, type Output } from '../../controller/cli/output.ts';
import { parseIntelHex } from '../emulator/avr-runner.ts';
import { bindingFor, Stk500Bootloader } from './stk500-bootloader.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'zaptable-flash-'));
/** A path that exists, standing for the board's port (the model binding opens any path). */
const PORT = path.join(tmp, 'ttyACM-model');
writeFileSync(PORT, '');

async function run(argv: string[], binding?: unknown) {
  const io = memoryOutput();
  const progress: string[] = [];
  const recording: Output = { ...io, progress: (text) => progress.push(text) };
  const code = binding === undefined ? await main(['flash', ...argv], recording) : await flashCommand(argv, recording, { binding });
  return { code, out: io.lines.join('\n'), err: io.errors.join('\n'), progress };
}

/** An Intel HEX file of `bytes` bytes of 0x00 from address 0. */
function hexOf(bytes: number): string {
  const lines: string[] = [];
  for (let addr = 0; addr < bytes; addr += 16) {
    const n = Math.min(16, bytes - addr);
    const record = [n, (addr >> 8) & 0xff, addr & 0xff, 0, ...new Array<number>(n).fill(0)];
    const sum = (256 - (record.reduce((a, b) => a + b, 0) & 0xff)) & 0xff;
    lines.push(`:${Buffer.from([...record, sum]).toString('hex').toUpperCase()}`);
  }
  return `${lines.join('\n')}\n:00000001FF\n`;
}

describe('zaptable flash: arguments and images', () => {
  it('is listed in zaptable --help and has its own help', async () => {
    const io = memoryOutput();
    await main(['--help'], io);
    expect(io.lines.join('\n')).toMatch(/ {2}flash {2,}put a station's firmware or StandardFirmata/);
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('--firmata');
  });

  it('refuses missing or contradicting arguments with exit code 2', async () => {
    expect((await run(['--port', PORT])).err).toContain('name what to flash');
    expect((await run(['--firmata', '--seat', '--port', PORT])).err).toContain('name one thing to flash');
    const board = await run(['--firmata', '--port', PORT, '--board', 'leonardo']);
    expect(board.code).toBe(2);
    expect(board.err).toContain('--board must be one of uno, nano, nano-old, mega');
    const port = await run(['--firmata']);
    expect(port.code).toBe(2);
    expect(port.err).toContain('--port is required');
  });

  it('resolves StandardFirmata to the build avrgirl-arduino ships for each board', () => {
    expect(firmataHex('uno')).toMatch(/avrgirl-arduino\/junk\/hex\/uno\/StandardFirmata\.cpp\.hex$/);
    // A Nano gets the Uno's build (same ATmega328P and pins): avrgirl's Nano build never answers johnny-five
    // (test/firmata/nano-firmata.test.ts runs both).
    expect(firmataHex('nano')).toBe(firmataHex('uno'));
    expect(firmataHex('nano-old')).toBe(firmataHex('uno'));
    expect(firmataHex('mega')).toMatch(/junk\/hex\/mega\//);
    const image = resolveImage({ kind: 'firmata' }, 'uno');
    expect(image.bytes).toBe(parseIntelHex(readFileSync(image.path, 'latin1')).findLastIndex((b) => b !== 0xff) + 1);
  });

  it('answers each failure before the port is touched with a stable code and exit code 1', async () => {
    const cases: [string[], keyof typeof FLASH_ERRORS, RegExp][] = [
      [[path.join(tmp, 'missing.hex'), '--port', PORT], 'FLASH_FILE_MISSING', /missing\.hex does not exist/],
      [['--pile', '--port', PORT, '--board', 'mega'], 'FLASH_WRONG_BOARD', /pile station is built for the ATmega328P only/],
      [['--firmata', '--port', '/dev/ttyNO-SUCH-PORT'], 'FLASH_NO_PORT', /does not exist: is the board plugged in/],
    ];
    const garbage = path.join(tmp, 'garbage.hex');
    writeFileSync(garbage, 'not a hex file\n');
    cases.push([[garbage, '--port', PORT], 'FLASH_BAD_HEX', /is not Intel HEX: line 1/]);
    const big = path.join(tmp, 'big.hex');
    writeFileSync(big, hexOf(32_768));
    cases.push([[big, '--port', PORT], 'FLASH_WRONG_BOARD', /needs 32768 bytes of flash; a uno has 32256/]);
    for (const [argv, code, message] of cases) {
      const r = await run(argv);
      expect(r.code, argv.join(' ')).toBe(1);
      expect(r.err).toMatch(message);
      expect(r.err).toContain(`[${code}]`);
    }
    expect(hexImageBytes(hexOf(100))).toBe(100);
  });
});

describe('zaptable flash: avrgirl-arduino\'s upload against a bootloader model', () => {
  it('flashes StandardFirmata to an Uno: DTR reset, every page written and read back, with progress', async () => {
    const bootloader = new Stk500Bootloader({ baud: 115_200 });
    const r = await run(['--firmata', '--port', PORT], bindingFor(bootloader));
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const image = parseIntelHex(readFileSync(firmataHex('uno'), 'latin1'));
    const bytes = image.findLastIndex((b) => b !== 0xff) + 1;
    expect(Buffer.from(bootloader.flash.subarray(0, bytes)).equals(Buffer.from(image.subarray(0, bytes)))).toBe(true);
    expect(bootloader.resets).toBe(1);
    expect(bootloader.pagesWritten).toBe(Math.ceil(bytes / 128));
    expect(r.out).toContain('flashing StandardFirmata (avrgirl-arduino\'s build for the uno) to the uno');
    expect(r.out).toMatch(/flash complete\.\n.*done in [\d.]+ s: written and read back identical/);
    // The bar moved from the first page to the full image, both ways.
    expect(r.progress.some((p) => p.startsWith('[#') && p.endsWith(` ${bytes * 2}/${bytes * 2} bytes`))).toBe(true);
  });

  it('compares the pages read back itself (avrgirl\'s stk500 reads them but does not compare)', async () => {
    const worn = new Stk500Bootloader({ baud: 115_200, badCell: 0x1234 });
    const r = await run(['--firmata', '--port', PORT], bindingFor(worn));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/verify failed: flash at 0x1234 reads 0x[0-9a-f]{2}, the image has 0x[0-9a-f]{2} \[FLASH_FAILED\]/);
  });

  it('flashes the Uno\'s StandardFirmata to an old-bootloader Nano at 57600 baud', async () => {
    const oldNano = new Stk500Bootloader({ baud: 57_600 });
    const r = await run(['--firmata', '--port', PORT, '--board', 'nano-old'], bindingFor(oldNano));
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const image = parseIntelHex(readFileSync(firmataHex('uno'), 'latin1'));
    const bytes = image.findLastIndex((b) => b !== 0xff) + 1;
    expect(Buffer.from(oldNano.flash.subarray(0, bytes)).equals(Buffer.from(image.subarray(0, bytes)))).toBe(true);
    expect(r.out).toContain('flashing StandardFirmata (avrgirl-arduino\'s build for the uno, same chip and pins as a nano-old) to the nano-old');
  });

  it('names the other Nano bootloader when this one does not answer', async () => {
    const oldNano = new Stk500Bootloader({ baud: 57_600 }); // ATmegaBOOT; --board nano talks 115200
    const r = await run(['--firmata', '--port', PORT, '--board', 'nano'], bindingFor(oldNano));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/no answer from a Optiboot, 115200 baud bootloader \(an older Nano: --board nano-old\)/);
    expect(r.err).toContain('[FLASH_NO_BOOTLOADER]');
    expect(oldNano.pagesWritten).toBe(0);
  });
});

// Firmware in the loop over a real serialport stack: SerialPortStream + ReadlineParser over the UsartBinding,
// whose port is the emulated firmware's USART. Opening the port resets the board (DTR), as on an Uno/Nano.
import { ReadlineParser } from '@serialport/parser-readline';
import { SerialPortStream } from '@serialport/stream';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { frame, parseDeviceLine } from '../../controller/protocol/index.ts';
import { StationEmulator, ensureSeatFirmware } from './station-emulator.ts';
import { UsartBinding } from './usart-binding.ts';

beforeAll(async () => {
  await ensureSeatFirmware();
}, 180_000);

const PATH = '/dev/ttyEMU0';

function closePort(port: SerialPortStream): Promise<void> {
  return new Promise((resolve) => {
    port.close(() => {
      resolve();
    });
  });
}
const open: SerialPortStream[] = [];

afterEach(async () => {
  for (const port of open.splice(0)) {
    if (port.isOpen) await closePort(port);
  }
});

function rig(options: ConstructorParameters<typeof StationEmulator>[0] = {}): {
  station: StationEmulator; binding: UsartBinding; port: SerialPortStream; parser: ReadlineParser; lines: string[];
} {
  const station = new StationEmulator({ settings: { stationId: 'seat-7', boot: 41 }, ...options });
  const binding = new UsartBinding();
  binding.attach(PATH, station);
  const port = new SerialPortStream({ binding, path: PATH, baudRate: 115_200, autoOpen: false });
  open.push(port);
  const lines: string[] = [];
  const parser = port.pipe(new ReadlineParser({ delimiter: '\n' }));
  parser.on('data', (line: string) => lines.push(line));
  return { station, binding, port, parser, lines };
}

async function openPort(station: StationEmulator, port: SerialPortStream): Promise<void> {
  await station.until(new Promise<void>((resolve, reject) => {
    port.open((err) => {
      if (err) reject(err);
      else resolve();
    });
  }));
}

describe('UsartBinding', () => {
  it('lists the emulated port like an Arduino Uno', async () => {
    const { binding } = rig();
    expect(await binding.list()).toEqual([expect.objectContaining({ path: PATH, vendorId: '2341', productId: '0043' })]);
  });

  it('opening the port resets the board: the banner arrives through the parser; commands get replies', async () => {
    const { station, port, lines } = rig();
    await station.waitForBanner(); // the power-on banner: nobody is listening yet
    await station.runFor(30_000);
    await openPort(station, port);
    await station.runUntil(() => lines.length >= 1);
    const banner = parseDeviceLine(lines[0] ?? '');
    expect(banner).toMatchObject({ type: 'banner', fw: '0.4.0', proto: 2, station: 'seat-7', boot: 43 });
    expect(station.runner.resets).toBe(1);

    port.write(`${frame('12 ping')}\n`);
    await station.runUntil(() => lines.length >= 2);
    const reply = parseDeviceLine(lines[1] ?? '');
    expect(reply).toMatchObject({ type: 'ok', id: 12 });
    // The port saw exactly the lines of this boot that the wire tap saw.
    expect(lines).toEqual(station.lines.filter((l) => l.boot === 1).map((l) => l.text));
  });

  it('a reset in the middle of a line: the banner still arrives as a line of its own', async () => {
    // The board resets (a brown-out, the watchdog, a DTR pulse) while it is sending a line: the host's
    // parser holds the cut line. The station sends a `\n` before its banner, so the banner is not glued to it.
    const { station, port, lines } = rig({ resetOnOpen: false });
    await station.waitForBanner();
    await openPort(station, port);
    const from = station.lines.length;
    port.write(`${frame('30 info')}\n`);
    // Reset while the reply is on the wire: ~10 bytes after its first byte.
    let cut = false;
    await station.runUntil(() => {
      const sending = station.lines.length === from && station.mcu !== undefined;
      if (!cut && sending && station.txBytes >= 10) {
        cut = true;
        station.reset();
      }
      return cut && station.lines.some((l) => l.boot === 1 && l.text.startsWith('ZT '));
    }, { sliceUs: 200 });
    await station.runUntil(() => lines.some((l) => l.startsWith('ZT ')));
    const bannerLine = lines.find((l) => l.includes('ZT ')) ?? '';
    if (process.env['ZT_EMULATOR_REPORT']) console.info(`line with the banner: ${JSON.stringify(bannerLine)}`);
    expect(parseDeviceLine(bannerLine)).toMatchObject({ type: 'banner', fw: '0.4.0', proto: 2 });
    // The cut reply reaches the host as a fragment of its own, which does not decode (no valid checksum).
    const fragment = lines.find((l) => l.startsWith('ok 30')) ?? '';
    expect(parseDeviceLine(fragment)).toHaveProperty('error');
  });

  it('a bootloader delay holds the banner back; without auto-reset the port gets no banner at all', async () => {
    const held = rig({ bootloaderUs: 400_000 });
    await held.station.waitForBanner();
    const openedUs = held.station.nowUs;
    await openPort(held.station, held.port);
    await held.station.runUntil(() => held.lines.length >= 1);
    const banner = held.station.lines.find((l) => l.boot === 1);
    expect((banner?.startUs ?? 0) - openedUs).toBeGreaterThan(400_000);
    await closePort(held.port);

    const plain = rig({ resetOnOpen: false });
    await plain.station.waitForBanner();
    await openPort(plain.station, plain.port);
    plain.port.write(`${frame('3 ping')}\n`);
    await plain.station.runUntil(() => plain.lines.length >= 1);
    expect(parseDeviceLine(plain.lines[0] ?? '')).toMatchObject({ type: 'ok', id: 3 });
    expect(plain.station.runner.resets).toBe(0);
  });

  it('a wrong baud rate garbles the line both ways', async () => {
    const { station, binding } = rig();
    await station.waitForBanner();
    const port = new SerialPortStream({ binding, path: PATH, baudRate: 9600, autoOpen: false });
    open.push(port);
    const chunks: Buffer[] = [];
    port.on('data', (chunk: Buffer) => chunks.push(chunk));
    await openPort(station, port);
    await station.runUntil(() => Buffer.concat(chunks).includes(0xff) && station.lines.some((l) => l.boot === 1));
    expect(Buffer.concat(chunks).every((b) => b === 0xff)).toBe(true);
    const from = station.lines.length;
    port.write(`${frame('4 ping')}\n`);
    await station.runFor(30_000);
    const heard = station.lines.slice(from).map((l) => l.text);
    if (heard.length > 0) console.info(JSON.stringify(heard));
    expect(heard).toEqual([]); // the station heard nothing it could frame
  });

  it('free-running: simulated time follows the host clock, and a plain async client just awaits its reply', async () => {
    const { station, port, parser, lines } = rig();
    await station.waitForBanner();
    const simStart = station.nowUs;
    const hostStart = performance.now();
    station.start({ speed: 1 });
    try {
      await new Promise<void>((resolve, reject) => {
        port.open((err) => {
          if (err) reject(err);
          else resolve();
        });
      });
      // The open reset the board: wait for its banner before sending (bytes sent while it boots are lost).
      const lineMatching = (prefix: string): Promise<string> => Promise.race([
        new Promise<string>((resolve) => {
          const check = (): void => {
            const found = lines.find((l) => l.startsWith(prefix));
            if (found !== undefined) resolve(found);
            else parser.once('data', check);
          };
          check();
        }),
        new Promise<string>((_, reject) => setTimeout(() => {
          reject(new Error(`no "${prefix}" line within 5 s of host time`));
        }, 5000)),
      ]);
      await lineMatching('ZT ');
      port.write(`${frame('21 ping')}\n`);
      const line = await lineMatching('ok 21 ');
      expect(parseDeviceLine(line)).toMatchObject({ type: 'ok', id: 21 });
    } finally {
      await station.stop();
    }
    // Paced to real time: never ahead of the host clock (it may fall behind on a loaded machine).
    expect(station.nowUs - simStart).toBeLessThanOrEqual((performance.now() - hostStart) * 1000 + 5000);
    expect(station.nowUs - simStart).toBeGreaterThan(0);
  });
});

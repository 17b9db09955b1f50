/**
 * Flashing a board through its bootloader with **avrgirl-arduino** (the NodeBots flasher johnny-five users
 * know; no avrdude needed): which image for which board, the checks that fail before the port is touched,
 * the upload with its progress, and avrgirl's errors turned into stable codes. `zaptable flash` is the
 * command; hardware/flashing.md the guide.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { stripVTControlCharacters } from 'node:util';
import { projectFile } from '../../config/project-root.ts';

const require = createRequire(import.meta.url);

/**
 * The boards `zaptable flash` knows, with what avrgirl-arduino calls them and what their bootloader leaves.
 * `firmataDir`: whose StandardFirmata build in avrgirl's `junk/hex/` to write. A Nano gets the **Uno's**
 * (StandardFirmata 2.4): the same ATmega328P at 16 MHz with the same D0–D13/A0–A5, so the image runs
 * unchanged (A6/A7, analog-only on a Nano, are simply not in its pin list). avrgirl's own Nano build
 * (StandardFirmata 2.3) sends its version and name and then, in the emulator, answers no query sent after
 * that (the capability query, the firmware query; only queries already waiting in its receive buffer when it
 * started), so johnny-five never gets ready (test/firmata/nano-firmata.test.ts).
 */
export const FLASH_BOARDS = {
  uno: { avrgirl: 'uno', chip: 'ATmega328P', firmataDir: 'uno', build: '328p', bootloader: 'Optiboot, 115200 baud', flashBytes: 32_256 },
  nano: { avrgirl: 'nano (new bootloader)', chip: 'ATmega328P', firmataDir: 'uno', build: '328p', bootloader: 'Optiboot, 115200 baud', flashBytes: 32_256 },
  'nano-old': { avrgirl: 'nano', chip: 'ATmega328P', firmataDir: 'uno', build: '328p', bootloader: 'ATmegaBOOT, 57600 baud', flashBytes: 30_720 },
  mega: { avrgirl: 'mega', chip: 'ATmega2560', firmataDir: 'mega', build: '2560', bootloader: 'stk500v2, 115200 baud', flashBytes: 253_952 },
} as const;

export type FlashBoardName = keyof typeof FLASH_BOARDS;

export function isFlashBoard(name: string): name is FlashBoardName {
  return Object.hasOwn(FLASH_BOARDS, name);
}

/** Stable codes of `zaptable flash` failures (the command prints `message [CODE]`). */
export const FLASH_ERRORS = {
  FLASH_NO_PORT: 'the serial port does not exist (the board is not plugged in, or another name)',
  FLASH_FILE_MISSING: 'the .hex file does not exist (for --seat/--pile: build it first)',
  FLASH_BAD_HEX: 'the file is not Intel HEX',
  FLASH_WRONG_BOARD: 'the image is not for this board (too large, another chip, or the bootloader reports another chip)',
  FLASH_NO_BOOTLOADER: 'the bootloader did not answer (wrong --board or baud, port held by another program, or no bootloader)',
  FLASH_FAILED: 'the upload failed',
} as const;

export type FlashErrorCode = keyof typeof FLASH_ERRORS;

export class FlashError extends Error {
  constructor(readonly code: FlashErrorCode, message: string) {
    super(message);
    this.name = 'FlashError';
  }
}

/** What to flash: a file, our firmware, or StandardFirmata for a buzzer hub. */
export type FlashSource =
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'seat' | 'pile' }
  | { readonly kind: 'firmata' };

export interface FlashImage {
  /** The .hex file. */
  readonly path: string;
  /** For people: "StandardFirmata (avrgirl-arduino's build for the uno)". */
  readonly label: string;
  /** Bytes of flash the image occupies (its highest address + 1). */
  readonly bytes: number;
  /** The bytes themselves (0xFF where the file writes nothing). */
  readonly data: Uint8Array;
}

/** Our firmware's build for a board (the Makefile's output folders, hardware/flashing.md). */
function stationHex(kind: 'seat' | 'pile', board: FlashBoardName): string {
  const build = FLASH_BOARDS[board].build;
  if (kind === 'pile' && build !== '328p') throw new FlashError('FLASH_WRONG_BOARD', 'the pile station is built for the ATmega328P only (uno, nano, nano-old)');
  return projectFile('firmware', 'build', `${kind}-${build}`, 'zaptable.hex');
}

/** The StandardFirmata build avrgirl-arduino ships for the board (its `junk/hex/<board>/`). */
export function firmataHex(board: FlashBoardName): string {
  return require.resolve(`avrgirl-arduino/junk/hex/${FLASH_BOARDS[board].firmataDir}/StandardFirmata.cpp.hex`);
}

/** The flash image an Intel HEX text writes (records 00, 01, 02, 04; every record checked), 0xFF elsewhere. */
export function parseHexImage(text: string): Uint8Array {
  let base = 0;
  let records = 0;
  const chunks: { addr: number; data: Buffer }[] = [];
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const bytes = /^:([0-9A-Fa-f]{2})+$/.test(line) ? Buffer.from(line.slice(1), 'hex') : undefined;
    if (bytes === undefined || bytes.length < 5 || bytes.length !== (bytes[0] ?? 0) + 5) throw new Error(`line ${index + 1} is not an Intel HEX record`);
    if (bytes.reduce((a, b) => (a + b) & 0xff, 0) !== 0) throw new Error(`line ${index + 1}: checksum`);
    records++;
    const [count = 0, hi = 0, lo = 0, type = 0, d0 = 0, d1 = 0] = bytes;
    if (type === 0) chunks.push({ addr: base + ((hi << 8) | lo), data: bytes.subarray(4, 4 + count) });
    else if (type === 1) break;
    else if (type === 2) base = ((d0 << 8) | d1) * 16;
    else if (type === 4) base = ((d0 << 8) | d1) * 65_536;
  }
  if (records === 0) throw new Error('no records');
  const image = new Uint8Array(Math.max(0, ...chunks.map((c) => c.addr + c.data.length))).fill(0xff);
  for (const c of chunks) image.set(c.data, c.addr);
  return image;
}

/** The highest address + 1 an Intel HEX text writes. */
export function hexImageBytes(text: string): number {
  return parseHexImage(text).length;
}

/** Finds the image for `source` on `board` and checks that it exists, is Intel HEX and fits. */
export function resolveImage(source: FlashSource, board: FlashBoardName): FlashImage {
  const spec = FLASH_BOARDS[board];
  const path = source.kind === 'file' ? source.path : source.kind === 'firmata' ? firmataHex(board) : stationHex(source.kind, board);
  const label = source.kind === 'file' ? path
    : source.kind === 'firmata'
      ? `StandardFirmata (avrgirl-arduino's build for the ${spec.firmataDir}${spec.firmataDir === board ? '' : `, same chip and pins as a ${board}`})`
      : `the ${source.kind} station firmware (${path})`;
  if (!existsSync(path)) {
    const hint = source.kind === 'file' ? '' : `: build it with make -C firmware ${source.kind === 'pile' ? 'avr-pile' : spec.build === '2560' ? 'mega' : 'avr'}`;
    throw new FlashError('FLASH_FILE_MISSING', `${path} does not exist${hint}`);
  }
  let data: Uint8Array;
  try {
    data = parseHexImage(readFileSync(path, 'latin1'));
  } catch (error) {
    throw new FlashError('FLASH_BAD_HEX', `${path} is not Intel HEX: ${error instanceof Error ? error.message : String(error)}`);
  }
  const bytes = data.length;
  if (bytes > spec.flashBytes) {
    throw new FlashError('FLASH_WRONG_BOARD', `${path} needs ${bytes} bytes of flash; a ${board} has ${spec.flashBytes} beside its bootloader`);
  }
  return { path, label, bytes, data };
}

/** Fails with FLASH_NO_PORT when `port` is a device path that does not exist. */
export function checkPort(port: string): void {
  if (port.startsWith('/') && !existsSync(port)) {
    throw new FlashError('FLASH_NO_PORT', `${port} does not exist: is the board plugged in? (ls /dev/ttyACM* /dev/ttyUSB*)`);
  }
}

/** What avrgirl-arduino exposes that this module uses (it ships no typings). */
interface Avrgirl {
  readonly connection: {
    _setUpSerial: (callback: (error: Error | null) => void) => void;
    readonly options: { readonly port: string };
    readonly board: { readonly baud: number };
  };
  flash(file: string, callback: (error?: Error | null) => void): void;
}
type AvrgirlClass = new (options: { board: string; port: string; debug?: (...args: unknown[]) => void }) => Avrgirl;

/** The serialport 9 stream avrgirl-arduino opens its port with (its own dependency, not ours). */
interface Serial9 {
  readonly isOpen: boolean;
  write(data: Buffer, ...rest: unknown[]): boolean;
  on(event: 'data', listener: (data: Buffer) => void): unknown;
  close(callback?: (error?: Error | null) => void): void;
}
type Serial9Class = new (path: string, options: { baudRate: number; autoOpen: boolean; binding?: unknown }) => Serial9;

export interface FlashProgress {
  /** A phase avrgirl reports: connected, reset complete., flashing, please wait..., flash complete. */
  phase?(text: string): void;
  /** Bytes moved so far of an estimate of the total (writing, then verifying where the protocol does). */
  bytes?(done: number, total: number): void;
}

export interface FlashOptions {
  readonly image: FlashImage;
  readonly board: FlashBoardName;
  readonly port: string;
  readonly progress?: FlashProgress;
  /**
   * A serialport 9 binding (the `@serialport/binding-abstract` shape) to open the port with, instead of the
   * native one: the tests run avrgirl's whole upload against a bootloader model this way.
   */
  readonly binding?: unknown;
}

/**
 * The pages an STK500v1 bootloader sent back, taken from the byte stream both ways. avrgirl's `stk500`
 * reads every page back after writing but does not compare what it reads (nor the signature), so the
 * comparison is done here: LOAD_ADDRESS (0x55, a word address) then READ_PAGE (0x74, size) is answered by
 * INSYNC, the page, OK.
 */
export class ReadBack {
  private readonly pages = new Map<number, Uint8Array>();
  private address = 0;
  private expecting: { readonly address: number; readonly size: number; bytes: number[]; started: boolean } | undefined;

  /** A command the host wrote. */
  sent(data: Uint8Array): void {
    if (data[0] === 0x55 && data.length >= 4) this.address = ((data[1] ?? 0) | ((data[2] ?? 0) << 8)) * 2;
    if (data[0] === 0x74 && data.length >= 5) {
      this.expecting = { address: this.address, size: ((data[1] ?? 0) << 8) | (data[2] ?? 0), bytes: [], started: false };
    }
  }

  /** Bytes the board answered. */
  received(data: Uint8Array): void {
    const page = this.expecting;
    if (page === undefined) return;
    for (const byte of data) {
      if (!page.started) {
        page.started = byte === 0x14; // INSYNC
        continue;
      }
      page.bytes.push(byte);
      if (page.bytes.length === page.size) {
        this.pages.set(page.address, Uint8Array.from(page.bytes));
        this.expecting = undefined;
        return;
      }
    }
  }

  /** The first difference between `image` and what was read back (or a part never read); undefined: equal. */
  mismatch(image: Uint8Array): string | undefined {
    const seen = new Uint8Array(image.length);
    for (const [address, page] of this.pages) {
      for (let i = 0; i < page.length && address + i < image.length; i++) {
        if (page[i] !== image[address + i]) {
          const hex = (n: number | undefined): string => `0x${(n ?? 0).toString(16).padStart(2, '0')}`;
          return `flash at 0x${(address + i).toString(16)} reads ${hex(page[i])}, the image has ${hex(image[address + i])}`;
        }
        seen[address + i] = 1;
      }
    }
    // stk500 drops the very last byte of an image shorter than one page: only gaps before the end count.
    const unread = seen.subarray(0, image.length - 1).indexOf(0);
    return unread < 0 ? undefined : `flash from 0x${unread.toString(16)} was never read back`;
  }
}

/** Turns avrgirl's and stk500's error messages into codes. */
export function classifyFlashError(error: unknown, board: FlashBoardName): FlashError {
  const message = error instanceof Error ? error.message : String(error);
  if (/signature doesnt match|signature does not match/i.test(message)) {
    return new FlashError('FLASH_WRONG_BOARD', `the bootloader reports another chip than a ${board}'s ${FLASH_BOARDS[board].chip} (${message})`);
  }
  if (/No such file|ENOENT|cannot open/i.test(message)) return new FlashError('FLASH_NO_PORT', message);
  if (/Inappropriate ioctl|cannot set/i.test(message)) {
    return new FlashError('FLASH_NO_PORT', `not a serial port: its DTR line cannot reset the board (${message})`);
  }
  if (/receiveData timeout|not in sync|response mismatch|CMD_SIGN_ON|Sending 3020/i.test(message)) {
    const other = board === 'nano' ? ' (an older Nano: --board nano-old)' : board === 'nano-old' ? ' (a newer Nano: --board nano)' : '';
    return new FlashError('FLASH_NO_BOOTLOADER', `no answer from a ${FLASH_BOARDS[board].bootloader} bootloader${other}: ${message}`);
  }
  return new FlashError('FLASH_FAILED', message);
}

/**
 * Uploads `image` through the bootloader: avrgirl-arduino resets the board (DTR), syncs, writes every page
 * and, on the STK500v1 boards, reads every page back, which is compared here with the image (see
 * {@link ReadBack}). Rejects with a {@link FlashError}.
 */
export async function flashBoard(options: FlashOptions): Promise<void> {
  const { board, port, image, progress } = options;
  checkPort(port);
  const Avrgirl = require('avrgirl-arduino') as AvrgirlClass;
  const SerialPort = createRequire(require.resolve('avrgirl-arduino'))('serialport') as Serial9Class;
  const avrgirl = new Avrgirl({
    board: FLASH_BOARDS[board].avrgirl, port,
    debug: (...args) => progress?.phase?.(stripVTControlCharacters(args.map(String).join(' '))),
  });
  // Bytes both ways: the upload, then the read-back (avrgirl does not verify on the STK500v2 boards).
  const total = image.bytes * (verifies(board) ? 2 : 1);
  let moved = 0;
  const count = (n: number): void => {
    moved += n;
    progress?.bytes?.(Math.min(moved, total), total);
  };
  const readBack = new ReadBack();
  // avrgirl's own port set-up (Connection._setUpSerial), with the optional binding, a byte count and the
  // read-back comparison.
  const connection = avrgirl.connection;
  let opened: Serial9 | undefined;
  connection._setUpSerial = (callback) => {
    const serial = new SerialPort(connection.options.port, {
      baudRate: connection.board.baud, autoOpen: false, ...(options.binding === undefined ? {} : { binding: options.binding }),
    });
    const write = serial.write.bind(serial);
    serial.write = (data, ...rest) => {
      count(data.length);
      readBack.sent(data);
      return write(data, ...rest);
    };
    serial.on('data', (data) => {
      count(data.length);
      readBack.received(data);
    });
    Object.assign(connection, { serialPort: serial });
    opened = serial;
    callback(null);
  };
  await new Promise<void>((resolve, reject) => {
    avrgirl.flash(image.path, (error) => {
      if (!error) {
        resolve();
        return;
      }
      // avrgirl closes the port only once it has flashed: a failure before leaves it open (and the process alive).
      if (opened?.isOpen === true) opened.close();
      reject(classifyFlashError(error, board));
    });
  });
  if (!verifies(board)) return;
  const mismatch = readBack.mismatch(image.data);
  if (mismatch !== undefined) throw new FlashError('FLASH_FAILED', `verify failed: ${mismatch}`);
}

/** Whether avrgirl reads this board's flash back (the STK500v1 boards; not the Mega's stk500v2). */
export function verifies(board: FlashBoardName): boolean {
  return FLASH_BOARDS[board].build !== '2560';
}

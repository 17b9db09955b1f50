/**
 * `zaptable flash`: puts a station's firmware or StandardFirmata (for a buzzer hub) on a board through its
 * bootloader, with avrgirl-arduino, showing progress. hardware/flashing.md is the guide.
 */
import { parse, UsageError } from '../args.ts';
import type { Output } from '../output.ts';
import { progressBar, ProgressLine } from '../setup/progress-bar.ts';
import {
  checkPort, FLASH_BOARDS, FlashError, flashBoard, isFlashBoard, resolveImage, verifies, type FlashBoardName, type FlashSource,
} from './flash-board.ts';

export const flashHelp = `zaptable flash (FILE | --seat | --pile | --firmata) --port PATH [--board uno|nano|nano-old|mega]

Writes a firmware image to a board through its bootloader (avrgirl-arduino, as johnny-five users know it;
no avrdude needed), with progress, then the board runs it. Stop anything that holds the port first (on the
Pi: sudo systemctl stop zaptable).

  FILE          an Intel HEX file
  --seat        our seat-station firmware, firmware/build/seat-328p/zaptable.hex (seat-2560 on a mega);
                build it first with make -C firmware avr (or mega)
  --pile        the pile-station firmware, firmware/build/pile-328p/zaptable.hex (make -C firmware avr-pile)
  --firmata     StandardFirmata for a buzzer hub: the build avrgirl-arduino ships for the board (a Nano
                gets the Uno's 2.4 build, same chip and pins: avrgirl's Nano build never gets johnny-five ready)
  --port PATH   the board's serial port, e.g. /dev/ttyACM0 (Uno, Mega) or /dev/ttyUSB0 (Nano clones)
  --board B     uno (default; Optiboot, 115200), nano (new bootloader, 115200), nano-old (old
                bootloader, 57600), mega (Mega 2560, stk500v2)

Exit 0 flashed (and verified on uno/nano), 1 failed (a code in brackets: FLASH_NO_PORT, FLASH_FILE_MISSING,
FLASH_BAD_HEX, FLASH_WRONG_BOARD, FLASH_NO_BOOTLOADER, FLASH_FAILED), 2 usage error.`;

/** The source the arguments name (exactly one). */
function sourceOf(values: { seat?: boolean; pile?: boolean; firmata?: boolean }, positionals: readonly string[]): FlashSource {
  const named: FlashSource[] = [
    ...positionals.map((path): FlashSource => ({ kind: 'file', path })),
    ...(values.seat === true ? [{ kind: 'seat' } as const] : []),
    ...(values.pile === true ? [{ kind: 'pile' } as const] : []),
    ...(values.firmata === true ? [{ kind: 'firmata' } as const] : []),
  ];
  const [only, ...more] = named;
  if (only === undefined) throw new UsageError('name what to flash: a .hex FILE, --seat, --pile or --firmata');
  if (more.length > 0) throw new UsageError('name one thing to flash: a .hex FILE, --seat, --pile or --firmata');
  return only;
}

export interface FlashCommandOptions {
  /** Passed to `flashBoard` (tests: a serialport binding onto a bootloader model). */
  readonly binding?: unknown;
}

export async function flashCommand(argv: readonly string[], io: Output, options: FlashCommandOptions = {}): Promise<number> {
  const { values, positionals } = parse(argv, {
    port: { type: 'string' }, board: { type: 'string' },
    seat: { type: 'boolean' }, pile: { type: 'boolean' }, firmata: { type: 'boolean' },
  });
  const source = sourceOf(values, positionals);
  const boardName = values.board ?? 'uno';
  if (!isFlashBoard(boardName)) throw new UsageError(`--board must be one of ${Object.keys(FLASH_BOARDS).join(', ')}, got "${boardName}"`);
  const board: FlashBoardName = boardName;
  // No guessing: flashing the wrong board of several plugged in would replace its firmware.
  if (values.port === undefined || values.port === '') throw new UsageError('--port is required (ls /dev/ttyACM* /dev/ttyUSB*)');
  const port = values.port;
  const line = new ProgressLine(io);
  const started = Date.now();
  try {
    const image = resolveImage(source, board);
    checkPort(port);
    const spec = FLASH_BOARDS[board];
    io.out(`flashing ${image.label} to the ${board} (${spec.chip}, ${spec.bootloader}) on ${port}: ${image.bytes} of ${spec.flashBytes} bytes`);
    await flashBoard({
      image, board, port, ...(options.binding === undefined ? {} : { binding: options.binding }),
      progress: {
        phase: (text) => {
          line.out(`  ${text}`);
        },
        bytes: (done, total) => {
          line.show(`${progressBar(done, total)} bytes`);
        },
      },
    });
    line.clear();
    const verified = verifies(board) ? 'written and read back identical' : 'written (avrgirl does not read a Mega back)';
    io.out(`done in ${((Date.now() - started) / 1000).toFixed(1)} s: ${verified}; the board runs it now`);
    return 0;
  } catch (error) {
    line.clear();
    if (!(error instanceof FlashError)) throw error;
    io.err(`zaptable flash: ${error.message} [${error.code}]`);
    return 1;
  }
}

/**
 * The emulated StandardFirmata Uno (firmata-board.ts) on the master side of a pseudo-terminal, in its own
 * process: the controller opens the slave (`/dev/pts/N`) with its production path (johnny-five → firmata →
 * serialport 8's native binding), through the kernel's tty layer, as it opens `/dev/ttyACM0`. Used by
 * measure-host-delay.ts, which starts it through a tiny Python helper that creates the pty (Node cannot
 * without a native addon) and passes both fds: `node --import tsx pty-board.ts SPEED MASTER_FD SLAVE_FD`.
 *
 * The board free-runs at SPEED × real time. On stdin it takes one line, `presses N SPACING_MS HOLD_MS SEED`: N
 * presses of the button on D2, the first 300 ms from then, the next every SPACING_MS plus a pseudo-random
 * 0–10 ms (so edges fall at every phase of Firmata's loop). On stdout, one JSON object per line:
 * - `{"type":"edge","pressed":true,"simUs":…}` for every contact edge (simulated time);
 * - `{"type":"report","port":0,"value":…,"startSimUs":…,"endSimUs":…,"writeNs":"…"}` for every
 *   DIGITAL_MESSAGE the board sent: its first byte's start and last stop bit's end in simulated time, and
 *   the host's CLOCK_MONOTONIC (`process.hrtime.bigint()`, shared by every process) just before the last
 *   byte was written to the pty master (the bytes cannot be there earlier);
 * - `{"type":"lag","us":…}` every second (how far the emulator runs behind real time), `{"type":"done"}`.
 * The slave fd is only held open (a pty master reads EIO while no slave is open); the controller reads it.
 */
import { createReadStream, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { SeededRandom } from '../../controller/kernel/random.ts';
import { FirmataBoard } from './firmata-board.ts';

const speed = Number(process.argv[2]);
const masterFd = Number(process.argv[3]);
const slaveFd = Number(process.argv[4]);
if (!(speed > 0) || !Number.isInteger(masterFd) || !Number.isInteger(slaveFd)) throw new Error('usage: pty-board.ts SPEED MASTER_FD SLAVE_FD');

const BUTTON_PIN = 2;
const board = new FirmataBoard({ resetOnOpen: false });
const button = board.pins.button(BUTTON_PIN);
const say = (message: Record<string, unknown>): void => {
  process.stdout.write(`${JSON.stringify(message)}\n`);
};

// Board → host: every byte to the master the moment its stop bit is out (simulated time).
let message: { start: number; bytes: number[] } | undefined;
board.onTransmit((bytes) => {
  // Taken before the write: the reader, woken by it, may run before this process does again (measured: a
  // stamp taken after the write came up to 0.6 ms before it under load).
  const writeNs = process.hrtime.bigint();
  writeSync(masterFd, bytes);
  // 57600 baud with U2X on a 16 MHz AVR is 57 142 baud: 175 µs a byte (10 bits).
  const charUs = 10e6 / (board.deviceBaudRate ?? 57_600);
  for (const byte of bytes) {
    if ((byte & 0xf0) === 0x90) message = { start: board.nowUs - charUs, bytes: [byte] };
    else if (byte >= 0x80) message = undefined;
    else if (message !== undefined) {
      message.bytes.push(byte);
      if (message.bytes.length === 3) {
        const [command = 0, lsb = 0, msb = 0] = message.bytes;
        say({ type: 'report', port: command & 0x0f, value: lsb | (msb << 7), startSimUs: message.start, endSimUs: board.nowUs, writeNs: String(writeNs) });
        message = undefined;
      }
    }
  }
});

// Host → board.
createReadStream('', { fd: masterFd, autoClose: false, highWaterMark: 256 }).on('data', (chunk) => {
  board.hostWrite(typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk);
});

let reported = 0;
createInterface({ input: process.stdin }).on('line', (line) => {
  const [verb, n = '0', spacing = '100', hold = '40', seed = '1'] = line.trim().split(/\s+/);
  if (verb !== 'presses') return;
  const random = new SeededRandom(`pty-board:${seed}`);
  let at = board.nowUs + 300_000;
  const count = Number(n);
  for (let i = 0; i < count; i++) {
    button.pressAt(at);
    button.releaseAt(at + Number(hold) * 1000);
    at += Number(spacing) * 1000 + random.next() * 10_000;
  }
  const edgesAtStart = button.edges.length;
  const report = setInterval(() => {
    for (const edge of button.edges.slice(reported)) say({ type: 'edge', pressed: edge.pressed, simUs: edge.atUs });
    reported = button.edges.length;
    say({ type: 'lag', us: Math.round(board.lagUs) });
    if (reported - edgesAtStart >= 2 * count) {
      clearInterval(report);
      say({ type: 'done' });
    }
  }, 1000);
});

board.start(speed);
say({ type: 'ready', slaveFd });

/**
 * What `zaptable flash --firmata --board nano|nano-old` writes, run in avr8js as the Uno's StandardFirmata is
 * (hub-on-standard-firmata.test.ts): the image the command resolves for a Nano must answer johnny-five's
 * capability query and serve the hub; avrgirl's own Nano build (StandardFirmata 2.3), which the command
 * wrote before, stops answering during the handshake — the hub then counts a `timeouts`, not a
 * `disconnects` (issue 17).
 */
import { createRequire } from 'node:module';
import { SerialPortStream } from '@serialport/stream';
import { afterEach, describe, expect, it } from 'vitest';
import { firmataHex, resolveImage } from '../../controller/cli/commands/flash-board.ts';
import { BuzzerHub } from '../../controller/hardware/buzzer-hub/buzzer-hub.ts';
import type { BuzzerHubOptions } from '../../controller/hardware/buzzer-hub/hub-config.ts';
import type { SensorEvent } from '../../controller/hardware/interface.ts';
import { UsartBinding } from '../emulator/usart-binding.ts';
import { FirmataBoard } from './firmata-board.ts';
import { decodeFirmata } from './firmata-wire.ts';

const require = createRequire(import.meta.url);
const PATH = '/dev/ttyUSB-nano';
const CAPABILITY_RESPONSE = 0x6c;
/** firmata-io's handshake queries (sysex) and the answer each expects: capability, analog mapping. */
const ANSWER: Readonly<Record<number, number>> = { 0x6b: CAPABILITY_RESPONSE, 0x69: 0x6a };

const running: { board: FirmataBoard; hub: BuzzerHub }[] = [];

afterEach(async () => {
  for (const { board, hub } of running.splice(0)) {
    await hub.stop();
    await board.stop();
  }
});

/** Boots `hex` on an emulated Nano (a 328P: the Uno's harness) and starts a hub on it. */
async function hubOn(hex: string, options: Partial<BuzzerHubOptions> = {}) {
  const board = new FirmataBoard({ resetOnOpen: true, hex });
  const binding = new UsartBinding();
  binding.attach(PATH, board);
  board.start(1);
  const hub = new BuzzerHub({
    io: PATH,
    openPort: (path) => new SerialPortStream({ binding, path, baudRate: 57_600 }),
    buttons: [{ id: 'buzzer-1', pin: 14, lamp: 9 }],
    piezoPin: 15,
    readyTimeoutMs: 20_000,
    ...options,
  }, board.simClock());
  running.push({ board, hub });
  const events: SensorEvent[] = [];
  hub.onEvent((e) => events.push(e));
  await hub.start();
  return { board, hub, events };
}

describe('StandardFirmata for a Nano (zaptable flash --firmata --board nano|nano-old)', () => {
  it('writes an image that answers the capability query and serves the hub', async () => {
    for (const board of ['nano', 'nano-old'] as const) {
      expect(firmataHex(board)).toBe(firmataHex('uno'));
      expect(resolveImage({ kind: 'firmata' }, board).label).toBe('StandardFirmata (avrgirl-arduino\'s build for the uno, same chip and pins as a ' + board + ')');
    }
    const { board, hub, events } = await hubOn(firmataHex('nano'));
    expect(hub.health()[0]).toMatchObject({ online: true, firmware: 'StandardFirmata.ino 2.4 (Firmata 2.4)', errors: { timeouts: 0, disconnects: 0 } });
    const capabilities = decodeFirmata(board.sent).find((m) => m.type === 'sysex' && m.command === CAPABILITY_RESPONSE);
    // One 0x7F terminator per pin: D0–D13 and A0–A5.
    expect(capabilities?.type === 'sysex' ? capabilities.data.filter((b) => b === 0x7f).length : 0).toBe(20);
    // A button on A0 is read as A0.
    const wire = board.pins.button(14);
    const atUs = board.nowUs + 50_000;
    wire.pressAt(atUs);
    wire.releaseAt(atUs + 60_000);
    expect(await board.waitFor(() => events.length >= 2)).toBe(true);
    expect(events.map((e) => e.kind)).toEqual(['button-pressed', 'button-released']);
    expect(Math.abs((events[0]?.time.hostUs ?? 0) - atUs)).toBeLessThanOrEqual(events[0]?.time.uncertaintyUs ?? 0);
  }, 60_000);

  it('avrgirl\'s own Nano build stops answering johnny-five\'s handshake: the hub counts a timeout, not a disconnect', async () => {
    const avrgirlNano = require.resolve('avrgirl-arduino/junk/hex/nano/StandardFirmata.cpp.hex');
    // The hub's timeout runs on host time, the emulator slower than real time on a loaded machine: 10 s of
    // host time leaves the firmware far more board time to answer than StandardFirmata needs (< 10 ms),
    // checked below. No retry within the test: the next attempt would reset the board and ask again.
    const noRetry = { initialMs: 600_000, maxMs: 600_000 };
    const { board, hub } = await hubOn(avrgirlNano, { readyTimeoutMs: 10_000, reconnect: noRetry });
    expect(hub.health()[0]).toMatchObject({ online: false, errors: { timeouts: 1, disconnects: 0 } });
    expect(hub.status()).toMatchObject({ state: 'retrying', lastError: 'no ready within 10000 ms' });
    const sent = decodeFirmata(board.sent);
    expect(sent.find((m) => m.type === 'version')).toMatchObject({ major: 2, minor: 3 });
    // The handshake stops at a query the board never answers: the capability query when the queries came
    // after it had announced itself; on a slow host, whose queries were already waiting in its receive buffer
    // when it started, it answered those and then not the next (the analog mapping query).
    const queries = decodeFirmata(board.received).filter((m) => m.type === 'sysex' && m.command in ANSWER);
    const last = queries.at(-1);
    expect(last).toBeDefined();
    const answer = last?.type === 'sysex' ? ANSWER[last.command] : undefined;
    expect(board.nowUs - (last?.endUs ?? Infinity), 'board time the firmware had to answer').toBeGreaterThan(1e6);
    expect(sent.filter((m) => m.type === 'sysex' && m.command === answer && m.startUs >= (last?.endUs ?? 0))).toEqual([]);
    expect(await board.waitFor(() => hub.status().retryInMs !== undefined)).toBe(true);
  }, 60_000);
});

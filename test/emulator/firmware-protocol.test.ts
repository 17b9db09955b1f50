// Firmware in the loop: the real seat firmware (firmware/build/seat-328p/zaptable.hex) in avr8js, talked to
// over its emulated USART with the controller's codec. Banner, ping timing, rejected lines.
import { beforeAll, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, frame, type DeviceMessage } from '../../controller/protocol/index.ts';
import { CYCLES_PER_US } from './avr-runner.ts';
import { StationEmulator, ensureSeatFirmware, type TappedLine } from './station-emulator.ts';

beforeAll(async () => {
  await ensureSeatFirmware();
}, 180_000);

function message(line: TappedLine): DeviceMessage {
  if (!('type' in line.message)) throw new Error(`line did not decode: ${line.text} (${line.message.error})`);
  return line.message;
}

describe('boot banner', () => {
  it('announces version, protocol, kind, id and boot count from EEPROM', async () => {
    const station = new StationEmulator({ settings: { stationId: 'seat-3', boot: 6 } });
    const banner = await station.waitForBanner();
    expect(message(banner)).toEqual({ type: 'banner', fw: '0.1.0', proto: PROTOCOL_VERSION, kind: 'seat', station: 'seat-3', boot: 7 });
    expect(station.lines[0]).toBe(banner); // printed before anything else
    expect(station.events()).toEqual([]); // a present reader and load cell raise no FAULT
  });

  it('boots a blank board as "unset"; id set is stored and carried by the next banner', async () => {
    const station = new StationEmulator();
    expect(message(await station.waitForBanner())).toMatchObject({ station: 'unset', boot: 1 });
    expect(message(await station.command({ id: 1, verb: 'id-set', station: 'seat-4' }))).toEqual({ type: 'ok', id: 1, fields: { id: 'seat-4' } });
    station.reset();
    expect(message(await station.waitForBanner())).toMatchObject({ station: 'seat-4', boot: 2 });
    expect(message(await station.command({ id: 2, verb: 'info' }))).toEqual({
      type: 'ok', id: 2, fields: { fw: '0.1.0', proto: '1', kind: 'seat', id: 'seat-4', boot: '2' },
    });
  });
});

describe('settings survive resets', () => {
  // KNOWN FIRMWARE BUG (reported, not fixed here): station_setup() rewrites the one EEPROM settings record
  // at every boot (boot counter + CRC: 2 bytes, 3.4 ms each on silicon, 3.6 ms in avr8js). A reset in that
  // window (a second DTR open, ModemManager probing the port, a brown-out while plugging in) leaves a record
  // whose CRC fails: the next boot falls back to defaults — id "unset", uncalibrated, boot=1. Measured here:
  // resets 1.0-4.0 ms after start lose the settings. A double-buffered record would fix it; when it is
  // fixed this test starts passing, and `it.fails` turns red as a reminder to make it a plain `it`.
  it.fails('a reset at any moment of the boot keeps the station id and calibration', async () => {
    for (let atUs = 0; atUs <= 8_000; atUs += 500) {
      const station = new StationEmulator({ settings: { stationId: 'seat-9', tare: 84_000, perKg: 230_000, boot: 3 } });
      await station.runFor(atUs);
      station.reset();
      expect(message(await station.waitForBanner()), `reset ${atUs} µs after power-on`).toMatchObject({ station: 'seat-9' });
    }
  });
});

describe('ping', () => {
  it('answers t = micros() when the line was taken, exactly on the simulated clock', async () => {
    const station = new StationEmulator({ settings: { stationId: 'seat-1' } });
    await station.waitForBanner();
    const micros = station.runner.traceMicrosCalls();
    const latencies: number[] = [];
    for (let i = 0; i < 6; i++) {
      await station.runFor(20_000 + i * 7_777); // land at varied phases of the loop and the RFID poll
      const reply = await station.command({ id: 100 + i, verb: 'ping' });
      const m = message(reply);
      if (m.type !== 'ok') throw new Error(reply.text);
      const t = Number(m.fields['t']);
      const newlineUs = station.newlinesReceivedUs.at(-1) ?? Number.NaN;
      // The stamp lies between the '\n' arriving and the reply's first byte (protocol.md, Time)...
      expect(t).toBeGreaterThanOrEqual(station.deviceMicrosAt(newlineUs) ?? Infinity);
      expect(t).toBeLessThanOrEqual(station.deviceMicrosAt(reply.startUs) ?? -Infinity);
      // ...and is exactly what micros() returns at the simulated cycle one of its calls ran there: the
      // device clock is the simulated clock, with no drift and no offset beyond timer0's start.
      const calls = micros.filter((c) => c / CYCLES_PER_US >= newlineUs && c / CYCLES_PER_US <= reply.startUs);
      expect(calls.map((c) => station.deviceMicrosAt(c / CYCLES_PER_US))).toContain(t);
      latencies.push(t - (station.deviceMicrosAt(newlineUs) ?? 0));
    }
    // Loop latency from '\n' to the stamp; at most one RFID poll (~2.5 ms with no tag).
    expect(Math.max(...latencies)).toBeLessThan(3000);
  });
});

describe('rejected lines are reported and never executed', () => {
  it('bad checksum → err - 4, the lamp stays off; the same command framed right is executed', async () => {
    const station = new StationEmulator({ settings: { stationId: 'seat-1' } });
    await station.waitForBanner();
    const good = frame('5 lamp on');
    const bad = `${good.slice(0, -2)}${good.endsWith('00') ? '01' : '00'}`;
    const from = station.lines.length;
    station.sendLine(bad);
    const err = await station.waitForLine((l) => l.text.startsWith('err'), { from });
    expect(message(err)).toEqual({ type: 'err', id: null, code: 4 });
    await station.runFor(20_000);
    expect(station.lamp).toBe(false);
    expect(station.lampEdges).toEqual([]);
    expect(station.messages(from).filter((m) => m.type === 'ok')).toEqual([]);

    expect(message(await station.command({ id: 5, verb: 'lamp-on' }))).toEqual({ type: 'ok', id: 5, fields: {} });
    expect(station.lamp).toBe(true);
  });

  it('missing checksum → err - 3; unknown verb → err <id> 6; out of range → err <id> 8; too long → err - 1', async () => {
    const station = new StationEmulator({ settings: { stationId: 'seat-1' } });
    await station.waitForBanner();
    const replies: DeviceMessage[] = [];
    for (const text of ['7 ping', frame('8 zap'), frame('9 lamp blink 5 400 1'), '1'.repeat(100)]) {
      const from = station.lines.length;
      station.sendLine(text);
      replies.push(message(await station.waitForLine((l) => l.text.startsWith('err') || l.text.startsWith('ok'), { from })));
    }
    expect(replies).toEqual([
      { type: 'err', id: null, code: 3 },
      { type: 'err', id: 8, code: 6 },
      { type: 'err', id: 9, code: 8 },
      { type: 'err', id: null, code: 1 },
    ]);
    expect(station.lampEdges).toEqual([]);
    // The station still answers afterwards.
    expect(message(await station.command({ id: 10, verb: 'ping' }))).toMatchObject({ type: 'ok', id: 10 });
  });
});

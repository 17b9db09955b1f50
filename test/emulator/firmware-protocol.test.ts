// Firmware in the loop: the real seat firmware (firmware/build/seat-328p/zaptable.hex) in avr8js, talked to
// over its emulated USART with the controller's codec. Banner, ping timing, rejected lines.
import { beforeAll, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, frame, type DeviceMessage } from '../../controller/protocol/index.ts';
import { CYCLES_PER_US } from './avr-runner.ts';
import { StationEmulator, crc16, ensureSeatFirmware, type TappedLine } from './station-emulator.ts';

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
    expect(message(banner)).toEqual({ type: 'banner', fw: '0.4.0', proto: PROTOCOL_VERSION, kind: 'seat', station: 'seat-3', boot: 7 });
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
      type: 'ok', id: 2, fields: { fw: '0.4.0', proto: '2', kind: 'seat', id: 'seat-4', boot: '2' },
    });
  });
});

describe('settings survive resets', () => {
  // Fixed in firmware 0.2.0 (docs/firmware-in-the-loop.md, Findings): the boot-counter save at every start
  // writes the settings slot that is not current (two slots, sequence number, CRC-16, CRC written last), so
  // a reset in the middle of it spoils only that slot and the next boot takes the other one.
  it('resets at every moment of the boot, one after the other, never lose the station id or the calibration', async () => {
    const station = new StationEmulator({ settings: { stationId: 'seat-9', tare: 84_000, perKg: 230_000, boot: 3 } });
    let previous = message(await station.waitForBanner());
    expect(previous).toMatchObject({ station: 'seat-9', boot: 4 });
    const advances = new Set<number>();
    let torn = 0;
    /** A settings slot that is neither blank nor valid: a save was cut in the middle. */
    const isTorn = (addr: number): boolean => {
      const rec = station.runner.eeprom.memory.subarray(addr, addr + 36);
      if (rec.every((b) => b === 0xff)) return false;
      return crc16(rec.subarray(0, 34)) !== ((rec[34] ?? 0) | ((rec[35] ?? 0) << 8));
    };
    let id = 1;
    for (let atUs = 0; atUs <= 20_000; atUs += 500) { // the boot save: 4 bytes x 3.6 ms from ~1 ms on
      station.reset();
      await station.runFor(atUs); // a boot cut short atUs after the MCU started
      station.reset();
      if (isTorn(64) || isTorn(112)) torn++;
      const banner = message(await station.waitForBanner());
      if (banner.type !== 'banner' || previous.type !== 'banner') throw new Error('not a banner');
      expect(banner, `reset ${atUs} µs after start`).toMatchObject({ station: 'seat-9' });
      // Never back: the cut boot either saved its count (+2) or did not get that far (+1).
      expect(banner.boot - previous.boot, `reset ${atUs} µs after start`).toBeGreaterThanOrEqual(1);
      expect(banner.boot - previous.boot).toBeLessThanOrEqual(2);
      advances.add(banner.boot - previous.boot);
      const scale = message(await station.command({ id: id++, verb: 'scale' }));
      expect(scale).toEqual({ type: 'ok', id: id - 1, fields: { tare: '84000', per_kg: '230000' } });
      previous = banner;
    }
    expect([...advances].sort()).toEqual([1, 2]); // the sweep crossed the EEPROM write, both ways
    expect(torn).toBeGreaterThanOrEqual(10); // and many cuts left a half-written slot behind
  });

  it('firmware 0.1.0\'s settings record is taken over on the first boot, and survives a reset during it', async () => {
    const settings = { stationId: 'seat-8', tare: -1_234, perKg: 229_000, boot: 41 };
    for (const cutUs of [undefined, 2_000, 5_000]) {
      const station = new StationEmulator({ settings, legacySettings: true });
      if (cutUs !== undefined) {
        await station.runFor(cutUs);
        station.reset();
      }
      const banner = message(await station.waitForBanner());
      expect(banner).toMatchObject({ station: 'seat-8' });
      expect(message(await station.command({ id: 1, verb: 'scale' }))).toEqual({ type: 'ok', id: 1, fields: { tare: '-1234', per_kg: '229000' } });
      station.reset();
      expect(message(await station.waitForBanner())).toMatchObject({ station: 'seat-8' });
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

  it('missing checksum → err - 3; unknown verb → err <id> 6; out of range → err <id> 8; too long → err - 1; CR CR → err - 2', async () => {
    const station = new StationEmulator({ settings: { stationId: 'seat-1' } });
    await station.waitForBanner();
    const replies: DeviceMessage[] = [];
    for (const text of ['7 ping', frame('8 zap'), frame('9 lamp blink 5 400 1'), '1'.repeat(100), `${frame('11 lamp on')}\r\r`,
      frame('12 zap a b c d e')]) {
      const from = station.lines.length;
      station.sendLine(text);
      replies.push(message(await station.waitForLine((l) => l.text.startsWith('err') || l.text.startsWith('ok'), { from })));
    }
    expect(replies).toEqual([
      { type: 'err', id: null, code: 3 },
      { type: 'err', id: 8, code: 6 },
      { type: 'err', id: 9, code: 8 },
      { type: 'err', id: null, code: 1 },
      { type: 'err', id: null, code: 2 }, // one CR is accepted, the second is a bad character: never executed
      { type: 'err', id: 12, code: 6 }, // the unknown verb is reported before the argument count
    ]);
    expect(station.lampEdges).toEqual([]);
    // The station still answers afterwards.
    expect(message(await station.command({ id: 10, verb: 'ping' }))).toMatchObject({ type: 'ok', id: 10 });
  });
});

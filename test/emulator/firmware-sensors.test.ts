// Firmware in the loop: the MFRC522 reader with tags and the HX711 load cell, driven through the real seat
// firmware's SPI and bit-banged pins in avr8js.
import { beforeAll, describe, expect, it } from 'vitest';
import type { EventMessage } from '../../controller/protocol/index.ts';
import { StationEmulator, ensureSeatFirmware } from './station-emulator.ts';

beforeAll(async () => {
  await ensureSeatFirmware();
}, 180_000);

/** Stamps of TAG± are micros() taken just before the poll's first SPI access (the VersionReg read). */
const POLL_STAMP_SLACK_US = 100;

async function bootedStation(options: ConstructorParameters<typeof StationEmulator>[0] = {}): Promise<StationEmulator> {
  const station = new StationEmulator({ settings: { stationId: 'seat-2' }, ...options });
  await station.waitForBanner();
  return station;
}

function tagUid(e: EventMessage): string {
  if (e.event !== 'TAG+' && e.event !== 'TAG-') throw new Error(`not a tag event: ${e.event}`);
  return e.uid;
}

describe('RFID', () => {
  it('a 4-byte tag: TAG+ stamped at the first poll after it arrived; TAG- only after two missed polls', async () => {
    const station = await bootedStation();
    await station.runFor(13_000);
    const placedUs = station.nowUs;
    station.placeTag('04A1B2C3');
    const arrived = await station.waitForEvent('TAG+');
    expect(tagUid(arrived.event)).toBe('04A1B2C3');
    const poll = station.rfid.firstPollAfter(placedUs) ?? Number.NaN;
    const pollMicros = station.deviceMicrosAt(poll) ?? Number.NaN;
    expect(arrived.event.t).toBeGreaterThanOrEqual(station.deviceMicrosAt(placedUs) ?? Infinity);
    expect(pollMicros - arrived.event.t).toBeGreaterThanOrEqual(0);
    expect(pollMicros - arrived.event.t).toBeLessThanOrEqual(POLL_STAMP_SLACK_US);

    // Present over several polls: reported once, read (SELECT + HLTA) every poll.
    const selects = station.rfid.selects;
    await station.runFor(200_000);
    expect(station.events('TAG+')).toHaveLength(1);
    expect(station.rfid.selects - selects).toBeGreaterThanOrEqual(3);
    expect(station.rfid.halts).toBe(station.rfid.selects);

    const removedUs = station.nowUs;
    station.removeTag();
    const left = await station.waitForEvent('TAG-');
    expect(tagUid(left.event)).toBe('04A1B2C3');
    const misses = station.rfid.versionReadsUs.filter((t) => t >= removedUs);
    const [firstMiss = Number.NaN, secondMiss = Number.NaN] = misses;
    // Stamped with the first missed poll, sent only after the second one.
    const firstMissMicros = station.deviceMicrosAt(firstMiss) ?? Number.NaN;
    expect(firstMissMicros - left.event.t).toBeGreaterThanOrEqual(0);
    expect(firstMissMicros - left.event.t).toBeLessThanOrEqual(POLL_STAMP_SLACK_US);
    expect(left.line.startUs).toBeGreaterThan(secondMiss);
    expect(secondMiss - firstMiss).toBeGreaterThan(45_000); // the 50 ms poll period
  });

  it('reads 7- and 10-byte UIDs (cascade levels 2 and 3); a swap reports TAG- then TAG+', async () => {
    const station = await bootedStation();
    station.placeTag('04112233445566');
    expect(tagUid((await station.waitForEvent('TAG+')).event)).toBe('04112233445566');
    const from = station.lines.length;
    station.placeTag('0411223344556677889A'); // swapped within one poll period
    const arrived = await station.waitForEvent('TAG+');
    expect(tagUid(arrived.event)).toBe('0411223344556677889A');
    const swap = station.events(undefined, from).map(({ event }) => `${event.event} ${tagUid(event)}`);
    expect(swap).toEqual(['TAG- 04112233445566', 'TAG+ 0411223344556677889A']);
  });

  it('an unplugged reader raises FAULT+ rfid (no TAG- invented) and FAULT- when it answers again', async () => {
    const station = await bootedStation();
    station.placeTag('04A1B2C3');
    await station.waitForEvent('TAG+');
    station.rfid.setConnected(false);
    expect((await station.waitForEvent('FAULT+')).event).toMatchObject({ device: 'rfid' });
    station.rfid.setConnected(true);
    expect((await station.waitForEvent('FAULT-')).event).toMatchObject({ device: 'rfid' });
    await station.runFor(120_000);
    expect(station.events('TAG-')).toEqual([]); // the tag never left
    expect(station.events('TAG+')).toHaveLength(1);
  });
});

describe('load cell', () => {
  // 80 samples/s (the HX711's RATE-high mode) keeps the simulated durations short.
  const hx711 = { sps: 80, zeroCounts: 84_000, countsPerGram: 230, noiseCounts: 40, seed: 7 };

  it('tare, calibrate with a known mass, then a placed mass settles to W <g> S within 0.3 g', async () => {
    const station = await bootedStation({ hx711 });
    // Uncalibrated: no weight reports at all.
    await station.runFor(100_000);
    expect(station.events('W')).toEqual([]);

    const tare = await station.command({ id: 1, verb: 'tare' });
    expect(tare.message).toMatchObject({ type: 'ok', id: 1 });
    const tareCounts = Number(tare.text.match(/tare=(-?\d+)/)?.[1]);
    expect(Math.abs(tareCounts - hx711.zeroCounts)).toBeLessThanOrEqual(hx711.noiseCounts);

    station.setWeight(500);
    const cal = await station.command({ id: 2, verb: 'calibrate', grams: 500 });
    const perKg = Number(cal.text.match(/per_kg=(-?\d+)/)?.[1]);
    expect(Math.abs(perKg - hx711.countsPerGram * 1000)).toBeLessThan(300); // ±0.13 %

    const from = station.lines.length;
    station.setWeight(123.4);
    const settled = await station.waitForLine((l) => 'type' in l.message && l.message.type === 'event'
      && l.message.event === 'W' && l.message.stable && Math.abs(l.message.grams - 123.4) < 5, { from });
    const w = settled.message as EventMessage & { grams: number };
    expect(Math.abs(w.grams - 123.4)).toBeLessThanOrEqual(0.3);
    // Stamped with the sample's read time: micros() just before the 25 clock pulses.
    const readout = station.scale.readoutStartsUs.map((t) => station.deviceMicrosAt(t) ?? Number.NaN)
      .find((t) => t >= w.t && t - w.t <= 60);
    expect(readout).toBeDefined();

    // Taken off: one W <latest> U as the window breaks, then W ~0.0 S.
    const offFrom = station.lines.length;
    station.setWeight(0);
    await station.waitForLine((l) => /^E \d+ \d+ W -?0\.\d S/.test(l.text), { from: offFrom });
    const reports = station.events('W', offFrom).map(({ event }) => (event.event === 'W' ? event.stable : undefined));
    expect(reports).toEqual([false, true]);
  });

  it('raw reads one signed 24-bit conversion; the firmware clocks with interrupts off and never powers it down', async () => {
    const station = await bootedStation({ hx711: { sps: 80 } });
    for (const [id, counts] of [[1, -123_456], [2, 0x7f_ffff], [3, -0x80_0000], [4, 1]] as const) {
      station.scale.setRaw(counts);
      await station.runFor(15_000); // let a conversion with the new value complete
      const reply = await station.command({ id, verb: 'raw' });
      expect(reply.message).toEqual({ type: 'ok', id, fields: { raw: String(counts) } });
    }
    expect(station.scale.readouts).toBeGreaterThanOrEqual(8);
    expect(station.scale.pulsesWithIrqEnabled).toBe(0);
    expect(station.scale.powerDowns).toBe(0);
    expect(station.scale.lastPulseCount).toBe(25); // channel A, gain 128
  });

  it('an unplugged HX711 raises FAULT+ scale after 1 s without a conversion, FAULT- when it is back', async () => {
    const station = await bootedStation({ hx711: { sps: 80 } });
    const unpluggedUs = station.nowUs;
    station.scale.setConnected(false);
    const fault = await station.waitForEvent('FAULT+', { timeoutUs: 1_500_000 });
    expect(fault.event).toMatchObject({ device: 'scale' });
    expect(fault.line.startUs - unpluggedUs).toBeGreaterThan(900_000);
    station.scale.setConnected(true);
    expect((await station.waitForEvent('FAULT-', { timeoutUs: 200_000 })).event).toMatchObject({ device: 'scale' });
  });
});

// Firmware in the loop: the MFRC522 reader with tags and the HX711 load cell, driven through the real seat
// firmware's SPI and bit-banged pins in avr8js.
import { beforeAll, describe, expect, it } from 'vitest';
import type { EventMessage } from '../../controller/protocol/index.ts';
import { StationEmulator, ensureSeatFirmware } from './station-emulator.ts';
import { ntagUids } from './ntag-uids.ts';

/** TAG_MAX_PRESENT of the seat build (firmware/src/tag_presence.h). */
const TAG_SLOTS = 16;

beforeAll(async () => {
  await ensureSeatFirmware();
}, 180_000);

/**
 * A TAG+ is stamped with micros() just before its poll's REQA is set up (the model sees the REQA go out a few
 * register writes later); a TAG- with the presence check (WUPA) that first missed the tag.
 */
const STAMP_SLACK_US = 150;
/** ISO/IEC 14443-3: a tag answers within 5 ms of entering the field (the host's power-up allowance). */
const POWER_UP_ALLOWANCE_US = 5_000;

async function bootedStation(options: ConstructorParameters<typeof StationEmulator>[0] = {}): Promise<StationEmulator> {
  const station = new StationEmulator({ settings: { stationId: 'seat-2' }, ...options });
  await station.waitForBanner();
  return station;
}

function tagUid(e: EventMessage): string {
  if (e.event !== 'TAG+' && e.event !== 'TAG-') throw new Error(`not a tag event: ${e.event}`);
  return e.uid;
}

function tagWindow(e: EventMessage): number {
  if (e.event !== 'TAG+' && e.event !== 'TAG-') throw new Error(`not a tag event: ${e.event}`);
  return e.windowUs ?? Number.NaN;
}

/** "TAG+ <uid>" / "TAG- <uid>" / "FAULT+ rfid" for the events from line index `from` on. */
function tagEvents(station: StationEmulator, from = 0): string[] {
  return station.events(undefined, from)
    .filter(({ event }) => event.event === 'TAG+' || event.event === 'TAG-' || event.event === 'FAULT+' || event.event === 'FAULT-')
    .map(({ event }) => (event.event === 'FAULT+' || event.event === 'FAULT-' ? `${event.event} ${event.device}` : `${event.event} ${tagUid(event)}`));
}

/** micros() at the simulated time of the nearest request (REQA or WUPA) at or after device time `t`. */
function requestAfter(station: StationEmulator, t: number, wupa: boolean): number {
  const r = station.rfid.requests.find((q) => q.wupa === wupa && (station.deviceMicrosAt(q.atUs) ?? -1) >= t);
  return r === undefined ? Number.NaN : station.deviceMicrosAt(r.atUs) ?? Number.NaN;
}

/**
 * The tag arrived in device time [t − window − power-up, t] (hardware/protocol.md, TAG+): `placedUs` (simulated)
 * must lie in it; and t is a poll, t − window an earlier poll that nobody answered.
 */
function expectHonestArrival(station: StationEmulator, event: EventMessage, placedUs: number): void {
  const t = event.t;
  const windowUs = tagWindow(event);
  const placed = station.deviceMicrosAt(placedUs) ?? Number.NaN;
  expect(placed).toBeLessThanOrEqual(t);
  expect(placed).toBeGreaterThanOrEqual(t - windowUs - POWER_UP_ALLOWANCE_US);
  expect(requestAfter(station, t, false) - t).toBeLessThanOrEqual(STAMP_SLACK_US);
  const emptyPoll = station.rfid.polls()
    .find((p) => p.answers === 0 && (station.deviceMicrosAt(p.atUs) ?? -1) >= t - windowUs);
  const emptyPollMicros = station.deviceMicrosAt(emptyPoll?.atUs ?? Number.NaN) ?? Number.NaN;
  expect(emptyPollMicros - (t - windowUs)).toBeLessThanOrEqual(STAMP_SLACK_US);
}

/**
 * The tag left in [t − window, t] (firmware 0.4.0): t − window is the last presence check it answered (a WUPA),
 * t the end of the full inventory that no longer read it: a field reset after it, then 3 polls nobody answered.
 */
function expectHonestDeparture(station: StationEmulator, event: EventMessage, removedUs: number): void {
  const removed = station.deviceMicrosAt(removedUs) ?? Number.NaN;
  const from = event.t - tagWindow(event);
  expect(removed).toBeLessThanOrEqual(event.t);
  expect(removed).toBeGreaterThanOrEqual(from);
  expect(requestAfter(station, from, true) - from).toBeLessThanOrEqual(STAMP_SLACK_US);
  const micros = (us: number): number => station.deviceMicrosAt(us) ?? Number.NaN;
  const reset = station.rfid.fieldEdges.filter((e) => !e.on && micros(e.atUs) > removed && micros(e.atUs) < event.t).at(-1);
  expect(reset).toBeDefined();
  const polls = station.rfid.polls(reset?.atUs ?? Infinity).filter((p) => micros(p.atUs) < event.t);
  expect(polls.slice(-3).map((p) => p.answers)).toEqual([0, 0, 0]);
}

describe('RFID', () => {
  it('a 4-byte tag: TAG+ stamped at the poll that read it, its window back to the last empty poll; TAG- after two missed checks and an inventory', async () => {
    const station = await bootedStation();
    await station.runFor(13_000);
    const placedUs = station.nowUs;
    station.placeTag('04A1B2C3');
    const arrived = await station.waitForEvent('TAG+');
    expect(tagUid(arrived.event)).toBe('04A1B2C3');
    expectHonestArrival(station, arrived.event, placedUs);
    expect(tagWindow(arrived.event)).toBeLessThan(2_500); // no tag to check: a poll every ~1 ms

    // Present for a while: reported once, never read again (no poll gets an answer: it stays HALTed between
    // its presence checks, which leave it ACTIVE* until the next poll's REQA).
    const readAt = station.nowUs;
    const checksBefore = station.rfid.checks().length;
    await station.runFor(200_000);
    expect(station.events('TAG+')).toHaveLength(1);
    expect(station.rfid.polls(readAt).filter((p) => p.answers > 0)).toEqual([]);
    expect(station.rfid.checks().length - checksBefore).toBeGreaterThanOrEqual(15); // one every 10 ms
    expect(['halt', 'active*']).toContain(station.rfid.tagState('04A1B2C3'));
    // The field stayed on: no field reset after the start.
    expect(station.rfid.fieldEdges.filter((e) => !e.on && e.atUs > placedUs)).toEqual([]);

    const removedUs = station.nowUs;
    station.removeTag();
    const left = await station.waitForEvent('TAG-');
    expect(tagUid(left.event)).toBe('04A1B2C3');
    expectHonestDeparture(station, left.event, removedUs);
    // A round (10 ms), its check and the repeat, the field reset (12 ms), the inventory's 3 empty polls.
    expect(left.line.startUs - removedUs).toBeLessThan(45_000);
  });

  it('reads 7- and 10-byte UIDs (cascade levels 2 and 3); a replaced tag gives TAG+ at once, TAG- two checks later', async () => {
    const station = await bootedStation();
    station.placeTag('04112233445566');
    expect(tagUid((await station.waitForEvent('TAG+')).event)).toBe('04112233445566');
    const from = station.lines.length;
    station.removeTag('04112233445566');
    station.placeTag('0411223344556677889A'); // replaced within one cycle period
    const arrived = await station.waitForEvent('TAG+');
    expect(tagUid(arrived.event)).toBe('0411223344556677889A');
    await station.waitForEvent('TAG-');
    expect(tagEvents(station, from)).toEqual(['TAG+ 0411223344556677889A', 'TAG- 04112233445566']);
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

describe('several tags on one reader', () => {
  it('a Zip-Zap hand of 13 cards: 13 TAG+; each card checked, never re-read; one taken off → its TAG-; one laid on top → TAG+ within ms', async () => {
    const station = await bootedStation();
    const hand = ntagUids(13, 2024);
    await station.runFor(20_000);
    const placedUs = station.nowUs;
    for (const uid of hand) station.placeTag(uid);
    await station.runUntil(() => station.events('TAG+').length >= 13, { timeoutUs: 500_000 });
    expect(new Set(station.events('TAG+').map(({ event }) => tagUid(event)))).toEqual(new Set(hand));
    for (const { event } of station.events('TAG+')) expectHonestArrival(station, event, placedUs);
    // One read after the other as soon as they answer (their power-up: 5 ms), 7-11 ms each (anticollision
    // among up to 13 answers).
    expect((station.events('TAG+').at(-1)?.line.startUs ?? Infinity) - placedUs).toBeLessThan(5_000 + 13 * 11_500);

    // Steady state: presence checks round robin, no re-reads, no events.
    const steadyAt = station.nowUs;
    const checksAt = station.rfid.checks().length;
    await station.runFor(400_000);
    expect(station.rfid.polls(steadyAt).filter((p) => p.answers > 0)).toEqual([]);
    expect(station.rfid.checks().length - checksAt).toBeGreaterThanOrEqual(110); // one per ~3 ms step
    expect(station.events('TAG+')).toHaveLength(13);
    expect(station.events('TAG-')).toHaveLength(0);

    // One card taken off the pad: TAG- after two missed checks and a full inventory.
    const from = station.lines.length;
    const removedUs = station.nowUs;
    station.removeTag(hand[6]);
    const left = await station.waitForEvent('TAG-');
    expect(tagUid(left.event)).toBe(hand[6]);
    expectHonestDeparture(station, left.event, removedUs);
    // A round of 13 checks, two steps, the field reset, 12 reads, 3 empty polls (hardware/protocol.md: ~200 ms).
    expect(left.line.startUs - removedUs).toBeLessThan(250_000);

    // A card played on top of the others: TAG+ within a few ms of its power-up.
    await station.runFor(7_777);
    const playedUs = station.nowUs;
    station.placeTag('04C0FFEE123456');
    const played = await station.waitForEvent('TAG+');
    expect(tagUid(played.event)).toBe('04C0FFEE123456');
    expectHonestArrival(station, played.event, playedUs);
    expect(tagWindow(played.event)).toBeLessThan(5_000);
    expect(played.line.startUs - playedUs).toBeLessThan(5_000 + 5_000 + 8_000);
    expect(tagEvents(station, from)).toEqual([`TAG- ${hand[6] ?? ''}`, 'TAG+ 04C0FFEE123456']);
  });

  it('UIDs that collide in their first bits, and 7-byte UIDs that share cascade level 1, are all found', async () => {
    const station = await bootedStation();
    const uids = [
      '01A1B2C3', '00A1B2C3', // differ in the very first bit
      '80A1B2C3', '01A1B2C2', // the 8th bit; the 25th
      '04112233445566', '04112233445567', // same CL1 (88 04 11 22): they collide at cascade level 2
      '0411223344556677889A', // shares CL1 and CL2 with them up to the cascade tag
    ];
    for (const uid of uids) station.placeTag(uid);
    await station.runUntil(() => station.events('TAG+').length >= uids.length, { timeoutUs: 500_000 });
    expect(new Set(station.events('TAG+').map(({ event }) => tagUid(event)))).toEqual(new Set(uids));
    expect(station.rfid.collisions).toBeGreaterThanOrEqual(uids.length - 1);
    await station.runFor(200_000);
    expect(station.events('TAG+')).toHaveLength(uids.length);
    expect(station.events('TAG-')).toHaveLength(0);
  });

  it(`more tags than it can track (${TAG_SLOTS}): FAULT+ rfid; FAULT- and the waiting tag's TAG+ once one leaves`, async () => {
    const station = await bootedStation();
    const uids = Array.from({ length: TAG_SLOTS + 1 }, (_, i) => `20${i.toString(16).padStart(2, '0').toUpperCase()}0001`);
    for (const uid of uids) station.placeTag(uid);
    const fault = await station.waitForEvent('FAULT+', { timeoutUs: 1_000_000 });
    expect(fault.event).toMatchObject({ device: 'rfid' });
    const reported = station.events('TAG+').map(({ event }) => tagUid(event));
    expect(reported).toHaveLength(TAG_SLOTS);
    const waiting = uids.find((u) => !reported.includes(u)) ?? '';
    const leaving = reported[0] ?? '';
    const from = station.lines.length;
    station.removeTag(leaving);
    await station.waitForEvent('FAULT-', { timeoutUs: 1_000_000 });
    expect(tagEvents(station, from)).toEqual([`TAG- ${leaving}`, `TAG+ ${waiting}`, 'FAULT- rfid']);
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

  it('a railed reading (overload: 0x7FFFFF) is no weight: no W, FAULT+ scale after 1 s, FAULT- and W when back in range', async () => {
    const station = await bootedStation({ settings: { stationId: 'seat-2', tare: 84_000, perKg: 230_000 }, hx711: { sps: 80 } });
    await station.command({ id: 1, verb: 'stream-on' });
    await station.runFor(50_000);
    const from = station.lines.length;
    const railedUs = station.nowUs;
    station.scale.setRaw(50_000_000); // far beyond the converter's range: it saturates at 0x7FFFFF
    const fault = await station.waitForEvent('FAULT+', { timeoutUs: 1_500_000 });
    expect(fault.event).toMatchObject({ device: 'scale' });
    expect(fault.line.startUs - railedUs).toBeGreaterThan(900_000);
    // Weights until the first railed sample only.
    const lastWeight = station.events('W', from).at(-1);
    expect(lastWeight === undefined || lastWeight.line.startUs < railedUs + 20_000).toBe(true);
    station.setWeight(10);
    expect((await station.waitForEvent('FAULT-', { timeoutUs: 200_000 })).event).toMatchObject({ device: 'scale' });
    const back = await station.waitForEvent('W', { timeoutUs: 100_000 });
    expect(back.event).toMatchObject({ event: 'W' });
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

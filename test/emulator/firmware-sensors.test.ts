// Firmware in the loop: the MFRC522 reader with tags and the HX711 load cell, driven through the real seat
// firmware's SPI and bit-banged pins in avr8js.
import { beforeAll, describe, expect, it } from 'vitest';
import type { EventMessage } from '../../controller/protocol/index.ts';
import { StationEmulator, ensureSeatFirmware } from './station-emulator.ts';

/** TAG_MAX_PRESENT of the seat build (firmware/src/tag_presence.h). */
const TAG_SLOTS = 16;

beforeAll(async () => {
  await ensureSeatFirmware();
}, 180_000);

/**
 * Stamps of TAG+ are micros() taken just before the inventory step's first SPI access (its VersionReg read);
 * TAG- carries the start of the step that closed the first missed cycle (an empty REQA).
 */
const STEP_STAMP_SLACK_US = 100;

async function bootedStation(options: ConstructorParameters<typeof StationEmulator>[0] = {}): Promise<StationEmulator> {
  const station = new StationEmulator({ settings: { stationId: 'seat-2' }, ...options });
  await station.waitForBanner();
  return station;
}

function tagUid(e: EventMessage): string {
  if (e.event !== 'TAG+' && e.event !== 'TAG-') throw new Error(`not a tag event: ${e.event}`);
  return e.uid;
}

/** "TAG+ <uid>" / "TAG- <uid>" / "FAULT+ rfid" for the events from line index `from` on. */
function tagEvents(station: StationEmulator, from = 0): string[] {
  return station.events(undefined, from)
    .filter(({ event }) => event.event === 'TAG+' || event.event === 'TAG-' || event.event === 'FAULT+' || event.event === 'FAULT-')
    .map(({ event }) => (event.event === 'FAULT+' || event.event === 'FAULT-' ? `${event.event} ${event.device}` : `${event.event} ${tagUid(event)}`));
}

/** The step (VersionReg read) whose REQA first got an answer at or after `simUs`. */
function firstAnsweredStep(station: StationEmulator, simUs: number): number {
  const request = station.rfid.requests.find((r) => r.atUs >= simUs && r.answers > 0);
  return station.rfid.stepStartBefore(request?.atUs ?? Number.NaN) ?? Number.NaN;
}

/** The empty steps (a REQA nobody answered: the end of a cycle) at or after `simUs`. */
function cycleEnds(station: StationEmulator, simUs: number): number[] {
  return station.rfid.steps(simUs).filter((s) => s.answers === 0).map((s) => s.startUs);
}

/** Deterministic 7-byte NTAG-like UIDs (04 + 6 bytes), from a small LCG. */
function ntagUids(count: number, seed: number): string[] {
  let x = seed;
  const uids: string[] = [];
  while (uids.length < count) {
    const bytes = [0x04];
    for (let i = 0; i < 6; i++) {
      x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0;
      bytes.push((x >>> 16) & 0xff);
    }
    const uid = Buffer.from(bytes).toString('hex').toUpperCase();
    if (!uids.includes(uid)) uids.push(uid);
  }
  return uids;
}

describe('RFID', () => {
  it('a 4-byte tag: TAG+ stamped at the step that read it; TAG- only after two missed cycles', async () => {
    const station = await bootedStation();
    await station.runFor(13_000);
    const placedUs = station.nowUs;
    station.placeTag('04A1B2C3');
    const arrived = await station.waitForEvent('TAG+');
    expect(tagUid(arrived.event)).toBe('04A1B2C3');
    const step = firstAnsweredStep(station, placedUs);
    const stepMicros = station.deviceMicrosAt(step) ?? Number.NaN;
    expect(arrived.event.t).toBeGreaterThanOrEqual(station.deviceMicrosAt(placedUs) ?? Infinity);
    expect(stepMicros - arrived.event.t).toBeGreaterThanOrEqual(0);
    expect(stepMicros - arrived.event.t).toBeLessThanOrEqual(STEP_STAMP_SLACK_US);

    // Present over several cycles: reported once, read (SELECT + HLTA) once every cycle.
    const selects = station.rfid.selects;
    const cyclesBefore = station.rfid.cycleStartsUs.length;
    await station.runFor(200_000);
    expect(station.events('TAG+')).toHaveLength(1);
    const cycles = station.rfid.cycleStartsUs.length - cyclesBefore;
    expect(cycles).toBeGreaterThanOrEqual(3);
    expect(Math.abs(station.rfid.selects - selects - cycles)).toBeLessThanOrEqual(1);
    expect(station.rfid.halts).toBe(station.rfid.selects);
    // Every cycle starts with a field reset: off >= 5.1 ms, on >= 5.1 ms before the first REQA.
    const edges = station.rfid.fieldEdges;
    for (const start of station.rfid.cycleStartsUs.slice(1)) {
      const on = edges.filter((e) => e.on && e.atUs < start).at(-1);
      const off = edges.filter((e) => !e.on && e.atUs < (on?.atUs ?? 0)).at(-1);
      expect(start - (on?.atUs ?? Infinity)).toBeGreaterThanOrEqual(5_100);
      expect((on?.atUs ?? 0) - (off?.atUs ?? Infinity)).toBeGreaterThanOrEqual(5_100);
    }

    const removedUs = station.nowUs;
    station.removeTag();
    const left = await station.waitForEvent('TAG-');
    expect(tagUid(left.event)).toBe('04A1B2C3');
    const [firstMiss = Number.NaN, secondMiss = Number.NaN] = cycleEnds(station, removedUs);
    // Stamped with the end of the first missed cycle, sent only after the second one.
    const firstMissMicros = station.deviceMicrosAt(firstMiss) ?? Number.NaN;
    expect(firstMissMicros - left.event.t).toBeGreaterThanOrEqual(0);
    expect(firstMissMicros - left.event.t).toBeLessThanOrEqual(STEP_STAMP_SLACK_US);
    expect(left.line.startUs).toBeGreaterThan(secondMiss);
    expect(secondMiss - firstMiss).toBeGreaterThan(45_000); // the 50 ms cycle period
  });

  it('reads 7- and 10-byte UIDs (cascade levels 2 and 3); a replaced tag gives TAG+ at once, TAG- two cycles later', async () => {
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
  it('a Zip-Zap hand of 13 cards: 13 TAG+; each card read once per cycle; one taken off → its TAG-; one laid on top → TAG+', async () => {
    const station = await bootedStation();
    const hand = ntagUids(13, 2024);
    await station.runFor(20_000);
    const placedUs = station.nowUs;
    for (const uid of hand) station.placeTag(uid);
    await station.runUntil(() => station.events('TAG+').length >= 13, { timeoutUs: 500_000 });
    expect(new Set(station.events('TAG+').map(({ event }) => tagUid(event)))).toEqual(new Set(hand));
    // All in the first cycle after they were laid down (their power-up included).
    const firstCycle = station.rfid.firstCycleAfter(placedUs + 5_000) ?? Number.NaN;
    const firstEnd = cycleEnds(station, firstCycle)[0] ?? Number.NaN;
    for (const { line } of station.events('TAG+')) expect(line.startUs).toBeLessThan(firstEnd + 2_000);

    // Steady state: every cycle reads each card exactly once (13 SELECTs, 13 HLTAs, one empty REQA).
    const selectsAt = station.rfid.selects;
    await station.runFor(400_000);
    const later = station.rfid.steps(firstEnd + 1);
    const ends = later.filter((s) => s.answers === 0);
    expect(ends.length).toBeGreaterThanOrEqual(3);
    expect(ends.every((e) => e.answers === 0)).toBe(true);
    let prev = firstEnd;
    for (const end of ends) {
      const cycle = later.filter((s) => s.startUs > prev && s.startUs < end.startUs);
      expect(cycle).toHaveLength(13);
      prev = end.startUs;
    }
    expect(station.rfid.selects - selectsAt).toBeGreaterThanOrEqual(13 * 3);
    expect(station.events('TAG+')).toHaveLength(13);
    expect(station.events('TAG-')).toHaveLength(0);

    // One card taken off the pad: TAG- after two missed cycles, stamped with the end of the first.
    const from = station.lines.length;
    const removedUs = station.nowUs;
    station.removeTag(hand[6]);
    const left = await station.waitForEvent('TAG-');
    expect(tagUid(left.event)).toBe(hand[6]);
    const [firstMiss = Number.NaN, secondMiss = Number.NaN] = cycleEnds(station, removedUs);
    expect((station.deviceMicrosAt(firstMiss) ?? Number.NaN) - left.event.t).toBeGreaterThanOrEqual(0);
    expect((station.deviceMicrosAt(firstMiss) ?? Number.NaN) - left.event.t).toBeLessThanOrEqual(STEP_STAMP_SLACK_US);
    expect(left.line.startUs).toBeGreaterThan(secondMiss);

    // A card played on top of the others: TAG+ within one cycle (+ its power-up), stamped at its read.
    const playedUs = station.nowUs;
    station.placeTag('04C0FFEE123456');
    const played = await station.waitForEvent('TAG+');
    expect(tagUid(played.event)).toBe('04C0FFEE123456');
    expect(played.line.startUs - playedUs).toBeLessThan(2 * 50_000 + 13 * 8_000);
    expect(played.event.t).toBeGreaterThanOrEqual(station.deviceMicrosAt(playedUs) ?? Infinity);
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

  it('poll timing: how long a cycle takes and how long one step blocks the loop, with 0, 1, 4 and 13 tags', async () => {
    const figures: string[] = [];
    // 7-byte UIDs (NTAG stickers, the usual card tag) always; 4-byte ones too when reporting.
    const kinds = process.env['ZT_EMULATOR_REPORT'] ? [7, 4] : [7];
    for (const bytes of kinds) {
      for (const count of [0, 1, 4, 13]) {
        const station = await bootedStation();
        const uids = bytes === 7 ? ntagUids(count, 77 + count) : ntagUids(count, 55 + count).map((u) => `${u.slice(2, 8)}${u.slice(-2)}`);
        for (const uid of uids) station.placeTag(uid);
        await station.runUntil(() => station.events('TAG+').length >= count, { timeoutUs: 1_000_000 });
        await station.runFor(10_000);
        expect(station.events('TAG+')).toHaveLength(count);
        const fromUs = station.nowUs;
        await station.runFor(400_000);
        const steps = station.rfid.steps(fromUs).slice(0, -1); // the last one may be cut off by the end of the run
        // Cycles: runs of steps up to an empty one (the first, possibly partial, run is skipped).
        const cycles: { startUs: number; endUs: number }[] = [];
        let first: number | undefined;
        let skipped = false;
        for (const step of steps) {
          first ??= step.startUs;
          if (step.answers > 0) continue;
          if (skipped) cycles.push({ startUs: first, endUs: step.endUs });
          skipped = true;
          first = undefined;
        }
        const durations = cycles.map((c) => c.endUs - c.startUs);
        const readSteps = steps.filter((s) => s.answers > 0).map((s) => s.endUs - s.startUs);
        const emptySteps = steps.filter((s) => s.answers === 0).map((s) => s.endUs - s.startUs);
        const period = ((cycles.at(-1)?.startUs ?? 0) - (cycles[0]?.startUs ?? 0)) / Math.max(1, cycles.length - 1);
        const ms = (us: number): string => (us / 1000).toFixed(1);
        figures.push(`${bytes}-byte UIDs, ${count} tags: cycle ${ms(Math.min(...durations))}-${ms(Math.max(...durations))} ms, `
          + `every ${ms(period)} ms; a read step blocks the loop ${readSteps.length > 0 ? `${ms(Math.min(...readSteps))}-${ms(Math.max(...readSteps))}` : '-'} ms, `
          + `the empty step ${ms(Math.max(...emptySteps))} ms`);
        // The documented bounds (hardware/protocol.md, Timing).
        expect(cycles.length).toBeGreaterThanOrEqual(2);
        expect(Math.max(...readSteps, ...emptySteps)).toBeLessThan(13_000);
        expect(Math.max(...emptySteps)).toBeLessThan(1_500);
        expect(Math.max(...durations)).toBeLessThan(1_500 + count * 10_000);
        expect(period).toBeLessThan(Math.max(51_500, Math.max(...durations) + 13_000));
      }
    }
    if (process.env['ZT_EMULATOR_REPORT']) console.info(`RFID inventory:\n  ${figures.join('\n  ')}`);
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

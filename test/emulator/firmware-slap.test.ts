// Firmware in the loop: the piezo slap sensor on D3 (INT1) — an impact on the pad, seen through the
// comparator model (piezo-model.ts), is one SLAP stamped with its first edge to a few µs, whatever the RFID
// reader is doing; the card that landed follows as TAG+, whose interval holds the slap; no sensor, no SLAP.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PILE_HEX, SEAT_HEX, StationEmulator, ensurePileFirmware, ensureSeatFirmware } from './station-emulator.ts';
import { CYCLES_PER_US } from './avr-runner.ts';
import type { EventTime, SensorEvent, TagArrival } from '../../controller/hardware/interface.ts';
import type { EventMessage } from '../../controller/protocol/index.ts';
import { eventInterval } from '../../controller/hardware/serial/event-interval.ts';
import { SlapMatcher } from '../../controller/hardware/serial/slap-matching.ts';
import { ntagUids } from './ntag-uids.ts';

beforeAll(async () => {
  await ensureSeatFirmware();
  await ensurePileFirmware();
}, 240_000);

/** As the button's (firmware-button-lamp.test.ts): micros()'s 4 µs steps plus the ISR's latency. */
const STAMP_TOLERANCE_US = 14;
/** The comparator's response time the model uses (LM393). */
const RESPONSE_US = 1;
/** firmware/src/slap.h. */
const QUIET_US = 20_000;

describe('slap sensor', () => {
  it('each impact is one SLAP, stamped with its first edge to a few µs, while 13 cards are being checked', async () => {
    const station = new StationEmulator({ settings: { stationId: 'seat-3' }, hx711: { sps: 80 } });
    await station.waitForBanner();
    for (const uid of ntagUids(13, 77)) station.placeTag(uid);
    await station.runUntil(() => station.events('TAG+').length >= 13, { timeoutUs: 1_000_000 });
    const errors: number[] = [];
    let atUs = station.nowUs + 1_000;
    for (let i = 0; i < 20; i++) {
      atUs += 31_234.567 + i * 777.7; // every phase of the RFID steps
      station.slap(atUs, { ringUs: 3_000 + (i % 5) * 2_000, ringHz: 2_000 + (i % 3) * 2_000 });
      await station.runUntil(() => station.nowUs > atUs + QUIET_US);
      const slaps = station.events('SLAP');
      expect(slaps).toHaveLength(i + 1);
      const stamp = slaps.at(-1)?.event.t ?? Number.NaN;
      errors.push(stamp - (station.deviceMicrosAt(atUs + RESPONSE_US) ?? Number.NaN));
    }
    if (process.env['ZT_EMULATOR_REPORT']) {
      console.info(`SLAP stamp − comparator edge: ${Math.min(...errors)}..${Math.max(...errors)} µs over ${errors.length} impacts, 13 cards resting`);
    }
    expect(Math.min(...errors)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...errors)).toBeLessThanOrEqual(STAMP_TOLERANCE_US);
    expect(station.piezo.edges.length).toBeGreaterThan(20 * 5); // each impact rang with many edges
  });

  it(`impacts closer than the ring-down plus ${QUIET_US / 1000} ms quiet are one SLAP; farther apart, two`, async () => {
    const station = new StationEmulator({ settings: { stationId: 'seat-3' } });
    await station.waitForBanner();
    const t0 = station.nowUs + 5_000;
    station.slap(t0, { ringUs: 4_000 });
    station.slap(t0 + 10_000, { ringUs: 4_000 }); // 6 ms after the first rang out: the same SLAP
    station.slap(t0 + 60_000, { ringUs: 4_000 }); // 46 ms of quiet before it: a new one
    await station.runFor(100_000);
    const slaps = station.events('SLAP').map(({ event }) => event.t - (station.deviceMicrosAt(t0) ?? 0));
    expect(slaps).toHaveLength(2);
    expect(slaps[0]).toBeLessThanOrEqual(STAMP_TOLERANCE_US);
    expect(Math.abs((slaps[1] ?? 0) - 60_000)).toBeLessThanOrEqual(STAMP_TOLERANCE_US);
  });

  it('without a sensor the pin floats and hums, and the pull-up keeps it quiet: no SLAP', async () => {
    const station = new StationEmulator({ settings: { stationId: 'seat-3' }, piezo: { fitted: false, seed: 11 } });
    await station.waitForBanner();
    await station.runFor(1_000_000);
    expect(station.events('SLAP')).toEqual([]);
    // The noise was there: before the firmware set the pull-up (the boot), the floating pin toggled.
    expect(station.piezo.edges.length).toBeGreaterThan(0);
  });

  it('a card landing: SLAP at the impact, then its TAG+, whose interval [t − window − 5 ms, t] holds the slap', async () => {
    const station = new StationEmulator({ settings: { stationId: 'seat-3' } });
    await station.waitForBanner();
    for (const uid of ntagUids(4, 5)) station.placeTag(uid);
    await station.runUntil(() => station.events('TAG+').length >= 4, { timeoutUs: 1_000_000 });
    const from = station.lines.length;
    const landUs = station.nowUs + 2_345.6;
    station.slap(landUs);
    station.runner.at(landUs, () => {
      station.placeTag('04C0FFEE123456', { powerUpUs: 2_500 });
    });
    const tag = await station.waitForEvent('TAG+', { from });
    const slap = station.events('SLAP', from).at(0)?.event;
    expect(slap).toBeDefined();
    const slapT = slap?.t ?? Number.NaN;
    expect(slapT - (station.deviceMicrosAt(landUs) ?? Number.NaN)).toBeLessThanOrEqual(STAMP_TOLERANCE_US);
    if (tag.event.event !== 'TAG+') throw new Error('not a TAG+');
    expect(slapT).toBeLessThanOrEqual(tag.event.t);
    expect(slapT).toBeGreaterThanOrEqual(tag.event.t - (tag.event.windowUs ?? 0) - 5_000);
    expect(station.lines.indexOf(tag.line)).toBeGreaterThan(station.lines.findIndex((l) => l.text.includes(' SLAP')));
  });

  it('no interrupts-off section of the loop is longer than 8 µs, with the button bouncing and cards being checked', async () => {
    // A slap (or button) edge that comes while the loop has interrupts off waits for the section to end before
    // its ISR takes micros(): its stamp is late by up to the longest section. 0.3.0 ran the whole button
    // debounce poll, micros() included, in one section: 17.25 µs measured here (issue 17: "up to 17 µs").
    const station = new StationEmulator({ settings: { stationId: 'seat-3' }, hx711: { sps: 80 } });
    await station.waitForBanner();
    for (const uid of ntagUids(4, 5)) station.placeTag(uid);
    await station.runUntil(() => station.events('TAG+').length >= 4, { timeoutUs: 1_000_000 });
    const sections = station.runner.trackInterruptsOff();
    let atUs = station.nowUs + 1_000;
    for (let i = 0; i < 20; i++) {
      station.pressButton(atUs, [100, 300]); // bounces: the debouncer is busy for 5 ms after each
      station.releaseButton(atUs + 40_000, [200, 500]);
      station.slap(atUs + 10_000 + i * 97.3);
      atUs += 80_000;
    }
    await station.runFor(atUs - station.nowUs + 30_000);
    expect(station.events('BTN+')).toHaveLength(20);
    expect(station.events('SLAP')).toHaveLength(20);
    const elf = join(dirname(SEAT_HEX), 'zaptable.elf');
    const rows = [...sections.entries()].map(([address, s]) => ({
      where: execFileSync('avr-addr2line', ['-f', '-C', '-e', elf, `0x${address.toString(16)}`], { encoding: 'utf8' }).split('\n')[0] ?? '?',
      address, count: s.count, maxUs: s.maxCycles / CYCLES_PER_US,
    })).sort((a, b) => b.maxUs - a.maxUs);
    if (process.env['ZT_EMULATOR_REPORT']) {
      for (const r of rows.slice(0, 6)) console.info(`cli at 0x${r.address.toString(16)} (${r.where}): ${r.count}×, longest ${r.maxUs.toFixed(2)} µs`);
    }
    expect(rows.length).toBeGreaterThan(3); // micros(), the HX711 clock, the loop's own
    expect(rows[0]?.maxUs).toBeLessThanOrEqual(8);
  });

  it('a slap 0.05-3 ms BEFORE the card enters the field: the controller\'s matcher still dates the card by it', async () => {
    // hardware/protocol.md, Slap sensor: the landing is the impact; a card slapped down flat (the hand first)
    // enters the field after it. The TAG+ interval holds the field entry, so the slap may lie before it; the
    // matcher stretches the window back by its lead. Real firmware stamps, the controller's own interval and
    // matcher code.
    const station = new StationEmulator({ settings: { stationId: 'seat-3' } });
    await station.waitForBanner();
    for (const uid of ntagUids(4, 5)) station.placeTag(uid);
    await station.runUntil(() => station.events('TAG+').length >= 4, { timeoutUs: 1_000_000 });
    const cards = ntagUids(24, 99).slice(4);
    const time = (m: EventMessage): EventTime => {
      const { beforeUs, afterUs } = eventInterval(m);
      return { source: 'device', epoch: 0, deviceUs: m.t, hostUs: m.t, uncertaintyUs: 0, beforeUs, afterUs };
    };
    let outsideInterval = 0;
    let unmatched = 0;
    for (const [i, uid] of cards.entries()) {
      const from = station.lines.length;
      const slapUs = station.nowUs + 3_000 + i * 713.7;
      const leadUs = 50 + (i % 10) * 327; // the field entry comes 0.05-2.99 ms after the impact
      station.slap(slapUs, { ringUs: 3_000 });
      station.runner.at(slapUs + leadUs, () => {
        station.placeTag(uid, { powerUpUs: 1_000 + (i % 5) * 1_000 });
      });
      await station.waitForLine((l) => l.text.includes(`TAG+ ${uid} `), { from, timeoutUs: 500_000 });
      await station.runFor(30_000);
      const slapLine = station.events('SLAP', from).at(0)?.event;
      const tagLine = station.events('TAG+', from).find(({ event }) => event.event === 'TAG+' && event.uid === uid)?.event;
      if (slapLine === undefined || tagLine === undefined) throw new Error('no SLAP or TAG+');
      const tagTime = time(tagLine);
      if (slapLine.t < tagTime.deviceUs - tagTime.beforeUs) outsideInterval++;
      const matcher = new SlapMatcher();
      const slap: Extract<SensorEvent, { kind: 'slap' }> = { station: 'seat-3', kind: 'slap', seq: slapLine.seq, time: time(slapLine) };
      const tag: TagArrival = { station: 'seat-3', kind: 'tag-arrived', uid, seq: tagLine.seq, time: tagTime };
      matcher.slap(slap);
      matcher.tag(tag);
      const released = matcher.flush().find((o) => o.kind === 'tag');
      if (released?.kind !== 'tag' || released.event.slap?.seq !== slapLine.seq) unmatched++;
      station.removeTag(uid);
      await station.waitForLine((l) => l.text.includes(`TAG- ${uid} `), { timeoutUs: 1_000_000 });
    }
    if (process.env['ZT_EMULATOR_REPORT']) {
      console.info(`slap before field entry: ${outsideInterval} of ${cards.length} slaps before the TAG+ interval itself, ${unmatched} not matched`);
    }
    expect(outsideInterval).toBeGreaterThan(0); // the case occurred (3 of 20): the TAG+ interval alone misses it
    expect(unmatched).toBe(0); // before the lead (leadUs 0): those 3 fell back to the tag's window
  });

  it('the pile station has the sensor too', async () => {
    const station = new StationEmulator({ hexPath: PILE_HEX, settings: { stationId: 'pile' } });
    await station.waitForBanner();
    const atUs = station.nowUs + 12_345.25;
    station.slap(atUs);
    await station.runFor(40_000);
    const slaps = station.events('SLAP');
    expect(slaps).toHaveLength(1);
    const error = (slaps[0]?.event.t ?? Number.NaN) - (station.deviceMicrosAt(atUs + RESPONSE_US) ?? Number.NaN);
    expect(error).toBeGreaterThanOrEqual(0);
    expect(error).toBeLessThanOrEqual(STAMP_TOLERANCE_US);
  });
});

// Firmware in the loop: the stack budget, measured. The emulator paints all of SRAM before every boot
// (avr-runner.ts, SRAM_PAINT) and records the lowest stack pointer after every instruction; the firmware is
// then driven through everything that goes deep — boot with its settings save, `id set`, tare and
// calibrate (settings saves), a whole hand of cards arriving at once and leaving, weight reports, the
// button, a burst of commands and bad lines — and the cells between the end of static RAM (`__bss_end`) and
// the deepest stack byte must number at least 512 (firmware/README.md, Budget).
import { beforeAll, describe, expect, it } from 'vitest';
import { RAMEND } from './avr-runner.ts';
import {
  PILE_HEX, SEAT_HEX, StationEmulator, ensurePileFirmware, ensureSeatFirmware, firmwareSymbol,
} from './station-emulator.ts';
import { ntagUids } from './ntag-uids.ts';

/** At least this much SRAM must never be touched, at the deepest point of the run. */
const MIN_FREE_BYTES = 512;

beforeAll(async () => {
  await ensureSeatFirmware();
  await ensurePileFirmware();
}, 240_000);

function report(name: string, station: StationEmulator, hexPath: string): { free: number; freeBySp: number } {
  const bssEnd = firmwareSymbol(hexPath, '__bss_end');
  const { deepest, usedBytes, freeBytes } = station.runner.stackReport(bssEnd);
  const lowestSp = station.runner.lowestStackPointer ?? RAMEND;
  // SP points at the next free cell: the deepest byte written by a push is SP + 1.
  const freeBySp = lowestSp + 1 - bssEnd;
  if (process.env['ZT_EMULATOR_REPORT']) {
    console.info(`${name}: static RAM ends at 0x${bssEnd.toString(16)} (${bssEnd - 0x100} B), deepest stack byte 0x${deepest.toString(16)}: `
      + `stack ${usedBytes} B, ${freeBytes} B never touched (lowest SP 0x${lowestSp.toString(16)}: ${freeBySp} B)`);
  }
  return { free: freeBytes, freeBySp };
}

describe('stack high-water mark', () => {
  it(`seat: boot, settings saves, 13 cards, weights, button, commands leave >= ${MIN_FREE_BYTES} B untouched`, async () => {
    const station = new StationEmulator({
      settings: { stationId: 'seat-1', tare: 84_000, perKg: 230_000, boot: 9 },
      hx711: { sps: 80, noiseCounts: 30, seed: 5 },
    });
    station.runner.trackStackPointer();
    await station.waitForBanner();
    expect((await station.command({ id: 1, verb: 'id-set', station: 'seat-stack' })).text).toMatch(/^ok 1 /);
    const hand = ntagUids(13, 4711);
    for (const uid of hand) station.placeTag(uid);
    await station.runUntil(() => station.events('TAG+').length >= 13, { timeoutUs: 2_000_000 });
    expect((await station.command({ id: 2, verb: 'tare' })).text).toMatch(/^ok 2 /);
    station.setWeight(500);
    expect((await station.command({ id: 3, verb: 'calibrate', grams: 500 })).text).toMatch(/^ok 3 /);
    station.setWeight(123.4);
    station.pressButton(station.nowUs + 1_000, [200, 500]);
    station.releaseButton(station.nowUs + 40_000, [300]);
    let id = 4;
    for (const verb of ['info', 'ping', 'scale', 'raw', 'stream-on', 'ping', 'stream-off', 'lamp-on', 'lamp-off'] as const) {
      await station.command({ id: id++, verb });
    }
    await station.command({ id, verb: 'lamp-blink', onMs: 20, offMs: 20, count: 3 });
    station.sendLine('7 ping'); // no checksum
    station.sendLine('x'.repeat(200)); // too long
    for (const uid of hand.slice(0, 5)) station.removeTag(uid);
    station.placeTag('0102030405060708090A');
    await station.runFor(600_000);
    expect(station.events('TAG-').length).toBeGreaterThanOrEqual(5);
    const { free, freeBySp } = report('seat-328p', station, SEAT_HEX);
    expect(free).toBeGreaterThanOrEqual(MIN_FREE_BYTES);
    expect(freeBySp).toBeGreaterThanOrEqual(MIN_FREE_BYTES);
  }, 180_000);

  it(`pile: boot, id set, 32 cards and one too many, commands leave >= ${MIN_FREE_BYTES} B untouched`, async () => {
    const station = new StationEmulator({ hexPath: PILE_HEX, settings: { stationId: 'pile', boot: 2 } });
    station.runner.trackStackPointer();
    await station.waitForBanner();
    expect((await station.command({ id: 1, verb: 'id-set', station: 'pile-stack' })).text).toMatch(/^ok 1 /);
    const cards = ntagUids(33, 99);
    for (const uid of cards) station.placeTag(uid);
    await station.waitForEvent('FAULT+', { timeoutUs: 3_000_000 });
    let id = 2;
    for (const verb of ['info', 'ping', 'tare', 'scale'] as const) await station.command({ id: id++, verb });
    for (const uid of cards.slice(0, 4)) station.removeTag(uid);
    await station.runFor(600_000);
    const { free, freeBySp } = report('pile-328p', station, PILE_HEX);
    expect(free).toBeGreaterThanOrEqual(MIN_FREE_BYTES);
    expect(freeBySp).toBeGreaterThanOrEqual(MIN_FREE_BYTES);
  }, 180_000);
});

// Firmware in the loop on a real radio and real parts (issue 17): answers lost on the air, tags that stay
// READY after a SELECT for another UID (ChameleonMini), tags that cannot be read, a reader that reads 0x00 on
// SPI for a while after a reset. Each test failed on firmware 0.3.0 (run it on another image with
// ZT_SEAT_HEX=<path>, docs/firmware-in-the-loop.md) and passes on 0.4.0. The 10-minute run of the first one
// is a benchmark: `npx tsx test/emulator/measure-rfid-radio.ts`; this file runs 30 simulated s of it.
import { beforeAll, describe, expect, it } from 'vitest';
import { StationEmulator, ensureSeatFirmware } from './station-emulator.ts';
import { POWER_UP_ALLOWANCE_US, describeRadioResult, randomUids, runRadioScenario, tagEvent } from './rfid-radio-run.ts';
import { randomSource } from '../../controller/kernel/random.ts';
import { ntagUids } from './ntag-uids.ts';

beforeAll(async () => {
  await ensureSeatFirmware();
}, 180_000);

const REPORT = process.env['ZT_EMULATOR_REPORT'] !== undefined;

/** The TAG+/TAG- events of these UIDs from line `from` on, as text. */
function tagLines(station: StationEmulator, uids: readonly string[], from: number): string[] {
  return station.events(undefined, from)
    .filter(({ event }) => (event.event === 'TAG+' || event.event === 'TAG-') && uids.includes(event.uid))
    .map(({ line }) => line.text);
}

describe('answers lost on the air', () => {
  // 30 simulated s (~40 s of wall time on a quiet 2-core machine, minutes on a busy one); the benchmark runs 10 minutes.
  it('1 % lost, 13 cards resting for 30 s while one more is laid and lifted: none dropped, every interval holds', async () => {
    const scenario = { resting: 13, uidBytes: 7 as const, loss: 0.01, durationUs: 30_000_000, seed: 17 };
    const result = await runRadioScenario(scenario);
    if (REPORT) console.info(describeRadioResult(scenario, result).join('\n'));
    expect(result.lostAnswers).toBeGreaterThan(300); // the radio was noisy
    expect(result.restingEvents).toEqual([]); // 0.3.0: resting cards left (TAG-) and stayed halted, gone for good
    expect(result.droppedForGood).toEqual([]);
    expect(result.missing).toBe(0);
    expect(result.landings.length).toBeGreaterThan(40);
    expect(result.landings.filter((l) => !l.holds)).toEqual([]);
    expect(result.lifts.filter((l) => !l.holds)).toEqual([]); // 0.3.0: stamped before a lost answer's tag was lifted
  }, 600_000);

  it('a 3 s burst of 10 % lost with 4 cards resting: none is dropped, and they are still tracked afterwards', async () => {
    const station = new StationEmulator({ settings: { stationId: 'seat-4' }, mfrc522: { lossSeed: 4 } });
    await station.waitForBanner();
    const hand = ntagUids(4, 404);
    for (const uid of hand) station.placeTag(uid);
    await station.runUntil(() => station.events('TAG+').length >= 4, { timeoutUs: 1_000_000 });
    await station.runFor(50_000);
    const from = station.lines.length;
    station.rfid.setAnswerLoss(0.1);
    await station.runFor(3_000_000);
    station.rfid.setAnswerLoss(0);
    await station.runFor(500_000);
    if (REPORT) console.info(`10 % burst, 4 resting: ${station.rfid.lostAnswers} answers lost, events: ${tagLines(station, hand, from).join(' | ') || 'none'}`);
    expect(station.rfid.lostAnswers).toBeGreaterThan(100);
    expect(tagLines(station, hand, from)).toEqual([]); // 0.3.0: all 4 left, none came back
    // Still tracked: one lifted now gets its TAG-, the others stay.
    const lifted = hand[2] ?? '';
    station.removeTag(lifted);
    const { event } = await station.waitForEvent('TAG-', { timeoutUs: 1_000_000 });
    expect(event.event === 'TAG-' && event.uid).toBe(lifted);
  }, 300_000);
});

describe('tags that stay READY after a SELECT for another UID (ChameleonMini)', () => {
  for (const resting of [4, 13]) {
    it(`4-byte UIDs, ${resting} resting: every new card gets its TAG+ within 200 ms, and its interval holds the landing`, async () => {
      const random = randomSource(2000 + resting);
      const station = new StationEmulator({ settings: { stationId: 'seat-5' }, mfrc522: { staysReady: true } });
      await station.waitForBanner();
      const all = randomUids(resting + 20, 4, random);
      const rest = all.slice(0, resting);
      for (const uid of rest) station.placeTag(uid);
      await station.runUntil(() => station.events('TAG+').length >= resting, { timeoutUs: 2_000_000 });
      await station.runFor(50_000);
      const outside: string[] = [];
      let late = 0;
      for (const uid of all.slice(resting)) {
        await station.runFor(2_000 + random() * 15_000);
        const from = station.lines.length;
        const placedUs = station.nowUs;
        station.placeTag(uid, { powerUpUs: 1_000 + random() * 4_000 });
        const line = await station.waitForLine((l) => l.text.includes(`TAG+ ${uid} `), { from, timeoutUs: 200_000 }).catch(() => undefined);
        const plus = tagEvent(line, 'TAG+');
        if (plus === undefined) {
          late++; // 0.3.0: each check's WUPA woke it, the foreign SELECT left it READY, the REQA sent it back to IDLE
          station.removeTag(uid);
          await station.runFor(300_000);
          continue;
        }
        const { t, windowUs = Number.NaN } = plus;
        const placed = station.deviceMicrosAt(placedUs) ?? Number.NaN;
        if (placed > t || placed < t - windowUs - POWER_UP_ALLOWANCE_US) outside.push(`${uid}: ${t - windowUs - POWER_UP_ALLOWANCE_US - placed} µs`);
        station.removeTag(uid);
        await station.waitForLine((l) => l.text.includes(`TAG- ${uid} `), { timeoutUs: 1_000_000 });
      }
      if (REPORT) console.info(`stay-READY tags, ${resting} resting: ${late} of 20 without TAG+ in 200 ms, ${outside.length} intervals missed the landing`);
      expect(late).toBe(0);
      expect(outside).toEqual([]); // 0.3.0: a REQA that a woken, READY card did not answer counted as empty
      expect(tagLines(station, rest, 0).filter((text) => text.includes('TAG-'))).toEqual([]);
    }, 300_000);
  }
});

describe('TAG- when the card leaves during its presence check', () => {
  for (const bytes of [7, 10] as const) {
    it(`${bytes}-byte UID lifted 0.1-2.5 ms after its check began: the interval holds the moment`, async () => {
      const station = new StationEmulator({ settings: { stationId: 'seat-6' } });
      await station.waitForBanner();
      const uids = randomUids(8, bytes, randomSource(600 + bytes));
      const outside: string[] = [];
      for (const [i, uid] of uids.entries()) {
        const from = station.lines.length;
        station.placeTag(uid);
        await station.waitForLine((l) => l.text.includes(`TAG+ ${uid} `), { from, timeoutUs: 500_000 });
        await station.runFor(30_000);
        // The only card on the reader: the next WUPA is its presence check. Lift it a moment into it.
        const delayUs = 100 + i * 340;
        let liftedUs = Number.NaN;
        const armed = (request: { readonly atUs: number; readonly wupa: boolean }): void => {
          if (!request.wupa || !Number.isNaN(liftedUs)) return;
          liftedUs = request.atUs + delayUs;
          station.runner.at(liftedUs, () => {
            station.removeTag(uid);
          });
        };
        station.rfid.onRequest.add(armed);
        const line = await station.waitForLine((l) => l.text.includes(`TAG- ${uid} `), { timeoutUs: 1_000_000 });
        station.rfid.onRequest.delete(armed);
        const minus = tagEvent(line, 'TAG-');
        if (minus === undefined) throw new Error('not a TAG-');
        const { t, windowUs = Number.NaN } = minus;
        const lifted = station.deviceMicrosAt(liftedUs) ?? Number.NaN;
        if (lifted > t || lifted < t - windowUs) outside.push(`+${delayUs} µs: lifted ${lifted}, stamped ${t} (window ${windowUs})`);
      }
      if (REPORT) console.info(`${bytes}-byte, lifted during a check: ${outside.length} of ${uids.length} intervals missed the lift ${outside.join('; ')}`);
      expect(outside).toEqual([]); // 0.3.0: stamped with the START of the missed check, before the lift
    }, 300_000);
  }
});

describe('a tag that cannot be read', () => {
  it('raises FAULT+ rfid after 12 failed reads in a row, FAULT- once it is gone; other cards are read meanwhile', async () => {
    const station = new StationEmulator({ settings: { stationId: 'seat-7' } });
    await station.waitForBanner();
    await station.runFor(50_000);
    const from = station.lines.length;
    const placedUs = station.nowUs;
    station.rfid.placeTag('04BADBADBADBAD', { unreadable: true, powerUpUs: 1_000 });
    const fault = await station.waitForLine((l) => l.text.includes('FAULT+ rfid'), { from, timeoutUs: 1_000_000 })
      .catch(() => undefined); // 0.3.0: the empty poll after each failed read reset the count: never
    expect(fault?.text).toContain('FAULT+ rfid');
    const faultUs = fault?.startUs ?? Number.NaN;
    if (REPORT) console.info(`unreadable tag: FAULT+ rfid ${((faultUs - placedUs) / 1000).toFixed(1)} ms after it was laid down`);
    expect(faultUs - placedUs).toBeLessThan(200_000);
    // A good card laid next to it is still read (the anticollision picks one tag at a time).
    station.placeTag('04C0FFEE123456');
    await station.waitForLine((l) => l.text.includes('TAG+ 04C0FFEE123456 '), { timeoutUs: 1_000_000 });
    station.rfid.removeTag('04BADBADBADBAD');
    await station.waitForLine((l) => l.text.includes('FAULT- rfid'), { timeoutUs: 500_000 });
    expect(station.events('FAULT+', from)).toHaveLength(1); // raised once, not toggled
  }, 120_000);
});

describe('a reader that reads 0x00 on SPI for a while after a reset', () => {
  it('comes up at boot without a FAULT+ rfid and reads a card (5 ms of 0x00 after each reset)', async () => {
    const station = new StationEmulator({ settings: { stationId: 'seat-8' }, mfrc522: { spiZeroAfterResetUs: 5_000 } });
    station.placeTag('04A1B2C3D4E5F6');
    await station.waitForBanner();
    // 0.3.0 took the 0x00 for an absent chip (FAULT+), and reset it again each time it answered: never up.
    const tag = await station.waitForLine((l) => l.text.includes('TAG+ 04A1B2C3D4E5F6 '), { timeoutUs: 1_000_000 }).catch(() => undefined);
    expect(tag?.text).toContain('TAG+');
    expect(station.events('FAULT+')).toEqual([]);
  }, 60_000);

  it('comes back after a re-plug (FAULT+ while it is gone, FAULT- and the card again after)', async () => {
    const station = new StationEmulator({ settings: { stationId: 'seat-8' }, mfrc522: { spiZeroAfterResetUs: 5_000 } });
    await station.waitForBanner();
    station.placeTag('04A1B2C3D4E5F6');
    await station.waitForEvent('TAG+', { from: 0 });
    station.rfid.setConnected(false);
    await station.waitForLine((l) => l.text.includes('FAULT+ rfid'), { timeoutUs: 500_000 });
    const from = station.lines.length;
    station.rfid.setConnected(true);
    await station.waitForLine((l) => l.text.includes('FAULT- rfid'), { from, timeoutUs: 1_000_000 });
    expect(station.events('FAULT+', from)).toEqual([]);
  }, 60_000);
});

// Firmware in the loop: the MFRC522's timer runs on its own (datasheet §8.5: commands do not stop it). A
// driver that leaves the timer of an HLTA running (nothing answers an HLTA, so nothing stops it) gets that
// timer's TimerIRq in the middle of its next frame, takes it for "no tag answered", and — twice in a row for
// the same tag — reports a TAG- (and a TAG+ after it) for a card that never moved.
import { beforeAll, describe, expect, it } from 'vitest';
import { StationEmulator, ensureSeatFirmware } from './station-emulator.ts';
import { ntagUids } from './ntag-uids.ts';

beforeAll(async () => {
  await ensureSeatFirmware();
}, 180_000);

describe('MFRC522 timer left running', () => {
  for (const count of [4, 13]) {
    it(`${count} cards lying still while the host pings every 20-29 ms: no TAG-, no second TAG+, no stale TimerIRq`, async () => {
      // The driver pings in bursts for clock sync. A ping is parsed and answered in the loop pass between two
      // RFID steps (~0.6 ms), which puts the next step's first frame right where the timer the last HLTA
      // started (1 ms, nothing stops it) runs out.
      const station = new StationEmulator({ settings: { stationId: 'seat-7' } });
      await station.waitForBanner();
      const hand = ntagUids(count, 900 + count);
      for (const uid of hand) station.placeTag(uid);
      await station.runUntil(() => station.events('TAG+').length >= count, { timeoutUs: 1_000_000 });
      await station.runFor(100_000);
      expect(station.events('TAG+')).toHaveLength(count);
      const from = station.lines.length;
      const staleBefore = station.rfid.staleTimerIrqs;
      for (let id = 1; id <= 60; id++) {
        const reply = await station.command({ id, verb: 'ping' });
        expect(reply.text).toMatch(/^ok /);
        await station.runFor(20_000 + ((id * 1_777) % 9_000));
      }
      await station.runFor(300_000); // a TAG- would be due within two cycles
      const tagEvents = station.events(undefined, from).filter(({ event }) => event.event === 'TAG+' || event.event === 'TAG-');
      const stale = station.rfid.staleTimerIrqs - staleBefore;
      if (process.env['ZT_EMULATOR_REPORT']) console.info(`${count} still cards, 60 pings: ${tagEvents.length} tag events, ${stale} stale TimerIRqs`);
      expect(tagEvents.map(({ line }) => line.text)).toEqual([]);
      expect(stale).toBe(0);
    }, 120_000);
  }
});

// Firmware in the loop: how precisely the station dates a card landing on its pad (protocol 2's TAG+
// window), and how long the RFID work blocks the loop, with 0, 4 and 13 cards resting on the pad.
//
// Cards are laid on the pad one at a time at random moments (seeded), each with a random power-up time of
// 1-5 ms (ISO/IEC 14443-3 allows 5), read, taken away again (TAG-) while the resting cards stay. For each:
// the window the firmware reports, and that the interval the host derives from it — [t − window − 5 ms, t] —
// holds the moment the card was placed. `ZT_EMULATOR_REPORT=1` prints the distributions (docs/firmware-in-the-loop.md).
import { beforeAll, describe, expect, it } from 'vitest';
import { StationEmulator, ensureSeatFirmware } from './station-emulator.ts';
import { SeededRandom } from '../../controller/kernel/random.ts';
import { percentile, sortedAscending } from '../../controller/kernel/stats.ts';

beforeAll(async () => {
  await ensureSeatFirmware();
}, 180_000);

/** The host's power-up allowance: ISO/IEC 14443-3's bound on how long a tag may take to answer. */
const POWER_UP_ALLOWANCE_US = 5_000;
const REPORT = process.env['ZT_EMULATOR_REPORT'] !== undefined;

function uids(count: number, bytes: 4 | 7, random: () => number): string[] {
  const out: string[] = [];
  while (out.length < count) {
    const b = bytes === 7 ? [0x04] : [];
    while (b.length < bytes) b.push(Math.floor(random() * 256));
    if (bytes === 4 && b[0] === 0x88) continue; // a cascade tag is never a UID's first byte
    const uid = Buffer.from(b).toString('hex').toUpperCase();
    if (!out.includes(uid)) out.push(uid);
  }
  return out;
}

const pct = (values: readonly number[], p: number): number => percentile(sortedAscending(values), p);

const ms = (us: number): string => (us / 1000).toFixed(2);

interface Landing { readonly windowUs: number; readonly latencyUs: number }

interface Measured { readonly landings: Landing[]; readonly steps: number[]; readonly period: number }

async function measure(resting: number, bytes: 4 | 7, cards: number, seed: number): Promise<Measured> {
  const generator = new SeededRandom(seed);
  const random = (): number => generator.next();
  const station = new StationEmulator({ settings: { stationId: 'seat-9' } });
  await station.waitForBanner();
  const all = uids(resting + cards, bytes, random);
  const rest = all.slice(0, resting);
  for (const uid of rest) station.placeTag(uid);
  await station.runUntil(() => station.events('TAG+').length >= resting, { timeoutUs: 2_000_000 });
  await station.runFor(50_000);
  const fromUs = station.nowUs;
  const landings: Landing[] = [];
  for (const uid of all.slice(resting)) {
    await station.runFor(2_000 + random() * 15_000); // a random moment
    const from = station.lines.length;
    const placedUs = station.nowUs;
    station.placeTag(uid, { powerUpUs: 1_000 + random() * 4_000 });
    const { event } = await station.waitForEvent('TAG+', { from, timeoutUs: 500_000 });
    if (event.event !== 'TAG+') throw new Error('not a TAG+');
    expect(event.uid).toBe(uid);
    const windowUs = event.windowUs ?? Number.NaN;
    const placed = station.deviceMicrosAt(placedUs) ?? Number.NaN;
    // Honest: the host's interval holds the true moment.
    expect(placed).toBeLessThanOrEqual(event.t);
    expect(placed).toBeGreaterThanOrEqual(event.t - windowUs - POWER_UP_ALLOWANCE_US);
    landings.push({ windowUs, latencyUs: event.t - placed });
    station.removeTag(uid);
    await station.waitForEvent('TAG-', { from, timeoutUs: 500_000 });
  }
  const restingEvents = station.events().filter(({ line, event }) => line.startUs > fromUs
    && (event.event === 'TAG+' || event.event === 'TAG-') && rest.includes(event.uid));
  expect(restingEvents.map(({ line }) => line.text)).toEqual([]); // the resting cards never "moved"
  const steps = station.rfid.steps(fromUs).map((s) => s.endUs - s.startUs);
  const polls = station.rfid.polls(fromUs);
  const period = ((polls.at(-1)?.atUs ?? 0) - (polls[0]?.atUs ?? 0)) / Math.max(1, polls.length - 1);
  return { landings, steps, period };
}

describe('card landing: the TAG+ window', () => {
  const kinds: (4 | 7)[] = REPORT ? [7, 4] : [7];
  const cards = REPORT ? 100 : 12;
  for (const bytes of kinds) {
    for (const resting of [0, 4, 13]) {
      // 0.4.0's polls probe for a lost ATQA (+0.4 ms) and its 4-byte checks end with an HLTA (+0.46 ms).
      it(`${bytes}-byte UIDs, ${resting} cards resting: every window honest, at most ${resting === 0 ? 2 : 4.5} ms`, async () => {
        const { landings, steps, period } = await measure(resting, bytes, cards, 1000 + resting * 7 + bytes);
        const windows = landings.map((l) => l.windowUs);
        const latencies = landings.map((l) => l.latencyUs);
        if (REPORT) {
          console.info(`${bytes}-byte UIDs, ${resting} resting, ${landings.length} cards: window max ${ms(Math.max(...windows))} ms, `
            + `p99 ${ms(pct(windows, 99))}, median ${ms(pct(windows, 50))}; with the 5 ms power-up allowance max `
            + `${ms(Math.max(...windows) + POWER_UP_ALLOWANCE_US)} ms; placed → TAG+ stamp ${ms(Math.min(...latencies))}-${ms(Math.max(...latencies))} ms; `
            + `a poll every ${ms(period)} ms; a step blocks the loop ${ms(pct(steps, 50))} ms (median), ${ms(Math.max(...steps))} ms (max)`);
        }
        expect(Math.max(...windows)).toBeLessThan(resting === 0 ? 2_000 : 4_500);
        expect(Math.max(...steps)).toBeLessThan(13_000);
      }, 240_000);
    }
  }
});

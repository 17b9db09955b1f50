/**
 * A reader on a real radio, firmware in the loop (issue 17): cards resting on the pad while answers get lost
 * on the air, and one more card laid on and lifted off again and again at random moments. Shared by the
 * vitest test (`firmware-rfid-radio.test.ts`, 30 simulated s) and the benchmark (`measure-rfid-radio.ts`,
 * 10 simulated minutes by default), which print the same figures.
 *
 * What counts:
 * - a resting card that never moved must give no event at all; one whose last event is a `TAG-` has been
 *   *dropped for good* (a halted tag that nothing wakes again), one with a `TAG-` and a later `TAG+` left
 *   falsely and came back;
 * - every `TAG+` of the moving card: its interval `[t − window − 5 ms, t]` (the host's power-up allowance)
 *   holds the device time it was laid down; every `TAG-`: `[t − window, t]` holds the moment it was lifted;
 * - a card laid down that gets no `TAG+` within 1 s, or lifted and gets no `TAG-` within 2 s, is a failure
 *   too (counted, never left out).
 */
import type { TagEvent } from '../../controller/protocol/index.ts';
import { StationEmulator, type TappedLine } from './station-emulator.ts';
import { randomSource } from '../../controller/kernel/random.ts';

/** The host's power-up allowance: ISO/IEC 14443-3's bound on how long a tag may take to answer. */
export const POWER_UP_ALLOWANCE_US = 5_000;

export interface RadioScenario {
  /** Cards lying still on the pad all along. */
  readonly resting: number;
  readonly uidBytes: 4 | 7 | 10;
  /** Probability that a tag's answer is lost on the air. */
  readonly loss: number;
  /** Simulated time of the run after the resting cards were read (µs). */
  readonly durationUs: number;
  readonly seed: number;
  /** Tags stay READY after a SELECT for another UID (ChameleonMini). */
  readonly staysReady?: boolean;
  /** The firmware image (default: the seat build, or `ZT_SEAT_HEX`). */
  readonly hexPath?: string;
}

export interface RadioResult {
  readonly restingEvents: string[];
  readonly droppedForGood: string[];
  readonly landings: { readonly windowUs: number; readonly holds: boolean; readonly latencyUs: number }[];
  readonly lifts: { readonly windowUs: number; readonly holds: boolean; readonly latencyUs: number }[];
  /** Cards laid down without a TAG+ within 1 s, or lifted without a TAG- within 2 s. */
  readonly missing: number;
  /** Field resets during the run (each starts a full inventory). */
  readonly inventories: number;
  readonly lostAnswers: number;
  readonly simulatedUs: number;
  readonly wallMs: number;
}

/** The line's `TAG+`/`TAG-` event (`name`), or undefined (no line, another message, a bad line). */
export function tagEvent(line: TappedLine | undefined, name: 'TAG+' | 'TAG-'): TagEvent | undefined {
  const m = line?.message;
  return m !== undefined && 'type' in m && m.type === 'event' && m.event === name ? m : undefined;
}

export function randomUids(count: number, bytes: 4 | 7 | 10, random: () => number): string[] {
  const out: string[] = [];
  while (out.length < count) {
    const b = bytes === 4 ? [] : [0x04];
    while (b.length < bytes) b.push(Math.floor(random() * 256));
    // The cascade tag 0x88 never starts a UID CLn: byte 0 of a 4-byte UID, byte 3 of a 7-byte one (its CL2).
    if ((bytes === 4 && b[0] === 0x88) || (bytes !== 4 && b[3] === 0x88) || (bytes === 10 && b[6] === 0x88)) continue;
    const uid = Buffer.from(b).toString('hex').toUpperCase();
    if (!out.includes(uid)) out.push(uid);
  }
  return out;
}

export async function runRadioScenario(s: RadioScenario): Promise<RadioResult> {
  const started = performance.now();
  const random = randomSource(s.seed);
  const station = new StationEmulator({
    ...(s.hexPath === undefined ? {} : { hexPath: s.hexPath }),
    settings: { stationId: 'seat-9' },
    // No per-frame logs: 10 simulated minutes of them outgrow Node's heap (the run needs only the events).
    mfrc522: { answerLoss: 0, lossSeed: s.seed, staysReady: s.staysReady ?? false, record: false },
  });
  await station.waitForBanner();
  const moving = randomUids(2000, s.uidBytes, random);
  const rest = moving.splice(0, s.resting);
  for (const uid of rest) station.placeTag(uid);
  if (!(await station.runUntil(() => station.events('TAG+').length >= s.resting, { timeoutUs: 2_000_000 }))) {
    throw new Error(`only ${station.events('TAG+').length} of ${s.resting} resting cards were read`);
  }
  await station.runFor(50_000);
  station.rfid.setAnswerLoss(s.loss); // the radio turns noisy once the hand lies there
  const fromLine = station.lines.length;
  const fromUs = station.nowUs;
  const endUs = fromUs + s.durationUs;
  const landings: RadioResult['landings'][number][] = [];
  const lifts: RadioResult['lifts'][number][] = [];
  let missing = 0;
  let next = 0;
  while (station.nowUs < endUs) {
    const uid = moving[next++ % moving.length] ?? '';
    await station.runFor(2_000 + random() * 30_000); // a random moment
    let from = station.lines.length;
    const placedUs = station.nowUs;
    station.placeTag(uid, { powerUpUs: 1_000 + random() * 4_000 });
    const placed = station.deviceMicrosAt(placedUs) ?? Number.NaN;
    const arrived = await station.waitForLine((l) => l.text.includes(`TAG+ ${uid} `), { from, timeoutUs: 1_000_000 }).catch(() => undefined);
    const plus = tagEvent(arrived, 'TAG+');
    if (plus !== undefined) {
      const { t, windowUs = Number.NaN } = plus;
      landings.push({ windowUs, holds: placed <= t && placed >= t - windowUs - POWER_UP_ALLOWANCE_US, latencyUs: t - placed });
    } else {
      missing++;
    }
    await station.runFor(20_000 + random() * 200_000);
    from = station.lines.length;
    const liftedUs = station.nowUs;
    station.removeTag(uid);
    const lifted = station.deviceMicrosAt(liftedUs) ?? Number.NaN;
    const left = await station.waitForLine((l) => l.text.includes(`TAG- ${uid} `), { from, timeoutUs: 2_000_000 }).catch(() => undefined);
    const minus = tagEvent(left, 'TAG-');
    if (left !== undefined && minus !== undefined) {
      const { t, windowUs = Number.NaN } = minus;
      const latencyUs = (station.deviceMicrosAt(left.endUs) ?? Number.NaN) - lifted;
      lifts.push({ windowUs, holds: lifted <= t && lifted >= t - windowUs, latencyUs });
    } else {
      missing++;
    }
  }
  const restingEvents = station.events(undefined, fromLine)
    .filter(({ event }) => (event.event === 'TAG+' || event.event === 'TAG-') && rest.includes(event.uid))
    .map(({ line }) => line.text);
  const droppedForGood = rest.filter((uid) => restingEvents.filter((text) => text.includes(` ${uid} `)).at(-1)?.includes('TAG-') === true);
  return {
    restingEvents,
    droppedForGood,
    landings,
    lifts,
    missing,
    inventories: station.rfid.fieldEdges.filter((e) => !e.on && e.atUs >= fromUs).length,
    lostAnswers: station.rfid.lostAnswers,
    simulatedUs: station.nowUs - fromUs,
    wallMs: performance.now() - started,
  };
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

const ms = (us: number): string => (us / 1000).toFixed(2);

/** The figures of a run, one line each. */
export function describeRadioResult(s: RadioScenario, r: RadioResult): string[] {
  const w = r.landings.map((l) => l.windowUs);
  const lw = r.lifts.map((l) => l.windowUs);
  const ll = r.lifts.map((l) => l.latencyUs);
  return [
    `${s.resting} resting ${s.uidBytes}-byte cards${s.staysReady ? ' (stay READY)' : ''}, ${(s.loss * 100).toFixed(1)} % of answers lost `
      + `(${r.lostAnswers} lost), ${(r.simulatedUs / 1e6).toFixed(1)} simulated s in ${(r.wallMs / 1000).toFixed(1)} s of wall time`,
    `  resting cards: ${r.restingEvents.length} events (${r.droppedForGood.length} dropped for good); ${r.inventories} full inventories (field resets)`,
    `  moving card: ${r.landings.length} TAG+ (${r.landings.filter((l) => !l.holds).length} intervals missed the landing), window max ${ms(Math.max(...w))} ms, `
      + `p99 ${ms(percentile(w, 99))}, median ${ms(percentile(w, 50))}`,
    `  moving card: ${r.lifts.length} TAG- (${r.lifts.filter((l) => !l.holds).length} intervals missed the lift), window max ${ms(Math.max(...lw))} ms, `
      + `p99 ${ms(percentile(lw, 99))}, median ${ms(percentile(lw, 50))}; lift -> TAG- line max ${ms(Math.max(...ll))} ms, median ${ms(percentile(ll, 50))}`,
    `  cards without their TAG+ (1 s) or TAG- (2 s): ${r.missing}`,
  ];
}

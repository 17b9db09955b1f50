/**
 * The calibration state machine with a fake scale API and fake sensor events: tare and calibrate per
 * station, an `err` reply and a retry, the read-back check, barrels confirmed by the registry, weights
 * learned and a mislabelled barrel flagged.
 */
import { describe, expect, it } from 'vitest';
import { EMPTY_CALIBRATION, parseCalibration, type Calibration } from '../../controller/runtime/calibration/calibration-file.ts';
import { EMPTY_REGISTRY, enrollTag, type TagRegistry } from '../../controller/runtime/registry/tag-registry.ts';
import { learnBarrels } from '../../controller/runtime/setup/barrel-learning.ts';
import { CalibrateSession } from '../../controller/runtime/setup/calibrate-session.ts';
import type { CalibrateSessionOptions, CalibrateUpdate } from '../../controller/runtime/setup/calibrate-types.ts';
import { fakeScale, manualTimers, settled, tagArrived, tagLeft } from './fakes.ts';

const uidOf = (barrel: number): string => `04${barrel.toString(16).padStart(2, '0').toUpperCase()}0000000000`;
const EMPTY = 21.5;
const STONE = 4.2;
const grams = (stones: number): number => Math.round((EMPTY + STONE * stones) * 10) / 10;

function registryWithBarrels(): TagRegistry {
  let registry = EMPTY_REGISTRY;
  for (let b = 1; b <= 13; b++) {
    const r = enrollTag(registry, uidOf(b), { kind: 'barrel', value: b });
    if (!r.ok) throw new Error(r.message);
    registry = r.registry;
  }
  return registry;
}

function rig(options: Partial<CalibrateSessionOptions> = {}) {
  const scale = fakeScale();
  const timers = manualTimers();
  const updates: CalibrateUpdate[] = [];
  const saved: Calibration[] = [];
  const s = new CalibrateSession({
    stations: ['seat-1'], barrelStation: 'seat-1', barrels: [], knownGrams: 500,
    registry: registryWithBarrels(), calibration: EMPTY_CALIBRATION, scale, scheduler: timers,
    now: () => new Date('2025-05-01T12:00:00Z'),
    save: (c) => saved.push(c),
    onUpdate: (u) => updates.push(u),
    ...options,
  });
  const steps = (): string[] => updates.flatMap((u) => (u.kind === 'step' ? [u.step.kind] : []));
  return { s, scale, timers, updates, saved, steps, last: () => updates.at(-1) };
}

/** Runs one station through tare, calibrate and the read-back with the pad behaving. */
async function calibrateStation(r: ReturnType<typeof rig>, station = 'seat-1', readBack = 500): Promise<void> {
  await r.s.confirm(); // pad clear → tare
  await r.s.confirm(); // known weight on → calibrate
  r.s.handle(settled(readBack, station));
  r.s.handle(settled(0, station)); // weight taken off
}

/** Places a barrel (tag, then settled weight) and lifts it (tag gone, pad at zero). */
function weigh(r: ReturnType<typeof rig>, barrel: number, g = grams(barrel)): void {
  r.s.handle(tagArrived(uidOf(barrel)));
  r.s.handle(settled(g));
  r.s.handle(tagLeft(uidOf(barrel)));
  r.s.handle(settled(0));
}

describe('calibrate session', () => {
  it('tares, calibrates, checks the read-back weight and saves the station; then learns the barrels', async () => {
    const r = rig({ barrels: [1, 7, 13] });
    r.s.start();
    expect(r.last()).toMatchObject({ kind: 'step', step: { kind: 'clear-pad', station: 'seat-1', confirm: true } });
    expect(r.s.awaitingConfirm).toBe(true);
    await r.s.confirm();
    expect(r.scale.calls).toEqual(['tare seat-1']);
    expect(r.last()).toMatchObject({ kind: 'step', step: { kind: 'place-known', grams: 500 } });
    r.s.handle(settled(500)); // a weight before `calibrate` (old calibration) means nothing
    await r.s.confirm();
    expect(r.scale.calls).toEqual(['tare seat-1', 'calibrate seat-1 500']);
    expect(r.saved).toEqual([]);
    r.s.handle(settled(500.4));
    expect(r.saved).toHaveLength(1);
    expect(r.saved[0]?.stations['seat-1']).toEqual({
      tareAt: '2025-05-01T12:00:00.000Z', knownGrams: 500, calibratedAt: '2025-05-01T12:00:00.000Z',
      tareCounts: 84_213, perKg: 420_000, verifiedGrams: 500.4,
    });
    expect(r.last()).toMatchObject({ kind: 'step', step: { kind: 'remove-known' } });
    r.s.handle(settled(0));
    expect(r.last()).toMatchObject({ kind: 'step', step: { kind: 'place-barrel', barrel: 1 }, progress: { done: 1, total: 4 } });
    for (const b of [1, 7, 13]) weigh(r, b);
    expect(r.steps()).toEqual(['clear-pad', 'place-known', 'remove-known', 'place-barrel', 'lift', 'place-barrel', 'lift', 'place-barrel', 'lift']);
    const learned = r.updates.find((u) => u.kind === 'learned');
    expect(learned?.kind === 'learned' && learned.flagged).toEqual([]);
    expect(learned?.kind === 'learned' && learned.weights.emptyGrams).toBeCloseTo(EMPTY, 0);
    expect(learned?.kind === 'learned' && learned.weights.stoneGrams).toBeCloseTo(STONE, 1);
    expect(r.last()).toMatchObject({ kind: 'done' });
    expect(r.s.succeeded).toBe(true);
    const file = r.saved.at(-1);
    expect(file?.barrels?.samples.map((s) => [s.barrel, s.grams, s.uid])).toEqual([1, 7, 13].map((b) => [b, grams(b), uidOf(b)]));
    expect(parseCalibration(JSON.parse(JSON.stringify(file)))).toMatchObject({ ok: true });
  });

  it('shows a station `err` with its code and retries the step on confirm', async () => {
    const r = rig();
    r.scale.failNext('tare', { ok: false, code: 'SENSOR_TIMEOUT', message: 'the load cell did not answer' });
    r.s.start();
    await r.s.confirm();
    expect(r.last()).toEqual({
      kind: 'failed', code: 'SENSOR_TIMEOUT', message: 'tare on seat-1 failed: the load cell did not answer', retry: 'Press Enter to tare again',
    });
    expect(r.s.awaitingConfirm).toBe(true);
    await r.s.confirm(); // retry
    expect(r.scale.calls).toEqual(['tare seat-1', 'tare seat-1']);
    expect(r.last()).toMatchObject({ kind: 'step', step: { kind: 'place-known' } });

    r.scale.failNext('calibrate', { ok: false, code: 'TIMEOUT', message: 'no reply within the timeout' });
    r.scale.failNext('calibrate', { ok: false, code: 'CALIBRATION_FAILED', message: 'the mass moved the reading too little' });
    await r.s.confirm();
    expect(r.last()).toMatchObject({ kind: 'failed', code: 'TIMEOUT' });
    await r.s.confirm();
    expect(r.last()).toMatchObject({ kind: 'failed', code: 'CALIBRATION_FAILED' });
    await r.s.confirm();
    expect(r.scale.calls.filter((c) => c.startsWith('calibrate'))).toHaveLength(3);
    r.s.handle(settled(499.6));
    expect(r.saved).toHaveLength(1);
  });

  it('refuses a read-back weight out of tolerance, and starts the station again', async () => {
    const r = rig();
    r.s.start();
    await r.s.confirm();
    await r.s.confirm();
    r.s.handle(settled(512.3));
    expect(r.last()).toMatchObject({ kind: 'failed', code: 'VERIFY_FAILED', message: 'seat-1 reads 512.3 g for the 500 g weight (tolerance ±2.5 g)' });
    expect(r.saved).toEqual([]);
    await r.s.confirm();
    expect(r.last()).toMatchObject({ kind: 'step', step: { kind: 'clear-pad' } });
    await calibrateStation(r);
    expect(r.saved).toHaveLength(1);
  });

  it('fails with NO_WEIGHT when no settled weight comes back in time', async () => {
    const r = rig();
    r.s.start();
    await r.s.confirm();
    await r.s.confirm();
    expect(r.timers.pending).toBe(1);
    r.timers.fire();
    expect(r.last()).toMatchObject({ kind: 'failed', code: 'NO_WEIGHT' });
  });

  it('calibrates every station in order and keeps stations calibrated earlier', async () => {
    const earlier: Calibration = {
      ...EMPTY_CALIBRATION,
      stations: { 'seat-9': { tareAt: '2025-01-01T00:00:00.000Z', knownGrams: 1000, calibratedAt: '2025-01-01T00:00:00.000Z' } },
      cardGrams: 1.8,
    };
    const r = rig({ stations: ['seat-1', 'seat-2'], calibration: earlier });
    r.s.start();
    await calibrateStation(r, 'seat-1');
    r.s.handle(settled(500, 'seat-1')); // a stray weight on the finished station
    await calibrateStation(r, 'seat-2');
    expect(r.scale.calls).toEqual(['tare seat-1', 'calibrate seat-1 500', 'tare seat-2', 'calibrate seat-2 500']);
    expect(Object.keys(r.saved.at(-1)?.stations ?? {})).toEqual(['seat-9', 'seat-1', 'seat-2']);
    expect(r.saved.at(-1)?.cardGrams).toBe(1.8);
    expect(r.s.succeeded).toBe(true);
  });

  it('uses the registry to confirm the barrel: another barrel or an unknown tag is sent back', () => {
    const r = rig({ stations: [], barrels: [1, 13] });
    r.s.start();
    r.s.handle(tagArrived(uidOf(4)));
    expect(r.updates.find((u) => u.kind === 'notice')).toEqual({ kind: 'notice', message: 'that is barrel 4 (4 stones), not barrel 1: take it off' });
    r.s.handle(settled(grams(4)));
    r.s.handle(tagLeft(uidOf(4)));
    r.s.handle(settled(0));
    expect(r.last()).toMatchObject({ kind: 'step', step: { kind: 'place-barrel', barrel: 1 } });
    r.s.handle(tagArrived('04FFFFFFFFFFFF'));
    expect(r.updates.filter((u) => u.kind === 'notice').at(-1)).toMatchObject({ message: expect.stringContaining('is not enrolled') as unknown });
    r.s.handle(tagLeft('04FFFFFFFFFFFF'));
    // The pad never held weight for the unknown tag (a card): it counts as clear at once.
    expect(r.last()).toMatchObject({ kind: 'step', step: { kind: 'place-barrel', barrel: 1 } });
    // The weight may settle before the tag is read.
    r.s.handle(settled(grams(1)));
    r.s.handle(tagArrived(uidOf(1)));
    expect(r.updates.find((u) => u.kind === 'weighed')).toEqual({ kind: 'weighed', barrel: 1, grams: grams(1), progress: { done: 1, total: 2 } });
    // Lifted: the next barrel is asked for only once the pad is back at zero.
    r.s.handle(tagLeft(uidOf(1)));
    expect(r.last()).toMatchObject({ kind: 'step', step: { kind: 'lift' } });
    r.s.handle(settled(0));
    expect(r.last()).toMatchObject({ kind: 'step', step: { kind: 'place-barrel', barrel: 13 } });
  });

  it('learns the barrel weights and flags a mislabelled barrel', () => {
    const r = rig({ stations: [], barrels: [1, 4, 7, 10, 13] });
    r.s.start();
    // Barrel 7 holds eight stones.
    for (const b of [1, 4, 7, 10, 13]) weigh(r, b, b === 7 ? grams(8) : grams(b));
    const learned = r.updates.find((u) => u.kind === 'learned');
    if (learned?.kind !== 'learned') throw new Error('not learned');
    expect(learned.weights.emptyGrams).toBeCloseTo(EMPTY, 1);
    expect(learned.weights.stoneGrams).toBeCloseTo(STONE, 2);
    expect(learned.weights.samples).toBe(4);
    expect(learned.flagged).toEqual([{ barrel: 7, grams: grams(8), measuredStones: 8, message: expect.stringContaining('weighs like 8 stone(s)') as unknown }]);
    const file = r.saved.at(-1);
    expect(file?.barrels?.samples.find((s) => s.barrel === 7)?.flagged).toBe(true);
    expect(r.s.succeeded).toBe(true);
  });

  it('asks to weigh again when the barrels cannot be told apart', async () => {
    const r = rig({ stations: [], barrels: [3, 3] });
    r.s.start();
    weigh(r, 3);
    weigh(r, 3);
    expect(r.last()).toMatchObject({ kind: 'failed', code: 'NOT_ENOUGH_SAMPLES' });
    await r.s.confirm();
    expect(r.last()).toMatchObject({ kind: 'step', step: { kind: 'place-barrel', barrel: 3 }, progress: { done: 0 } });
  });
});

describe('barrel learning', () => {
  const sample = (barrel: number, g: number) => ({ barrel, grams: g, uid: uidOf(barrel) });

  it('fits clean samples without flags', () => {
    const learned = learnBarrels([1, 7, 13].map((b) => sample(b, grams(b))));
    expect(learned).toMatchObject({ ok: true, flagged: [] });
  });

  it('refuses to guess when three barrels disagree (no majority to trust)', () => {
    const learned = learnBarrels([sample(1, grams(1)), sample(7, grams(10)), sample(13, grams(13))]);
    expect(learned).toMatchObject({ ok: false, code: 'BARRELS_DISAGREE' });
  });
});

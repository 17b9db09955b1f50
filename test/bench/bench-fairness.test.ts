/**
 * The fairness benchmark (controller/bench/fairness/) can fail: run small on the controller as `zaptable start`
 * assembles it, it passes with no fault, and each fault injected through its options (never a code edit) makes
 * it fail — with a wrong order, a true time outside its interval, or a lost happening — never a quiet pass.
 * The races include Killer-21's red 0 against the Killer's landing and against the deadline.
 */
import { describe, expect, it } from 'vitest';
import { runFairnessBench, type FairnessFaults, type FairnessFigures, type RowFigures } from '../../controller/bench/fairness/fairness-bench.ts';
import type { FairnessLinkName } from '../../controller/bench/fairness/usb-links.ts';
import { CELLS, DEFAULT_PHYSICS, type Physics } from '../../controller/bench/fairness/world.ts';

/** The world without tails: every draw lies within the controller's default allowances. */
const NO_TAIL: Physics = {
  powerUp: { ...DEFAULT_PHYSICS.powerUp, tailShare: 0 },
  stampDelay: { ...DEFAULT_PHYSICS.stampDelay, tailShare: 0 },
};

const sum = (f: FairnessFigures, k: keyof Pick<RowFigures, 'wrong' | 'outside' | 'lost' | 'unanswered' | 'pairs' | 'right'>): number =>
  f.links.reduce((n, l) => n + l.rows.reduce((m, r) => m + r[k], 0), 0);
const goal = (f: FairnessFigures, prefix: string): boolean[] =>
  f.links.flatMap((l) => l.goals.filter((g) => g.name.startsWith(prefix)).map((g) => g.pass));

async function run(faults: FairnessFaults, link: FairnessLinkName = 'ft232-1ms', pairs = 2, cells = CELLS): Promise<FairnessFigures> {
  return runFairnessBench({ pairs, slapGoalRaces: 0, seed: 'test', links: [link], physics: NO_TAIL, faults, separationsUs: [1000, 5000], cells });
}

const rowsOf = (f: FairnessFigures, path: string): RowFigures[] =>
  f.links.flatMap((l) => l.rows.filter((r) => r.cell.path === path));

/** A run failed: a goal missed, with a wrong order, a true time outside, or a lost happening behind it. */
function failed(f: FairnessFigures): boolean {
  return f.links.some((l) => l.goals.some((g) => !g.pass));
}

describe('bench fairness', () => {
  it('passes without faults: every row filled, no wrong order, every true time inside', async () => {
    const f = await run({});
    expect(sum(f, 'pairs')).toBe(2 * 2 * CELLS.length);
    expect(sum(f, 'right')).toBeGreaterThan(0);
    expect(sum(f, 'wrong')).toBe(0);
    expect(sum(f, 'outside')).toBe(0);
    expect(sum(f, 'lost') + sum(f, 'unanswered')).toBe(0);
    expect(goal(f, 'every row filled')).toEqual([true]);
    expect(goal(f, '0 wrong orders')).toEqual([true]);
    expect(goal(f, 'every true time inside')).toEqual([true]);
  }, 120_000);

  it('fails when the slap matcher drops the cards it dates: lost happenings, unanswered races', async () => {
    const f = await run({ dropSlapCards: true });
    expect(sum(f, 'lost')).toBeGreaterThan(0);
    expect(sum(f, 'unanswered')).toBeGreaterThan(0);
    expect(goal(f, 'every row filled')).toEqual([false]);
  }, 120_000);

  it('fails when the intervals are 15 % narrower: true times outside', async () => {
    const f = await run({ intervalScale: 0.85 }, 'ft232-1ms', 4);
    expect(sum(f, 'outside')).toBeGreaterThan(0);
    expect(goal(f, 'every true time inside')).toEqual([false]);
  }, 120_000);

  it('fails when events are ordered by their arrival: true times outside, wrong orders (Killer-21\'s red-0 race too)', async () => {
    const f = await run({ arrivalOrder: true }, 'ft232-16ms');
    expect(sum(f, 'outside')).toBeGreaterThan(0);
    expect(sum(f, 'wrong')).toBeGreaterThan(0);
    expect(rowsOf(f, 'killer').reduce((n, r) => n + r.wrong, 0)).toBeGreaterThan(0);
    expect(failed(f)).toBe(true);
  }, 120_000);

  it('fails with a batch window of 0 ms: wrong buzzer winners; Zip-Zap\'s late-line rules still order its plays', async () => {
    const f = await run({ batchWindowMs: 0 }, 'ft232-16ms', 12, CELLS.filter((c) => c.path === 'buzzer' || (c.path === 'zip-zap' && c.resting === 0)));
    // The buzzer takes the first line once its window closes: a press held back by the latency timer loses.
    expect(rowsOf(f, 'buzzer').reduce((n, r) => n + r.wrong, 0)).toBeGreaterThan(0);
    expect(goal(f, '0 wrong orders')).toEqual([false]);
    // Zip-Zap puts every line in its own batch then, and the late-line rules (docs/timing.md §3.5) take back and
    // re-apply plays by their landing intervals: the window is not what keeps its order.
    expect(rowsOf(f, 'zip-zap').reduce((n, r) => n + r.wrong, 0)).toBe(0);
    expect(rowsOf(f, 'zip-zap').reduce((n, r) => n + r.right, 0)).toBeGreaterThan(0);
  }, 120_000);

  it('fails when the power-up allowance is 1 ms while tags take 1–5 ms: true times outside', async () => {
    const f = await run({ powerUpAllowanceUs: 1000 });
    expect(sum(f, 'outside')).toBeGreaterThan(0);
    expect(goal(f, 'every true time inside')).toEqual([false]);
  }, 120_000);
});

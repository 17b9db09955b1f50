/**
 * The kernel's interval comparison (controller/kernel/interval.ts) and the clock terms that widen a stamp into
 * an interval (clock-bounds.ts): the one rule every race is decided by.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_RATE_ERROR, UNSYNCED_UNCERTAINTY_US, deviceInterval, finiteUncertaintyUs, hostInterval,
} from '../../controller/kernel/clock-bounds.ts';
import {
  againstDeadline, around, between, compareIntervals, earliestOf, exactly, isBefore, latestOf, type TimeInterval,
} from '../../controller/kernel/interval.ts';

const interval = fc.record({
  at: fc.integer({ min: -1e6, max: 1e6 }),
  before: fc.integer({ min: 0, max: 1e4 }),
  after: fc.integer({ min: 0, max: 1e4 }),
}).map(({ at, before, after }): TimeInterval => ({ at, before, after }));

describe('compareIntervals', () => {
  it('orders only when the earlier one\'s latest moment lies before the later one\'s earliest', () => {
    expect(compareIntervals(around(100, 4), around(120, 4))).toEqual({ order: 'before', separation: 20, combinedUncertainty: 8 });
    expect(compareIntervals(around(120, 4), around(100, 4))).toEqual({ order: 'after', separation: -20, combinedUncertainty: 8 });
    expect(compareIntervals(around(100, 4), around(105, 4)).order).toBe('tie');
  });

  it('ties intervals that only touch: they share a possible moment', () => {
    expect(compareIntervals(between(0, 10, 0), between(10, 20, 20)).order).toBe('tie');
    expect(compareIntervals(exactly(5), exactly(5)).order).toBe('tie');
    expect(compareIntervals(exactly(5), exactly(6)).order).toBe('before');
  });

  it('uses the reaches that face each other, not the half widths, for lopsided intervals', () => {
    // A tag read: up to 8 ms before its stamp, nothing after. A button 1 ms later, 80 µs before its stamp.
    const tag = { at: 10_000, before: 8_000, after: 0 };
    const button = { at: 11_000, before: 80, after: 0 };
    expect(compareIntervals(tag, button)).toEqual({ order: 'before', separation: 1000, combinedUncertainty: 80 });
    // The other way round, the tag's 8 ms reach faces the button.
    expect(compareIntervals({ ...tag, at: 11_000 }, { ...button, at: 10_000 }).order).toBe('tie');
  });

  it('needs the extra margin on top of the intervals (Zip-Zap\'s tieWindowMs)', () => {
    expect(compareIntervals(around(0, 1), around(10, 1), { margin: 8 })).toEqual({ order: 'tie', separation: 10, combinedUncertainty: 10 });
    expect(compareIntervals(around(0, 1), around(10, 1), { margin: 7 }).order).toBe('before');
  });

  it('an infinite interval (a station not synced) ties with everything', () => {
    expect(compareIntervals(around(0, Infinity), around(1e9, 1)).order).toBe('tie');
    expect(compareIntervals(around(1e9, 1), around(0, Infinity)).order).toBe('tie');
  });

  it('is antisymmetric, and an order holds for every pair of moments inside the two intervals', () => {
    const share = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(fc.property(interval, interval, share, share, (a, b, x, y) => {
      const ab = compareIntervals(a, b);
      const ba = compareIntervals(b, a);
      expect(ba.order).toBe(ab.order === 'before' ? 'after' : ab.order === 'after' ? 'before' : 'tie');
      expect(ba.separation).toBe(0 - ab.separation);
      const ta = earliestOf(a) + x * (a.before + a.after);
      const tb = earliestOf(b) + y * (b.before + b.after);
      if (ab.order === 'before') expect(ta).toBeLessThan(tb);
      if (ab.order === 'after') expect(tb).toBeLessThan(ta);
      // A tie means some pair of moments could be either way (or equal): the intervals meet.
      if (ab.order === 'tie') expect(earliestOf(a) <= latestOf(b) && earliestOf(b) <= latestOf(a)).toBe(true);
      expect(isBefore(a, b)).toBe(ab.order === 'before');
    }), { numRuns: 2000 });
  });
});

describe('againstDeadline', () => {
  it('is inclusive: a zero-width time at the deadline is within it', () => {
    expect(againstDeadline(exactly(4000), exactly(4000))).toBe('within');
    expect(againstDeadline(around(3990, 10), exactly(4000))).toBe('within');
    expect(againstDeadline(around(3995, 10), exactly(4000))).toBe('straddles');
    expect(againstDeadline(around(4011, 10), exactly(4000))).toBe('after');
    expect(againstDeadline(around(4010, 10), exactly(4000))).toBe('straddles');
  });

  it('widens by the deadline\'s own interval (a window from a landing known within ±4 ms)', () => {
    expect(againstDeadline(around(3990, 8), around(4000, 4))).toBe('straddles');
    expect(againstDeadline(around(3988, 8), around(4000, 4))).toBe('within');
    expect(againstDeadline(around(4012, 8), around(4000, 4))).toBe('straddles');
    expect(againstDeadline(around(4012, 8), exactly(4000))).toBe('after');
  });
});

describe('clock bounds', () => {
  const t = { deviceUs: 5_000, hostUs: 1_000_000, uncertaintyUs: 200, beforeUs: 8_000, afterUs: 0 };

  it('on the station\'s own clock: the sensor interval plus the 4 µs resolution, no mapping', () => {
    expect(deviceInterval(t)).toEqual({ at: 5_000, before: 8_004, after: 4 });
    expect(deviceInterval(t, { deviceResolutionUs: 0 })).toEqual({ at: 5_000, before: 8_000, after: 0 });
  });

  it('in controller time: the sensor interval scaled by the 1 % rate error, the mapping bound on both sides', () => {
    expect(DEFAULT_MAX_RATE_ERROR).toBe(0.01);
    expect(hostInterval(t)).toEqual({ at: 1_000_000, before: 8_280, after: 200 });
    expect(hostInterval(t, { maxRateError: 0 })).toEqual({ at: 1_000_000, before: 8_200, after: 200 });
  });

  it('an unsynced time (Infinity) becomes 1000 s for JSON, and still ties with everything', () => {
    expect(finiteUncertaintyUs(Infinity)).toBe(UNSYNCED_UNCERTAINTY_US);
    expect(finiteUncertaintyUs(150)).toBe(150);
    const unsynced = hostInterval({ ...t, uncertaintyUs: finiteUncertaintyUs(Infinity) });
    expect(compareIntervals(unsynced, hostInterval({ ...t, hostUs: t.hostUs + 100e6 })).order).toBe('tie');
  });
});

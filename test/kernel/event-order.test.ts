import { describe, expect, it } from 'vitest';
import { arbitrate, compareEvents, type Placing, type TimedEvent } from '../../controller/kernel/event-order.ts';

interface Press extends TimedEvent {
  readonly name: string;
}

const press = (name: string, station: string, hostUs: number, uncertaintyUs: number, deviceUs = hostUs, epoch = 0): Press => ({
  name, station, epoch, deviceUs, hostUs, uncertaintyUs,
});

const names = (placings: readonly Placing<Press>[]): (string | string[])[] =>
  placings.map((p) => (p.tie ? p.members.map((m) => m.name) : p.event.name));

describe('arbitration', () => {
  it('orders events on one station by raw device time, whatever their mapped times and input order say', () => {
    // Mapped at different moments, the later press came out 30 µs earlier in controller time.
    const a = press('a', 's1', 1_000_030, 150, 5_000_000);
    const b = press('b', 's1', 1_000_000, 150, 5_000_020);
    expect(names(arbitrate([b, a]))).toEqual(['a', 'b']);
    expect(compareEvents(a, b)).toEqual({ order: 'before', separationUs: 20, combinedUncertaintyUs: 8 });
  });

  it('ties events on one station within the stamps\' resolution', () => {
    const a = press('a', 's1', 0, 150, 1000);
    const b = press('b', 's1', 0, 150, 1008);
    const [place] = arbitrate([a, b]);
    expect(place).toMatchObject({ tie: true, separationUs: 0, combinedUncertaintyUs: 8 });
  });

  it('compares device times of different boots of one station through the mapped times', () => {
    const a = press('a', 's1', 10_000, 100, 900_000, 0);
    const b = press('b', 's1', 12_000, 100, 50, 1);
    expect(names(arbitrate([b, a]))).toEqual(['a', 'b']);
  });

  it('orders events across stations by mapped time when the intervals do not overlap', () => {
    const a = press('a', 's1', 10_000, 200);
    const b = press('b', 's2', 10_500, 200);
    const c = press('c', 's3', 9_000, 300);
    expect(names(arbitrate([a, b, c]))).toEqual(['c', 'a', 'b']);
  });

  it('reports overlapping intervals as a tie with its separation and combined uncertainty', () => {
    const a = press('a', 's1', 10_000, 200);
    const b = press('b', 's2', 10_300, 250);
    const placings = arbitrate([b, a]);
    expect(placings).toEqual([{ tie: true, members: [a, b], separationUs: 300, combinedUncertaintyUs: 450 }]);
  });

  it('makes a tie of three when overlaps chain, and ranks a clearly later press after it', () => {
    const a = press('a', 's1', 0, 400);
    const b = press('b', 's2', 600, 400);
    const c = press('c', 's3', 1200, 400); // overlaps b, not a: still one place, no order claimed inside
    const d = press('d', 's4', 5000, 400);
    const placings = arbitrate([d, c, b, a]);
    expect(names(placings)).toEqual([['a', 'b', 'c'], 'd']);
    expect(placings[0]).toMatchObject({ separationUs: 1200, combinedUncertaintyUs: 800 });
  });

  it('lets an unsynced station only tie', () => {
    const a = press('a', 's1', 0, 100);
    const b = press('b', 's2', 1_000_000, Infinity);
    expect(names(arbitrate([a, b]))).toEqual([['a', 'b']]);
  });

  it('gives the same ranking for every input order', () => {
    const events = [press('a', 's1', 0, 50), press('b', 's2', 80, 50), press('c', 's1', 500, 50, 500), press('d', 's3', 2000, 50)];
    const expected = names(arbitrate(events));
    for (const perm of [[3, 2, 1, 0], [1, 3, 0, 2], [2, 0, 3, 1]]) {
      expect(names(arbitrate(perm.map((i) => events[i] as Press)))).toEqual(expected);
    }
    expect(expected).toEqual([['a', 'b'], 'c', 'd']);
  });

  it('refuses a non-finite controller time and a negative or non-finite sensor interval', () => {
    expect(() => arbitrate([press('a', 's1', Number.NaN, 1)])).toThrow(RangeError);
    expect(() => arbitrate([{ ...press('a', 's1', 0, 1), beforeUs: -1 }])).toThrow(RangeError);
    expect(() => arbitrate([{ ...press('a', 's1', 0, 1), afterUs: Number.NaN }])).toThrow(RangeError);
    expect(() => arbitrate([{ ...press('a', 's1', 0, 1), beforeUs: Infinity }])).toThrow(RangeError);
  });
});

describe('arbitration with sensor intervals', () => {
  // A tag read stamped at its read, arrived at most `beforeUs` earlier (poll window + power-up).
  const tag = (name: string, station: string, hostUs: number, u: number, beforeUs: number, deviceUs = hostUs): Press => ({
    ...press(name, station, hostUs, u, deviceUs), beforeUs,
  });

  it('ties two tag reads on one station whose poll windows overlap, though their stamps are far apart', () => {
    const a = tag('a', 's1', 0, 100, 8000, 100_000);
    const b = tag('b', 's1', 0, 100, 8000, 105_000); // b may have arrived at 97 000, before a's read
    expect(names(arbitrate([a, b]))).toEqual([['a', 'b']]);
    expect(compareEvents(a, b)).toEqual({ order: 'tie', separationUs: 5000, combinedUncertaintyUs: 8008 });
  });

  it('orders them once b\'s window starts after a\'s stamp', () => {
    const a = tag('a', 's1', 0, 100, 8000, 100_000);
    const b = tag('b', 's1', 0, 100, 8000, 108_009);
    expect(compareEvents(a, b).order).toBe('before');
    expect(compareEvents(b, a).order).toBe('after');
  });

  it('uses the side of each interval that faces the other event', () => {
    // A button (no window) stamped 1 ms after a tag read whose window reaches 8 ms back: the button is after.
    const t = tag('t', 's1', 0, 0, 8000, 50_000);
    const btn = press('btn', 's1', 0, 0, 51_000);
    expect(compareEvents(t, btn).order).toBe('before');
    // Stamped 1 ms before the read, it may be before or after the arrival: a tie.
    const early = press('early', 's1', 0, 0, 49_000);
    expect(compareEvents(early, t)).toEqual({ order: 'tie', separationUs: 1000, combinedUncertaintyUs: 8008 });
    // 9 ms before the read, it is before the window opened.
    expect(compareEvents(press('e9', 's1', 0, 0, 41_000), t).order).toBe('before');
  });

  it('adds the clock uncertainty and the rate error across stations', () => {
    const a = tag('a', 's1', 10_000, 200, 0);
    const b = tag('b', 's2', 18_500, 200, 8000); // b's earliest: 18 500 − 8000·1.01 − 200 = 10 220 > a's latest 10 200
    expect(compareEvents(a, b)).toEqual({ order: 'before', separationUs: 8500, combinedUncertaintyUs: 8480 });
    expect(compareEvents(a, tag('b', 's2', 18_470, 200, 8000)).order).toBe('tie');
    expect(compareEvents(a, b, { maxRateError: 0.1 }).order).toBe('tie');
  });

  it('sorts by the middle of each interval and reports the spread of the middles', () => {
    const slow = tag('slow', 's1', 20_000, 100, 16_000); // middle 12 000
    const quick = press('quick', 's2', 11_000, 100); // middle 11 000
    const placings = arbitrate([slow, quick]);
    expect(names(placings)).toEqual([['quick', 'slow']]);
    expect(placings[0]).toMatchObject({ separationUs: 1000 });
  });
});

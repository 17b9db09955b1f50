import { describe, expect, it } from 'vitest';
import { arbitrate, compareEvents, type Placing, type TimedEvent } from '../../../controller/hardware/clock/arbitration.ts';

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

  it('refuses a non-finite controller time', () => {
    expect(() => arbitrate([press('a', 's1', Number.NaN, 1)])).toThrow(RangeError);
  });
});

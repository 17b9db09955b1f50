/**
 * The device-time code the controller uses (controller/hardware/clock/device-time.ts), also against the shared
 * `wrap` vectors of test/vectors/protocol-vectors.json.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { advanceDeviceTime, u32Delta, U32_RANGE, type DeviceTimeState } from '../../../controller/hardware/clock/device-time.ts';

interface WrapVector { name: string; ref: number; t: number; delta: number }
const vectorsFile = new URL('../../vectors/protocol-vectors.json', import.meta.url);
const wrapVectors = (JSON.parse(readFileSync(vectorsFile, 'utf8')) as { wrap: WrapVector[] }).wrap;
/** advanceDeviceTime's default: how far a reading may lie behind the furthest one before it means a restart. */
const BACKWARD_TOLERANCE_US = 1_000_000;

describe('the shared wrap vectors', () => {
  it('are there', () => {
    expect(wrapVectors.length).toBeGreaterThan(0);
  });

  it.each(wrapVectors)('u32Delta: $name', ({ ref, t, delta }) => {
    expect(u32Delta(t, ref)).toBe(delta);
  });

  // The same pairs through the function the station clock calls: a reading `t` after a reading `ref` lands
  // `delta` from it on the timeline, unless it lies so far behind that it means the station restarted.
  it.each(wrapVectors)('advanceDeviceTime: $name', ({ ref, t, delta }) => {
    const first = advanceDeviceTime(undefined, { raw: ref });
    const next = advanceDeviceTime(first.state, { raw: t });
    if (delta < -BACKWARD_TOLERANCE_US) {
      expect([next.reset, next.epoch, next.deviceUs]).toEqual(['backwards', 1, t]);
    } else {
      expect([next.reset, next.epoch, next.deviceUs]).toEqual([undefined, 0, ref + delta]);
    }
  });
});

describe('u32Delta', () => {
  it('takes the signed modular difference, across the wrap in both directions', () => {
    expect(u32Delta(10, 5)).toBe(5);
    expect(u32Delta(5, 10)).toBe(-5);
    expect(u32Delta(3, U32_RANGE - 2)).toBe(5);
    expect(u32Delta(U32_RANGE - 2, 3)).toBe(-5);
    expect(u32Delta(2 ** 31 - 1, 0)).toBe(2 ** 31 - 1);
    expect(u32Delta(2 ** 31, 0)).toBe(-(2 ** 31));
  });
});

describe('advanceDeviceTime', () => {
  it('unwraps readings across the 2^32 boundary into one increasing timeline', () => {
    let state: DeviceTimeState | undefined;
    const raws = [U32_RANGE - 12, U32_RANGE - 4, 0, 4, 1_000_000];
    const placed = raws.map((raw) => {
      const r = advanceDeviceTime(state, { raw });
      state = r.state;
      expect(r.reset).toBeUndefined();
      return r.deviceUs;
    });
    expect(placed).toEqual([U32_RANGE - 12, U32_RANGE - 4, U32_RANGE, U32_RANGE + 4, U32_RANGE + 1_000_000]);
  });

  it('unwraps a stamp sequence across two wraps, each step below 2^31 µs', () => {
    let state: DeviceTimeState | undefined;
    const placed = [4294967000, 100, 2000000000, 4000000000, 50].map((raw) => {
      const r = advanceDeviceTime(state, { raw });
      state = r.state;
      expect(r.reset).toBeUndefined();
      return r.deviceUs;
    });
    expect(placed).toEqual([4294967000, 4294967396, 6294967296, 8294967296, 8589934642]);
  });

  it('accepts a reading slightly in the past without moving the reference back', () => {
    const a = advanceDeviceTime(undefined, { raw: 5000 });
    const b = advanceDeviceTime(a.state, { raw: 2 }); // e.g. a tag read stamped before the last ping reply
    expect(b.deviceUs).toBe(2);
    expect(b.reset).toBeUndefined();
    expect(b.state).toBe(a.state);
    const c = advanceDeviceTime(b.state, { raw: 7000 });
    expect(c.deviceUs).toBe(7000);
  });

  it('counts the wraps from host time after a long silence', () => {
    const first = advanceDeviceTime(undefined, { raw: 100, hostUs: 0 });
    // Three hours later (2.5 wraps); the device runs 0.3 % fast.
    const elapsed = Math.round(3 * 3600e6 * 1.003);
    const raw = (100 + elapsed) % U32_RANGE;
    const later = advanceDeviceTime(first.state, { raw, hostUs: 3 * 3600e6 });
    expect(later.reset).toBeUndefined();
    expect(later.deviceUs).toBe(100 + elapsed);
  });

  it('starts a new epoch on a new boot counter, even when the times look plausible', () => {
    const a = advanceDeviceTime(undefined, { raw: 1_000_000, hostUs: 0, bootId: 7 });
    const b = advanceDeviceTime(a.state, { raw: 1_100_000, hostUs: 100_000, bootId: 8 });
    expect(b.reset).toBe('boot-id');
    expect(b.epoch).toBe(1);
    expect(b.deviceUs).toBe(1_100_000);
  });

  it('detects a restart from a backward jump when no host time is given', () => {
    const a = advanceDeviceTime(undefined, { raw: 600_000_000 });
    const b = advanceDeviceTime(a.state, { raw: 2_000_000 });
    expect(b.reset).toBe('backwards');
    expect(b.epoch).toBe(1);
    const c = advanceDeviceTime(b.state, { raw: 2_500_000 });
    expect([c.epoch, c.deviceUs, c.reset]).toEqual([1, 2_500_000, undefined]);
  });

  it('detects a restart that looks like a forward jump by comparing with host time', () => {
    // 40 minutes up (past 2^31 µs), then a reset: the new small reading is "ahead" modulo 2^32.
    const a = advanceDeviceTime(undefined, { raw: 2_400_000_000, hostUs: 1e9 });
    const b = advanceDeviceTime(a.state, { raw: 2_000_000, hostUs: 1e9 + 2_500_000 });
    expect(u32Delta(2_000_000, 2_400_000_000)).toBeGreaterThan(0);
    expect(b.reset).toBe('inconsistent-with-host');
  });

  it('tolerates arrival jitter and stalls well below the slack', () => {
    const a = advanceDeviceTime(undefined, { raw: 1000, hostUs: 0 });
    const b = advanceDeviceTime(a.state, { raw: 101_000, hostUs: 140_000 }); // a 40 ms stall
    expect(b.reset).toBeUndefined();
  });

  it('rejects a raw value outside the u32 range as a programmer error', () => {
    expect(() => advanceDeviceTime(undefined, { raw: U32_RANGE })).toThrow(RangeError);
    expect(() => advanceDeviceTime(undefined, { raw: -1 })).toThrow(RangeError);
    expect(() => advanceDeviceTime(undefined, { raw: 1.5 })).toThrow(RangeError);
  });
});

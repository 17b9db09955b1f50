/**
 * The simulated table's scripting API, observed through the real serial driver: barrels placed and
 * lifted, cards tapped, buttons pressed at a known device time, lamps, calibration, faults, `id set`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { eventsOf, rig, type Rig } from './harness.ts';

let current: Rig | undefined;

async function started(...args: Parameters<typeof rig>): Promise<Rig> {
  current = rig(...args);
  await current.startAll();
  return current;
}

afterEach(async () => {
  await current?.stop();
  current = undefined;
});

describe('simulated table', () => {
  it('place a barrel: TAG+ at the next poll, then its settled weight; lift it: TAG- and the weight back to zero', async () => {
    const r = await started({ seats: 2 });
    await r.until(() => eventsOf(r.events, 'weight-settled', 'seat-1').length === 1); // `W 0.0 S` after boot
    const placedAt = r.time.nowUs();
    r.table.placeItem('seat-1', { uid: '04A1B2C3', grams: 312.5 });
    await r.until(() => eventsOf(r.events, 'weight-settled', 'seat-1').length === 2, 2000);
    const arrived = eventsOf(r.events, 'tag-arrived', 'seat-1');
    expect(arrived).toEqual([expect.objectContaining({ uid: '04A1B2C3' })]);
    // Stamped with the start of the first poll that read it: within one poll interval (50 ms) of the placing.
    const tagUs = arrived[0]?.time.hostUs ?? 0;
    expect(tagUs - placedAt).toBeGreaterThanOrEqual(-(arrived[0]?.time.uncertaintyUs ?? 0));
    expect(tagUs - placedAt).toBeLessThan(50_000 + (arrived[0]?.time.uncertaintyUs ?? 0));
    expect(eventsOf(r.events, 'weight-settled', 'seat-1').at(-1)?.grams).toBe(312.5);

    const liftedAt = r.time.nowUs();
    r.table.liftItem('seat-1', '04A1B2C3');
    await r.until(() => eventsOf(r.events, 'weight-settled', 'seat-1').length === 3, 2000);
    const left = eventsOf(r.events, 'tag-left', 'seat-1');
    expect(left).toEqual([expect.objectContaining({ uid: '04A1B2C3' })]);
    // Stamped with the first missed poll (the tag was already gone then), reported after the second.
    expect((left[0]?.time.hostUs ?? 0) - liftedAt).toBeLessThan(50_000 + (left[0]?.time.uncertaintyUs ?? 0));
    expect(eventsOf(r.events, 'weight-settled', 'seat-1').at(-1)?.grams).toBe(0);
    expect(r.events.filter((e) => e.station === 'seat-2' && e.kind !== 'weight-settled')).toEqual([]);
  });

  it('tap a card on the pile: TAG+ then TAG-, no weight (a pile station has no pad)', async () => {
    const r = await started({ seats: 1, pile: true });
    r.table.tapCard('pile', '04112233445566', 400);
    await r.until(() => eventsOf(r.events, 'tag-left', 'pile').length === 1, 2000);
    expect(r.events.filter((e) => e.station === 'pile').map((e) => e.kind)).toEqual(['tag-arrived', 'tag-left']);
    const [arrived, left] = r.events.filter((e) => e.station === 'pile');
    const dwellUs = (left?.time.deviceUs ?? 0) - (arrived?.time.deviceUs ?? 0);
    expect(dwellUs).toBeGreaterThanOrEqual(350_000);
    expect(dwellUs).toBeLessThanOrEqual(450_000);
    expect(() => {
      r.table.pressButton('pile');
    }).toThrow(/no button/);
  });

  it('press a button at a known device time: the button-pressed event carries exactly that time', async () => {
    const r = await started({ seats: 2 });
    await r.time.advance(1000);
    const atDeviceUs = r.table.micros('seat-2') + 250_000;
    r.table.pressButton('seat-2', { atDeviceUs, holdMs: 80 });
    await r.until(() => eventsOf(r.events, 'button-released', 'seat-2').length === 1, 1000);
    const [pressed] = eventsOf(r.events, 'button-pressed', 'seat-2');
    expect(pressed).toMatchObject({ station: 'seat-2', button: 'zap', time: { source: 'device', epoch: 0, deviceUs: atDeviceUs, rawUs: atDeviceUs } });
    const released = eventsOf(r.events, 'button-released', 'seat-2')[0];
    expect((released?.time.deviceUs ?? 0) - atDeviceUs).toBeGreaterThanOrEqual(80_000);
    expect((released?.time.deviceUs ?? 0) - atDeviceUs).toBeLessThan(81_000);
    expect(pressed?.time.uncertaintyUs).toBeLessThan(1000);
  });

  it('two presses 2 ms apart on different seats are ordered by device time, not arrival', async () => {
    const r = await started({ seats: 2, stations: [{ id: 'seat-1', skewPpm: -4000 }, { id: 'seat-2', skewPpm: 4000 }] });
    await r.time.advance(2000);
    r.table.pressButton('seat-2');
    await r.time.advance(2);
    r.table.pressButton('seat-1');
    await r.until(() => eventsOf(r.events, 'button-pressed').length === 2, 1000);
    const [a, b] = ['seat-2', 'seat-1'].map((s) => eventsOf(r.events, 'button-pressed', s)[0]?.time);
    const gap = (b?.hostUs ?? 0) - (a?.hostUs ?? 0);
    expect(gap).toBeGreaterThan((a?.uncertaintyUs ?? Infinity) + (b?.uncertaintyUs ?? Infinity));
    expect(Math.abs(gap - 2000)).toBeLessThan((a?.uncertaintyUs ?? 0) + (b?.uncertaintyUs ?? 0));
  });

  it('lamp commands reach the station: every pattern, read back from the simulated lamp', async () => {
    const r = await started({ seats: 1 });
    const expected = {
      on: { mode: 'on', lit: true },
      off: { mode: 'off', lit: false },
      'blink-slow': { mode: 'blink', onMs: 500, offMs: 500, count: 0, lit: true },
      'blink-fast': { mode: 'blink', onMs: 100, offMs: 100, count: 0 },
      pulse: { mode: 'blink', onMs: 250, offMs: 250, count: 0 },
      error: { mode: 'blink', onMs: 50, offMs: 50, count: 0 },
    } as const;
    for (const [pattern, state] of Object.entries(expected)) {
      await expect(r.time.settle(r.hardware.setLamp('seat-1', pattern as keyof typeof expected))).resolves.toEqual({ ok: true });
      expect(r.table.lamp('seat-1'), pattern).toMatchObject(state);
    }
    await r.time.settle(r.hardware.setLamp('seat-1', 'blink-slow'));
    await r.time.advance(600);
    expect(r.table.lamp('seat-1').lit).toBe(false);
    const lampLines = r.table.commands('seat-1').filter((c) => c.line.includes('lamp')).map((c) => c.line.replace(/^\d+ /, '').replace(/\*..$/, ''));
    expect(lampLines).toEqual(['lamp on', 'lamp off', 'lamp blink 500 500 0', 'lamp blink 100 100 0', 'lamp blink 250 250 0', 'lamp blink 50 50 0', 'lamp blink 500 500 0']);
  });

  it('calibrates an uncalibrated seat: no weights before, tare and calibrate with a known mass, weights after', async () => {
    const r = await started({ stations: [{ id: 'seat-1', calibrated: false }] });
    await r.time.advance(1000);
    expect(eventsOf(r.events, 'weight-settled')).toEqual([]);
    await expect(r.time.settle(r.hardware.scale('seat-1'))).resolves.toEqual({ ok: true, tareCounts: 0, perKg: 0 });
    await expect(r.time.settle(r.hardware.tare('seat-1'))).resolves.toEqual({ ok: true, tareCounts: 84_213 });
    r.table.placeItem('seat-1', { grams: 500 });
    await r.time.advance(400);
    await expect(r.time.settle(r.hardware.raw('seat-1'))).resolves.toEqual({ ok: true, counts: 84_213 + 210_000 });
    await expect(r.time.settle(r.hardware.calibrate('seat-1', 500))).resolves.toEqual({ ok: true, perKg: 420_000 });
    await r.until(() => eventsOf(r.events, 'weight-settled').length === 1, 1000);
    expect(eventsOf(r.events, 'weight-settled')[0]?.grams).toBe(500);
  });

  it('reports sensor faults in health and clears them when the sensor answers again', async () => {
    const r = await started({ seats: 1 });
    r.table.setSensorFault('seat-1', 'scale', true);
    r.table.setSensorFault('seat-1', 'rfid', true);
    await r.until(() => r.health('seat-1').faults.length === 2, 2000);
    expect(r.health('seat-1').faults).toEqual(['rfid', 'scale']);
    await expect(r.time.settle(r.hardware.raw('seat-1'))).resolves.toMatchObject({ ok: false, code: 'SENSOR_TIMEOUT' });
    r.table.setSensorFault('seat-1', 'scale', false);
    r.table.setSensorFault('seat-1', 'rfid', false);
    await r.until(() => r.health('seat-1').faults.length === 0, 1000);
  });

  it('renames a station with `id set`: after its next restart it is known by the new id', async () => {
    const r = await started({ seats: 1 });
    await expect(r.time.settle(r.hardware.setStationId('seat-1', 'north'))).resolves.toEqual({ ok: true, station: 'north' });
    expect(r.health('seat-1').online).toBe(true); // still running under its old id
    r.table.reset('seat-1');
    await r.until(() => r.hardware.health().some((h) => h.station === 'north' && h.online), 3000);
    expect(r.health('seat-1').online).toBe(false);
    r.table.pressButton('seat-1');
    await r.until(() => eventsOf(r.events, 'button-pressed', 'north').length === 1, 500);
  });

  it('runs the same script to the same events every time (virtual time, seeded links)', async () => {
    const script = async (): Promise<unknown[]> => {
      const r = rig({ seats: 2, seed: 'same' });
      await r.startAll();
      r.table.placeItem('seat-1', { uid: '04A1B2C3', grams: 100 });
      r.table.pressButton('seat-2');
      await r.time.advance(2000);
      await r.stop();
      const rounded = (us: number): number => Math.round(us);
      return r.events.map((e) => ({
        ...e, time: { ...e.time, hostUs: rounded(e.time.hostUs), uncertaintyUs: rounded(e.time.uncertaintyUs) },
      }));
    };
    const first = await script();
    expect(first.length).toBeGreaterThan(3);
    expect(await script()).toEqual(first);
  });
});

/**
 * The simulated station speaks protocol 2 like firmware 0.3.0: its banner, `TAG±` with the window its polling
 * gives (the tag's power-up delays the read, never its window's honesty), `SLAP` on a station with a slap
 * sensor; and the real driver turns them into intervals that hold the true moment, slap-dated on the pile.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SENSOR_TIMING } from '../../../controller/hardware/serial/event-interval.ts';
import { landingTime } from '../../../controller/hardware/interface.ts';
import { PROTOCOL_VERSION } from '../../../controller/protocol/index.ts';
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

/** Device µs of a station now. */
const micros = (r: Rig, station: string): number => r.table.micros(station);

describe('protocol 2 on the simulated station', () => {
  it('announces firmware 0.3.0 and protocol 2', async () => {
    const r = await started({ seats: 1 });
    expect(r.health('seat-1')).toMatchObject({ firmware: '0.3.0', protocol: PROTOCOL_VERSION });
    expect(PROTOCOL_VERSION).toBe(2);
  });

  it('sends TAG+ with the window since the poll before it, and the arrival interval holds the placing', async () => {
    const r = await started({ seats: 1, stationDefaults: { rfidPollMs: 50 } });
    for (let i = 0; i < 12; i++) {
      await r.time.advance(37 + i * 11); // placings at every phase of the poll
      const placedUs = micros(r, 'seat-1');
      const uid = `04A1B2${(0xc0 + i).toString(16).toUpperCase()}`;
      r.table.placeItem('seat-1', { uid, grams: 1.8 });
      await r.until(() => eventsOf(r.events, 'tag-arrived').some((e) => e.uid === uid), 200);
      const arrival = eventsOf(r.events, 'tag-arrived').find((e) => e.uid === uid);
      const t = arrival?.time;
      if (t === undefined) return expect.fail('no arrival');
      // The window is one poll period (the poll before this one found no new tag), the host adds the power-up.
      expect(t.beforeUs).toBe(50_000 + DEFAULT_SENSOR_TIMING.tagPowerUpUs);
      expect(placedUs).toBeGreaterThanOrEqual(t.deviceUs - t.beforeUs);
      expect(placedUs).toBeLessThanOrEqual(t.deviceUs);
      // Read by the first poll at least the tag's power-up (2.5 ms) after it entered the field.
      expect(t.deviceUs - placedUs).toBeGreaterThanOrEqual(2500);
      expect(t.deviceUs - placedUs).toBeLessThan(50_000 + 2500 + 4);
    }
  });

  it('reads a card placed 1 ms before a poll only at the next one (power-up): the host\'s power-up allowance keeps it inside', async () => {
    const r = await started({ seats: 1, stationDefaults: { rfidPollMs: 50 } });
    r.table.placeItem('seat-1', { uid: '04A1B2C3', grams: 1.8 });
    await r.until(() => eventsOf(r.events, 'tag-arrived').length === 1, 200);
    const poll = eventsOf(r.events, 'tag-arrived')[0]?.time.rawUs ?? 0; // polls come every 50 000 µs from here
    await r.time.advance((poll + 4 * 50_000 - 1000 - micros(r, 'seat-1')) / 1000);
    const placedUs = micros(r, 'seat-1');
    expect(placedUs).toBe(poll + 4 * 50_000 - 1000);
    r.table.placeItem('seat-1', { uid: '04A1B2C4', grams: 1.8 });
    await r.until(() => eventsOf(r.events, 'tag-arrived').length === 2, 200);
    const t = eventsOf(r.events, 'tag-arrived')[1]?.time;
    expect(t?.rawUs).toBe(poll + 5 * 50_000); // not the poll 1 ms after the placing: the tag was still waking
    expect(t?.beforeUs).toBe(50_000 + DEFAULT_SENSOR_TIMING.tagPowerUpUs);
    // [t − window, t] alone would miss it by 1 ms; the power-up allowance puts it back inside.
    expect(placedUs).toBeLessThan((t?.deviceUs ?? 0) - 50_000);
    expect(placedUs).toBeGreaterThanOrEqual((t?.deviceUs ?? 0) - (t?.beforeUs ?? 0));
  });

  it('sends TAG- with the window since the last read, and follows a configured poll period', async () => {
    const r = await started({ seats: 1, stationDefaults: { rfidPollMs: 20 } });
    r.table.placeItem('seat-1', { uid: '04A1B2C3', grams: 1.8 });
    await r.until(() => eventsOf(r.events, 'tag-arrived').length === 1, 200);
    expect(eventsOf(r.events, 'tag-arrived')[0]?.time.beforeUs).toBe(20_000 + DEFAULT_SENSOR_TIMING.tagPowerUpUs);
    await r.time.advance(55);
    const liftedUs = micros(r, 'seat-1');
    r.table.liftItem('seat-1', '04A1B2C3');
    await r.until(() => eventsOf(r.events, 'tag-left').length === 1, 200);
    const t = eventsOf(r.events, 'tag-left')[0]?.time;
    expect(t?.beforeUs).toBe(20_000);
    expect(liftedUs).toBeGreaterThanOrEqual((t?.deviceUs ?? 0) - (t?.beforeUs ?? 0));
    expect(liftedUs).toBeLessThanOrEqual(t?.deviceUs ?? 0);
  });

  it('dates a card on a pile with a slap sensor by its slap: µs, not the poll window', async () => {
    const r = await started({ stations: [{ id: 'seat-1' }, { id: 'pile', kind: 'pile', slapSensor: true }] });
    await r.time.advance(123);
    const hitUs = micros(r, 'pile');
    r.table.tapCard('pile', '04112233445566', 400);
    await r.until(() => eventsOf(r.events, 'tag-arrived', 'pile').length === 1, 300);
    const [slap] = eventsOf(r.events, 'slap', 'pile');
    const [arrival] = eventsOf(r.events, 'tag-arrived', 'pile');
    if (arrival === undefined || slap === undefined) return expect.fail('no slap or arrival');
    expect(slap.time.rawUs).toBe(hitUs);
    expect(arrival.slap?.time).toEqual(slap.time);
    const landing = landingTime(arrival);
    expect(landing.beforeUs).toBe(DEFAULT_SENSOR_TIMING.isrLatencyUs);
    expect(landing.deviceUs).toBe(hitUs);
    // The read itself still says when it was read, with its poll window.
    expect(arrival.time.beforeUs).toBeGreaterThan(40_000);
  });

  it('sends no slap from a seat without the sensor, nor from a protocol-1 station', async () => {
    const r = await started({ stations: [{ id: 'seat-1' }, { id: 'old', kind: 'pile', slapSensor: true, protocol: 1, firmware: '0.2.0' }] });
    r.table.tapCard('seat-1', '04A1B2C3', 400);
    r.table.tapCard('old', '04A1B2C4', 400);
    await r.until(() => eventsOf(r.events, 'tag-arrived').length === 2, 300);
    expect(eventsOf(r.events, 'slap')).toEqual([]);
    // A protocol-1 line has no window: the driver assumes the longest inventory cycle.
    const old = eventsOf(r.events, 'tag-arrived', 'old')[0];
    expect(old?.time.beforeUs).toBe(DEFAULT_SENSOR_TIMING.legacyTagCycleUs + DEFAULT_SENSOR_TIMING.tagPowerUpUs);
    expect(r.health('old')).toMatchObject({ firmware: '0.2.0', protocol: 1 });
  });

  it('reports a knock that no tag follows (logged by the driver, delivered as a slap to be logged by the table)', async () => {
    const r = await started({ stations: [{ id: 'pile', kind: 'pile', slapSensor: true }] });
    r.table.knock('pile');
    await r.until(() => r.log.some((l) => l.message.includes('knock')), 1000);
    expect(eventsOf(r.events, 'slap', 'pile')).toHaveLength(1);
    expect(eventsOf(r.events, 'tag-arrived')).toEqual([]);
  });
});

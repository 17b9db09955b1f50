/**
 * The simulated station speaks protocol 2 like firmware 0.4.0: its banner, `TAG±` with the window its polling
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
  it('announces firmware 0.4.0 and protocol 2', async () => {
    const r = await started({ seats: 1 });
    expect(r.health('seat-1')).toMatchObject({ firmware: '0.4.0', protocol: PROTOCOL_VERSION });
    expect(PROTOCOL_VERSION).toBe(2);
  });

  it('sends TAG+ with the window since the poll before it (a step), and the arrival interval holds the placing', async () => {
    const r = await started({ seats: 1 });
    for (let i = 0; i < 12; i++) {
      await r.time.advance(37 + i * 0.7); // placings at every phase of the 3 ms poll
      const placedUs = micros(r, 'seat-1');
      const uid = `04A1B2${(0xc0 + i).toString(16).toUpperCase()}`;
      r.table.placeItem('seat-1', { uid, grams: 1.8 });
      await r.until(() => eventsOf(r.events, 'tag-arrived').some((e) => e.uid === uid), 200);
      const t = eventsOf(r.events, 'tag-arrived').find((e) => e.uid === uid)?.time;
      if (t === undefined) return expect.fail('no arrival');
      // The poll before this one found no new tag: a window of one step; the host adds the power-up.
      expect(t.beforeUs).toBe(3000 + DEFAULT_SENSOR_TIMING.tagPowerUpUs);
      expect(placedUs).toBeGreaterThanOrEqual(t.deviceUs - t.beforeUs);
      expect(placedUs).toBeLessThanOrEqual(t.deviceUs);
      // Read by the first poll at least the tag's power-up (2.5 ms) after it entered the field.
      expect(t.deviceUs - placedUs).toBeGreaterThanOrEqual(2500);
      expect(t.deviceUs - placedUs).toBeLessThan(2500 + 3000 + 4);
    }
  });

  it('reads a card placed 1 ms before a poll only at the next one (power-up): the host\'s power-up allowance keeps it inside', async () => {
    const r = await started({ seats: 1 });
    r.table.placeItem('seat-1', { uid: '04A1B2C3', grams: 1.8 });
    await r.until(() => eventsOf(r.events, 'tag-arrived').length === 1, 200);
    const poll = eventsOf(r.events, 'tag-arrived')[0]?.time.rawUs ?? 0; // polls every 3000 µs from here
    await r.time.advance((poll + 20 * 3000 - 1000 - micros(r, 'seat-1')) / 1000);
    const placedUs = micros(r, 'seat-1');
    expect(placedUs).toBe(poll + 20 * 3000 - 1000);
    r.table.placeItem('seat-1', { uid: '04A1B2C4', grams: 1.8 });
    await r.until(() => eventsOf(r.events, 'tag-arrived').length === 2, 200);
    const t = eventsOf(r.events, 'tag-arrived')[1]?.time;
    expect(t?.rawUs).toBe(poll + 21 * 3000); // not the poll 1 ms after the placing: the tag was still waking
    expect(t?.beforeUs).toBe(3000 + DEFAULT_SENSOR_TIMING.tagPowerUpUs);
    // [t − window, t] alone would miss it by 1 ms; the power-up allowance puts it back inside.
    expect(placedUs).toBeLessThan((t?.deviceUs ?? 0) - 3000);
    expect(placedUs).toBeGreaterThanOrEqual((t?.deviceUs ?? 0) - (t?.beforeUs ?? 0));
  });

  it('reads two cards that landed together at two polls, both windows from the last empty poll', async () => {
    const r = await started({ seats: 1 });
    await r.time.advance(40);
    r.table.placeItem('seat-1', { uid: '04A1B2C3', grams: 1.8 });
    r.table.placeItem('seat-1', { uid: '04A1B2C4', grams: 1.8 });
    await r.until(() => eventsOf(r.events, 'tag-arrived').length === 2, 200);
    const [a, b] = eventsOf(r.events, 'tag-arrived').map((e) => e.time);
    expect((b?.deviceUs ?? 0) - (a?.deviceUs ?? 0)).toBe(3000);
    expect((b?.deviceUs ?? 0) - (b?.beforeUs ?? 0)).toBe((a?.deviceUs ?? 0) - (a?.beforeUs ?? 0));
  });

  it('sends TAG- at the end of the full inventory after two missed checks, its window back to the last check it answered', async () => {
    const r = await started({ seats: 1, stationDefaults: { rfidPollUs: 1000 } });
    await r.time.advance(40); // after the boot's own inventory (a tag read in it gets a window back to the boot)
    r.table.placeItem('seat-1', { uid: '04A1B2C3', grams: 1.8 });
    await r.until(() => eventsOf(r.events, 'tag-arrived').length === 1, 200);
    expect(eventsOf(r.events, 'tag-arrived')[0]?.time.beforeUs).toBe(1000 + DEFAULT_SENSOR_TIMING.tagPowerUpUs);
    await r.time.advance(55);
    const liftedUs = micros(r, 'seat-1');
    r.table.liftItem('seat-1', '04A1B2C3');
    await r.until(() => eventsOf(r.events, 'tag-left').length === 1, 200);
    const t = eventsOf(r.events, 'tag-left')[0]?.time;
    // Firmware 0.4.0: a round of checks (10 ms) back to the last check it answered; the missed check, its repeat
    // a step later, a step to the field reset, 6 ms off and 6 ms on, 3 empty polls (the third at +2 steps).
    expect(t?.beforeUs).toBe(10_000 + 1000 + 1000 + 6000 + 6000 + 2000);
    expect(liftedUs).toBeGreaterThanOrEqual((t?.deviceUs ?? 0) - (t?.beforeUs ?? 0));
    expect(liftedUs).toBeLessThanOrEqual(t?.deviceUs ?? 0);
  });

  it('reads in answer order: a card that powers up first is read first, whatever came into the field first', async () => {
    const r = await started({ seats: 1, stationDefaults: { rfidPollUs: 1000 } });
    await r.time.advance(40);
    const slowUs = micros(r, 'seat-1');
    r.table.tapCard('seat-1', '04A1B2C3', 200, { slap: false, powerUpUs: 7000 });
    await r.time.advance(1);
    const fastUs = micros(r, 'seat-1');
    r.table.tapCard('seat-1', '04A1B2C4', 200, { slap: false, powerUpUs: 1000 });
    await r.until(() => eventsOf(r.events, 'tag-arrived').length === 2, 200);
    const [first, second] = eventsOf(r.events, 'tag-arrived');
    expect(first?.uid).toBe('04A1B2C4');
    expect(second?.uid).toBe('04A1B2C3');
    // The fast card's window starts at the empty poll before its read, before it landed: it holds its landing.
    const fast = first?.time;
    expect(fastUs).toBeGreaterThanOrEqual((fast?.deviceUs ?? 0) - (fast?.beforeUs ?? 0));
    expect(fastUs).toBeLessThanOrEqual(fast?.deviceUs ?? 0);
    // The slow one (a power-up beyond the host's 5 ms allowance) may fall outside: the world's tail, not the reader.
    expect(slowUs).toBeLessThan(second?.time.deviceUs ?? 0);
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
    expect(arrival.time.beforeUs).toBe(3000 + DEFAULT_SENSOR_TIMING.tagPowerUpUs);
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

  it('sends one slap for two cards landing within the sensor\'s dead time: neither read takes its time', async () => {
    const r = await started({ stations: [{ id: 'pile', kind: 'pile', slapSensor: true }] });
    await r.time.advance(50);
    r.table.tapCard('pile', '04112233445566', 400);
    await r.time.advance(1);
    r.table.tapCard('pile', '04112233445577', 400);
    await r.until(() => eventsOf(r.events, 'tag-arrived', 'pile').length === 2, 300);
    expect(eventsOf(r.events, 'slap', 'pile')).toHaveLength(1);
    expect(eventsOf(r.events, 'tag-arrived', 'pile').map((e) => [e.slap, e.slapAmbiguous])).toEqual([
      [undefined, 'several-tags'], [undefined, 'several-tags'],
    ]);
  });

  it('reports a knock that no tag follows (logged by the driver, delivered as a slap to be logged by the table)', async () => {
    const r = await started({ stations: [{ id: 'pile', kind: 'pile', slapSensor: true }] });
    r.table.knock('pile');
    await r.until(() => r.log.some((l) => l.message.includes('knock')), 1000);
    expect(eventsOf(r.events, 'slap', 'pile')).toHaveLength(1);
    expect(eventsOf(r.events, 'tag-arrived')).toEqual([]);
  });
});

// Firmware in the loop end to end: the controller's real serial driver (SerialStations) opens the emulated
// station through the UsartBinding and turns the real firmware's lines into typed SensorEvents.
//
// The driver runs on simulated time: its clock reads the simulator's clock and its timers are simulator
// timers, so the whole run is deterministic, and the driver's device→host time mapping can be checked
// against the simulated time at which the test pressed the button.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SensorEvent, StationHealth } from '../../controller/hardware/interface.ts';
import { silentLogger } from '../../controller/hardware/serial/logger.ts';
import { SerialStations } from '../../controller/hardware/serial/serial-stations.ts';
import { StationEmulator, ensureSeatFirmware } from './station-emulator.ts';
import { UsartBinding } from './usart-binding.ts';

beforeAll(async () => {
  await ensureSeatFirmware();
}, 180_000);

const PATH = '/dev/ttyEMU1';
const ID = 'seat-1';
let stopDriver: (() => Promise<void>) | undefined;

afterEach(async () => {
  await stopDriver?.();
  stopDriver = undefined;
});

function setup(): { station: StationEmulator; hw: SerialStations; events: SensorEvent[]; healths: StationHealth[] } {
  const station = new StationEmulator({ settings: { stationId: ID, boot: 3 }, hx711: { sps: 80, noiseCounts: 30, seed: 3 } });
  const binding = new UsartBinding();
  binding.attach(PATH, station);
  const hw = new SerialStations({
    ports: [PATH], binding, clock: station.simClock(), scheduler: station.simScheduler(), logger: silentLogger,
  });
  const events: SensorEvent[] = [];
  const healths: StationHealth[] = [];
  hw.onEvent((e) => events.push(e));
  hw.onHealth((h) => healths.push(h));
  stopDriver = () => station.until(hw.stop());
  return { station, hw, events, healths };
}

describe('SerialStations over the emulated firmware', () => {
  it('banner → online health; lamp; tag; tare/calibrate → settled weight; button with its time mapped', async () => {
    const { station, hw, events, healths } = setup();
    // The board has been running since it was plugged in (USB enumeration takes longer than its boot).
    await station.waitForBanner();
    await station.until(hw.start());
    expect(await station.runUntil(() => healths.some((h) => h.station === ID && h.online))).toBe(true);
    expect(healths.find((h) => h.online)).toMatchObject({
      station: ID, kind: 'seat', online: true, firmware: '0.3.0', protocol: 2, port: PATH,
    });
    expect(station.runner.resets).toBe(1); // the open reset the board (DTR), as on an Uno

    // Clock sync from the driver's pings.
    const synced = () => hw.health().find((h) => h.station === ID)?.clock !== undefined;
    expect(await station.runUntil(synced, { timeoutUs: 3_000_000 })).toBe(true);

    expect(await station.until(hw.setLamp(ID, 'on'))).toEqual({ ok: true });
    expect(station.lamp).toBe(true);

    station.placeTag('04A1B2C3');
    await station.runUntil(() => events.some((e) => e.kind === 'tag-arrived'));
    const tag = events.find((e) => e.kind === 'tag-arrived');
    expect(tag).toMatchObject({ station: ID, uid: '04A1B2C3' });
    expect(tag?.time.source).toBe('device');

    const tare = await station.until(hw.tare(ID));
    expect(tare.ok).toBe(true);
    station.setWeight(500);
    const cal = await station.until(hw.calibrate(ID, 500));
    expect(cal).toMatchObject({ ok: true });
    station.setWeight(250);
    await station.runUntil(() => events.some((e) => e.kind === 'weight-settled' && Math.abs(e.grams - 250) < 5));
    const weight = events.find((e) => e.kind === 'weight-settled' && Math.abs(e.grams - 250) < 5);
    expect(weight?.kind === 'weight-settled' ? Math.abs(weight.grams - 250) : Infinity).toBeLessThanOrEqual(0.3);

    // The button: the driver maps the device stamp to controller time; the controller clock here *is* the
    // simulated clock, so the mapped time must hold the simulated time of the press.
    await station.runFor(500_000); // more pings
    const pressUs = station.nowUs + 3_333.25;
    station.pressButton(pressUs);
    station.releaseButton(pressUs + 30_000);
    await station.runUntil(() => events.some((e) => e.kind === 'button-released'));
    const pressed = events.find((e) => e.kind === 'button-pressed');
    if (pressed?.kind !== 'button-pressed') throw new Error('no button-pressed event');
    expect(pressed.button).toBe('zap');
    const tapped = station.events('BTN+').at(-1)?.event;
    expect(pressed.time.rawUs).toBe(tapped?.t);
    const error = pressed.time.hostUs - pressUs;
    expect(Number.isFinite(pressed.time.uncertaintyUs)).toBe(true);
    expect(Math.abs(error)).toBeLessThanOrEqual(pressed.time.uncertaintyUs);
    expect(pressed.time.uncertaintyUs).toBeLessThan(3000);

    // Nothing went wrong on the way.
    expect(hw.health().find((h) => h.station === ID)?.errors).toEqual({
      badLines: 0, lostEvents: 0, timeouts: 0, commandErrors: 0, resets: 0, disconnects: 0,
    });
  });
});

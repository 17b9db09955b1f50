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
import { frame } from '../../controller/protocol/index.ts';
import { StationEmulator, ensureSeatFirmware } from './station-emulator.ts';
import { UsartBinding } from './usart-binding.ts';
import { ntagUids } from './ntag-uids.ts';

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

describe('one command in flight (hardware/protocol.md): the station reads no input during an RFID step', () => {
  it('commands fired back to back with 4 cards resting and 4 more landing: each waits for the previous reply; none lost or garbled', async () => {
    const { station, hw, healths } = setup();
    await station.waitForBanner();
    await station.until(hw.start());
    expect(await station.runUntil(() => healths.some((h) => h.station === ID && h.online))).toBe(true);
    const cards = ntagUids(8, 4242);
    for (const uid of cards.slice(0, 4)) station.placeTag(uid);
    await station.runFor(300_000);
    // 4 more cards land while the commands go out: reading each keeps the loop away for ~5-10 ms, longer than
    // the 64-byte receive buffer lasts at 115200 baud (5.6 ms) if a host sent several lines at once.
    for (const uid of cards.slice(4)) station.placeTag(uid);
    const fromLine = station.lines.length;
    const fromNewline = station.newlinesReceivedUs.length;
    const results = await station.until(Promise.all([
      hw.setLamp(ID, 'on'), hw.scale(ID), hw.info(ID), hw.raw(ID), hw.setLamp(ID, 'blink-fast'), hw.info(ID),
      hw.scale(ID), hw.setLamp(ID, 'off'), hw.info(ID), hw.scale(ID), hw.raw(ID), hw.setLamp(ID, 'on'),
    ]));
    expect(results.map((r) => r.ok)).toEqual(results.map(() => true));
    // On the wire: every command line reached the station only after the reply to the one before had been
    // sent (the driver's queue keeps one in flight), so the receive buffer never held two.
    const replies = station.lines.slice(fromLine).filter((l) => /^(ok|err) /.test(l.text));
    const newlines = station.newlinesReceivedUs.slice(fromNewline);
    // The 8 commands other than the lamp each went out; of the 4 lamp commands, one still waiting is replaced
    // by a newer one (CommandQueue's slot: only the newest pattern matters), so at least the first or the last.
    const lamps = 4;
    expect(replies.length).toBeGreaterThanOrEqual(results.length - lamps + 1);
    await station.runFor(50_000);
    expect(station.lamp).toBe(true); // the newest pattern, `on`, is the one the station shows
    expect(newlines.length).toBe(replies.length); // pings of the clock sync go through the same queue
    for (let i = 1; i < newlines.length; i++) {
      expect(newlines[i] ?? Number.NaN).toBeGreaterThan(replies[i - 1]?.endUs ?? Infinity);
    }
    expect(replies.every((l) => l.text.startsWith('ok '))).toBe(true);
    expect(station.events('TAG+').length).toBeGreaterThanOrEqual(8);
    expect(hw.health().find((h) => h.station === ID)?.errors).toEqual({
      badLines: 0, lostEvents: 0, timeouts: 0, commandErrors: 0, resets: 0, disconnects: 0,
    });
  });

  it('why: lines written all at once while new cards are being read overflow the 64-byte buffer and come out garbled', async () => {
    const station = new StationEmulator({ settings: { stationId: ID } });
    await station.waitForBanner();
    const cards = ntagUids(8, 99);
    for (const uid of cards) station.placeTag(uid); // 8 reads in a row, ~5-10 ms each
    await station.runUntil(() => station.rfid.polls().some((p) => p.answers > 0), { timeoutUs: 1_000_000 });
    const from = station.lines.length;
    const burst = Array.from({ length: 12 }, (_, i) => frame(`${100 + i} info`)).join('\n');
    station.sendLine(burst); // 12 lines in one write: ~170 bytes, no waiting for replies
    await station.runFor(300_000);
    const replies = station.lines.slice(from).filter((l) => /^(ok|err) /.test(l.text)).map((l) => l.text);
    const ok = replies.filter((r) => r.startsWith('ok ')).length;
    if (process.env['ZT_EMULATOR_REPORT']) console.info(`12 lines at once during reads: ${ok} ok, ${replies.length - ok} err`);
    expect(ok).toBeLessThan(12); // some were lost or garbled
  });
});

describe('SerialStations over the emulated firmware', () => {
  it('banner → online health; lamp; tag; tare/calibrate → settled weight; button with its time mapped', async () => {
    const { station, hw, events, healths } = setup();
    // The board has been running since it was plugged in (USB enumeration takes longer than its boot).
    await station.waitForBanner();
    await station.until(hw.start());
    expect(await station.runUntil(() => healths.some((h) => h.station === ID && h.online))).toBe(true);
    expect(healths.find((h) => h.online)).toMatchObject({
      station: ID, kind: 'seat', online: true, firmware: '0.4.0', protocol: 2, port: PATH,
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

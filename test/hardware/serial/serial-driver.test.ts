/**
 * The serial driver against the simulated table on serialport's mock binding, on virtual time: line
 * splitting on the real port path, the banner wait, identification by banner id, bad lines, command
 * errors and timeouts, lost events, restarts, unplugging and the reconnect backoff, mapped event times.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { backoffDelayMs, DEFAULT_BACKOFF } from '../../../controller/hardware/serial/backoff.ts';
import type { PortStatus } from '../../../controller/hardware/serial/port-supervisor.ts';
import { landingTime, type SensorEvent } from '../../../controller/hardware/interface.ts';
import { DEFAULT_SENSOR_TIMING } from '../../../controller/hardware/serial/event-interval.ts';
import { formatDeviceLine, frame } from '../../../controller/protocol/index.ts';
import { eventsOf, rig, type Rig } from './harness.ts';

let current: Rig | undefined;

function setUp(...args: Parameters<typeof rig>): Rig {
  current = rig(...args);
  return current;
}

afterEach(async () => {
  await current?.stop();
  current = undefined;
});

/** An event line as station `station` would send it next (its next sequence number, its `micros()` now). */
function nextEventLine(r: Rig, station: string, uid: string, seq: number): string {
  return `${formatDeviceLine({ type: 'event', seq, t: r.table.micros(station), event: 'TAG+', uid })}\n`;
}

function lastSeq(r: Rig, station: string): number {
  return Math.max(...r.events.filter((e) => e.station === station).map((e) => e.seq ?? -1));
}

describe('lines on the real port path (parser-readline over the mock binding)', () => {
  it('decodes a line delivered in chunks of every size, split at every point, and several lines in one chunk', async () => {
    const r = setUp({ seats: 1 });
    await r.startAll();
    await r.until(() => eventsOf(r.events, 'weight-settled').length === 1); // the boot's `W 0.0 S`, seq 0
    let seq = lastSeq(r, 'seat-1');
    const deliveries: number[][] = [];
    const length = nextEventLine(r, 'seat-1', '04A1B2C3', 1).length;
    for (let size = 1; size <= length; size++) deliveries.push([size]);
    for (let at = 1; at < length; at++) deliveries.push([at, length - at]);
    for (const chunkSizes of deliveries) {
      seq++;
      const uid = `04${seq.toString(16).toUpperCase().padStart(6, '0')}`;
      const before = r.events.length;
      r.table.injectGarbage('seat-1', nextEventLine(r, 'seat-1', uid, seq), { chunkSizes });
      await r.until(() => r.events.length > before, 100);
      expect(r.events.at(-1), `chunks ${chunkSizes.join('+')}`).toMatchObject({ kind: 'tag-arrived', uid, seq });
    }
    const three = [1, 2, 3].map((i) => nextEventLine(r, 'seat-1', `0A0B0C0${i}`, seq + i)).join('');
    r.table.injectGarbage('seat-1', three, { chunkSizes: [three.length] });
    await r.until(() => eventsOf(r.events, 'tag-arrived').length === deliveries.length + 3, 100);
    expect(r.health('seat-1').errors).toMatchObject({ badLines: 0, lostEvents: 0 });
  });
});

describe('banner wait', () => {
  it('waits through a real bootloader pause (1.6 s) and identifies the station by its banner', async () => {
    const r = setUp({ stations: [{ id: 'seat-1', bootloaderMs: 1600 }] });
    await r.hardware.start();
    await r.time.advance(1500);
    expect(r.hardware.ports()[0]?.state).toBe('waiting-banner');
    expect(r.hardware.health()).toEqual([]);
    await r.until(() => r.hardware.health()[0]?.online === true, 200);
    expect(r.log.some((l) => l.message.includes('online') && l.fields?.via === 'banner')).toBe(true);
  });

  it('accepts a banner later than the wait: `info` is lost in the bootloader, the banner identifies', async () => {
    const r = setUp({ stations: [{ id: 'seat-1', bootloaderMs: 4500 }] });
    await r.hardware.start();
    await r.until(() => r.hardware.health()[0]?.online === true, 6000);
    expect(r.log.find((l) => l.message.includes('online'))?.fields?.via).toBe('banner');
    // The `info` sent at 3 s was eaten by the bootloader and timed out on the port, not on a station.
    await r.time.advance(3000);
    expect(r.hardware.ports()[0]).toMatchObject({ state: 'identified', station: 'seat-1' });
    expect(r.health('seat-1').errors.timeouts).toBe(0);
  });

  it('identifies a board that does not reset on open (its banner went nowhere) by asking `info`', async () => {
    const r = setUp({ stations: [{ id: 'seat-1', resetOnOpen: false }] });
    await r.time.advance(500); // booted and printed its banner before anyone opened the port
    await r.hardware.start();
    await r.time.advance(2900);
    expect(r.hardware.health()).toEqual([]);
    await r.until(() => r.hardware.health()[0]?.online === true, 500);
    expect(r.log.find((l) => l.message.includes('online'))?.fields?.via).toBe('info');
    r.table.pressButton('seat-1');
    await r.until(() => eventsOf(r.events, 'button-pressed').length === 1, 500);
  });

  it('reports a port where nothing answers (no banner, no `info`) and keeps running', async () => {
    const r = setUp({ stations: [{ id: 'mystery', silent: true }, { id: 'seat-2' }] });
    await r.hardware.start();
    await r.time.advance(7000);
    const mystery = r.hardware.ports().find((p) => p.path === r.table.path('mystery'));
    expect(mystery).toMatchObject({ state: 'no-banner', timeouts: 1 });
    expect(r.portReports.some((p) => p.state === 'no-banner')).toBe(true);
    expect(r.log.some((l) => l.level === 'warn' && l.message.includes('no banner'))).toBe(true);
    expect(r.hardware.health().map((h) => h.station)).toEqual(['seat-2']);
  });
});

describe('identification by banner id, not port', () => {
  it('keeps a station\'s id, counters and history when it comes back on another port', async () => {
    const r = setUp({ seats: 1 });
    await r.startAll();
    const oldPath = r.table.path('seat-1');
    r.table.unplug('seat-1');
    await r.until(() => !r.health('seat-1').online, 100);
    r.table.plugIn('seat-1', { path: '/dev/zaptable-sim/moved/ttyACM7' });
    await r.until(() => r.health('seat-1').online, 5000);
    expect(r.health('seat-1')).toMatchObject({ port: '/dev/zaptable-sim/moved/ttyACM7', errors: { disconnects: 1 } });
    expect(r.hardware.health()).toHaveLength(1);
    expect(r.hardware.ports().find((p) => p.path === oldPath)?.state).toBe('retrying');
    r.table.pressButton('seat-1');
    await r.until(() => eventsOf(r.events, 'button-pressed', 'seat-1').length === 1, 500);
  });

  it('refuses a second port announcing an id that is online elsewhere, and ignores its lines', async () => {
    const r = setUp({ seats: 2 });
    await r.startAll();
    // Someone gives seat-2 the id of seat-1 (e.g. with the calibration tool) and resets it.
    const renamed = await r.time.settle(r.hardware.setStationId('seat-2', 'seat-1'));
    expect(renamed).toEqual({ ok: true, station: 'seat-1' });
    r.table.reset('seat-2');
    await r.until(() => r.hardware.ports().some((p) => p.state === 'refused'), 3000);
    const refused = r.hardware.ports().find((p) => p.path === r.table.path('seat-2')) as PortStatus;
    expect(refused).toMatchObject({ state: 'refused', station: 'seat-1', refusal: 'duplicate-id' });
    expect(r.health('seat-1')).toMatchObject({ online: true, port: r.table.path('seat-1') });
    expect(r.health('seat-2').online).toBe(false); // its old id went offline when it announced another
    r.table.pressButton('seat-2');
    await r.time.advance(500);
    expect(eventsOf(r.events, 'button-pressed')).toEqual([]);
    expect(r.log.some((l) => l.message.includes('already online'))).toBe(true);
  });

  it('refuses a station speaking another protocol version', async () => {
    const r = setUp({ stations: [{ id: 'future', protocol: 3 }] });
    await r.hardware.start();
    await r.until(() => r.hardware.ports()[0]?.state === 'refused', 3000);
    expect(r.hardware.ports()[0]).toMatchObject({ station: 'future', refusal: 'protocol-version' });
    expect(r.hardware.health()).toEqual([]);
  });
});

describe('bad lines are counted and logged, never acted on', () => {
  it('ignores a bad checksum, garbage, binary noise and overlong lines without touching any state', async () => {
    const r = setUp({ seats: 1 });
    await r.startAll();
    await r.until(() => eventsOf(r.events, 'weight-settled').length === 1);
    const seq = lastSeq(r, 'seat-1');
    const eventsBefore = r.events.length;
    const valid = nextEventLine(r, 'seat-1', '04A1B2C3', seq + 1);
    const badCrc = valid.replace('04A1B2C3', '04A1B2C4'); // one nibble flipped, old checksum
    const noise = Buffer.from(Array.from({ length: 40 }, (_, i) => (i * 37 + 11) % 256).map((b) => (b === 0x0a ? 0x0b : b)));
    r.table.injectGarbage('seat-1', badCrc);
    r.table.injectGarbage('seat-1', 'hello world\n');
    r.table.injectGarbage('seat-1', Buffer.concat([noise, Buffer.from('\n')]));
    r.table.injectGarbage('seat-1', `${'E 1 2 TAG+ 04A1B2C3 '.repeat(6)}*00\n`); // 123 bytes: delivered, LINE_TOO_LONG
    r.table.injectGarbage('seat-1', `${'x'.repeat(3000)}\n`); // cut by the parser's bound, counted once
    r.table.injectGarbage('seat-1', `${frame(`E ${seq + 1} 5 ZAP`)}\n`); // well framed, unknown event
    await r.until(() => r.health('seat-1').errors.badLines === 6, 1000); // 3 kB take 0.26 s on the wire
    const codes = r.log.filter((l) => l.message.includes('bad line')).map((l) => l.fields?.error);
    expect(codes).toEqual(['CHECKSUM_MISMATCH', 'CHECKSUM_MISSING', 'BAD_CHARACTER', 'LINE_TOO_LONG', 'LINE_TOO_LONG', 'UNKNOWN_KEYWORD']);
    expect(r.events).toHaveLength(eventsBefore);
    expect(r.health('seat-1')).toMatchObject({ online: true, errors: { lostEvents: 0, resets: 0, timeouts: 0, commandErrors: 0 } });
    // The stream is still in step: the next good line is taken (its number follows the last good one).
    r.table.injectGarbage('seat-1', valid);
    await r.until(() => r.events.length > eventsBefore, 100);
    expect(r.events.at(-1)).toMatchObject({ kind: 'tag-arrived', uid: '04A1B2C3', seq: seq + 1 });
    expect(r.health('seat-1').errors.lostEvents).toBe(0);
  });
});

describe('commands', () => {
  it('returns the station\'s `err` codes by name and counts them; refuses bad arguments without sending', async () => {
    const r = setUp({ seats: 1, pile: true });
    await r.startAll();
    await expect(r.time.settle(r.hardware.calibrate('seat-1', 0))).resolves.toMatchObject({ ok: false, code: 'INVALID_ARGUMENT' });
    await expect(r.time.settle(r.hardware.setStationId('seat-1', 'no spaces'))).resolves.toMatchObject({ ok: false, code: 'INVALID_ARGUMENT' });
    // Nothing on the pad after a tare: the known mass "moved" nothing, the station refuses with 11.
    await expect(r.time.settle(r.hardware.tare('seat-1'))).resolves.toEqual({ ok: true, tareCounts: 84_213 });
    await expect(r.time.settle(r.hardware.calibrate('seat-1', 500))).resolves.toMatchObject({ ok: false, code: 'CALIBRATION_FAILED' });
    await expect(r.time.settle(r.hardware.sendLine('pile', frame('1 tare')))).resolves.toMatchObject({ ok: false, code: 'NOT_SUPPORTED' });
    await expect(r.time.settle(r.hardware.tare('pile'))).resolves.toMatchObject({ ok: false, code: 'NOT_SUPPORTED' });
    await expect(r.time.settle(r.hardware.setLamp('nobody', 'on'))).resolves.toMatchObject({ ok: false, code: 'UNKNOWN_STATION' });
    expect(r.health('seat-1').errors.commandErrors).toBe(1);
    expect(r.health('pile').errors.commandErrors).toBe(1);
    const sent = r.table.commands('seat-1').map((c) => c.command?.verb).filter((v) => v !== 'ping');
    expect(sent).toEqual(['tare', 'calibrate']);
  });

  it('counts a timeout, moves on, and does not take the late reply for the next command\'s answer', async () => {
    const r = setUp({ seats: 1, driver: { timing: { commandTimeoutMs: 500 } } });
    await r.startAll();
    // `tare` takes ~0.8 s on the station: longer than this driver's 0.5 s timeout.
    const tare = r.hardware.tare('seat-1');
    const info = r.hardware.info('seat-1');
    await expect(r.time.settle(tare)).resolves.toMatchObject({ ok: false, code: 'TIMEOUT' });
    await expect(r.time.settle(info)).resolves.toMatchObject({ ok: true, station: 'seat-1' });
    await r.time.advance(1000);
    expect(r.health('seat-1').errors).toMatchObject({ timeouts: 1, commandErrors: 0 });
    expect(r.log.some((l) => l.message.includes('reply to no command') && String(l.fields?.line).includes('tare='))).toBe(true);
  });

  it('counts a lost reply as a timeout', async () => {
    const r = setUp({ seats: 1, driver: { ping: { intervalMs: 60_000 } } });
    await r.startAll();
    await r.time.advance(500); // the ping burst is over
    r.table.dropLines('seat-1', 1, { only: 'any' });
    await expect(r.time.settle(r.hardware.setLamp('seat-1', 'on'))).resolves.toMatchObject({ ok: false, code: 'TIMEOUT' });
    expect(r.table.lamp('seat-1').mode).toBe('on'); // the station did it; only its answer was lost
    expect(r.health('seat-1').errors.timeouts).toBe(1);
  });
});

describe('sequence numbers, restarts and time', () => {
  it('counts lost events from a sequence gap', async () => {
    const r = setUp({ seats: 1 });
    await r.startAll();
    r.table.dropLines('seat-1', 2);
    r.table.pressButton('seat-1', { holdMs: 50 }); // BTN+ and BTN- are lost
    await r.time.advance(200);
    r.table.pressButton('seat-1', { holdMs: 50 });
    await r.until(() => eventsOf(r.events, 'button-released').length === 1, 500);
    expect(eventsOf(r.events, 'button-pressed')).toHaveLength(1);
    expect(r.health('seat-1').errors.lostEvents).toBe(2);
    expect(r.healthReports.some((h) => h.errors.lostEvents === 2)).toBe(true);
  });

  it('takes a new banner (restart) as a new epoch, counts it, and maps times again', async () => {
    const r = setUp({ seats: 1 });
    await r.startAll();
    r.table.pressButton('seat-1');
    await r.until(() => eventsOf(r.events, 'button-pressed').length === 1, 500);
    expect(r.health('seat-1')).toMatchObject({ boot: 1, epoch: 0, errors: { resets: 0 } });
    r.table.reset('seat-1');
    await r.until(() => r.health('seat-1').boot === 2 && r.health('seat-1').errors.resets === 1, 3000);
    await r.time.advance(300);
    r.table.pressButton('seat-1');
    await r.until(() => eventsOf(r.events, 'button-pressed').length === 2, 500);
    const [before, after] = eventsOf(r.events, 'button-pressed');
    expect(before?.time.epoch).toBe(0);
    expect(after?.time.epoch).toBe(1);
    expect(after?.time.uncertaintyUs).toBeLessThan(2000);
    expect(r.health('seat-1')).toMatchObject({ epoch: 1, errors: { resets: 1, lostEvents: 0 } });
  });

  it('takes any banner as a restart, even one repeating the boot counter (an EEPROM that failed to count)', async () => {
    const r = setUp({ seats: 1 });
    await r.startAll();
    await r.time.advance(500);
    r.table.injectGarbage('seat-1', `${formatDeviceLine({ type: 'banner', fw: '0.1.0', proto: 1, kind: 'seat', station: 'seat-1', boot: 1 })}\n`);
    await r.until(() => r.health('seat-1').errors.resets === 1, 1000);
    expect(r.health('seat-1')).toMatchObject({ boot: 1, epoch: 1 });
  });

  it('stamps events with device time and maps them to controller time within the stated uncertainty', async () => {
    // A ceramic resonator 0.3 % fast, and micros() 8 s before its 32-bit wrap at the first boot (a board
    // that does not reset on open, so the driver meets it mid-run, identifies it by `info` after 3 s).
    const r = setUp({ stations: [{ id: 'seat-1', skewPpm: 3000, firstBootMicros: 2 ** 32 - 8_000_000, resetOnOpen: false }] });
    await r.time.advance(300);
    await r.startAll();
    expect(r.table.micros('seat-1')).toBeGreaterThan(2 ** 32 - 8_000_000);
    await r.time.advance(6000);
    const pressedAtUs = r.time.nowUs();
    r.table.pressButton('seat-1');
    await r.until(() => eventsOf(r.events, 'button-pressed').length === 1, 500);
    const time = eventsOf(r.events, 'button-pressed')[0]?.time;
    expect(time?.source).toBe('device');
    expect(Number.isFinite(time?.uncertaintyUs)).toBe(true);
    expect(time?.uncertaintyUs).toBeLessThan(1000);
    expect(Math.abs((time?.hostUs ?? 0) - pressedAtUs)).toBeLessThanOrEqual(time?.uncertaintyUs ?? 0);
    // Past the wrap: the raw stamp is small again, the unwrapped time keeps counting.
    expect(time?.rawUs).toBeLessThan(10_000_000);
    expect(time?.deviceUs).toBeGreaterThan(2 ** 32);
    expect(r.health('seat-1').clock?.driftPpm).toBeCloseTo(3000, -2);
  });
});

describe('sensor intervals', () => {
  it('gives every event the interval its sensor allows, from the configured allowances (protocol 2 and 1 tag lines)', async () => {
    const sensorTiming = { isrLatencyUs: 70, tagPowerUpUs: 3000, legacyTagCycleUs: 140_000, weightWindowUs: 550_000 };
    const r = setUp({ seats: 1, driver: { sensorTiming } });
    await r.startAll();
    await r.until(() => eventsOf(r.events, 'weight-settled').length === 1);
    expect(eventsOf(r.events, 'weight-settled')[0]?.time).toMatchObject({ beforeUs: 550_000, afterUs: 0 });
    let seq = lastSeq(r, 'seat-1');
    const send = (payload: string): void => {
      r.table.injectGarbage('seat-1', `${frame(`E ${++seq} ${r.table.micros('seat-1')} ${payload}`)}\n`);
    };
    const before = r.events.length;
    send('TAG+ 04A1B2C3 12480'); // protocol 2: the window since the last poll that found no new tag
    send('TAG- 04A1B2C3 20000');
    send('TAG+ 04A1B2C4'); // protocol 1: no window, the longest inventory cycle is assumed
    send('TAG- 04A1B2C4');
    send('BTN+');
    await r.until(() => r.events.length === before + 5, 200);
    expect(r.events.slice(before).map((e) => [e.kind, e.time.beforeUs, e.time.afterUs])).toEqual([
      ['tag-arrived', 12_480 + 3000, 0],
      ['tag-left', 20_000, 0],
      ['tag-arrived', 140_000 + 3000, 0],
      ['tag-left', 2 * 140_000, 0],
      ['button-pressed', 70, 0],
    ]);
  });
});

describe('slap matching in the driver', () => {
  it('delivers a slap, holds the TAG+ that follows until a ping reply covers its burst, then dates it by the slap', async () => {
    // Regular pings once a second: the prompt release comes from the ping the driver sends for it.
    const r = setUp({ seats: 1, driver: { ping: { intervalMs: 1000 } } });
    await r.startAll();
    await r.until(() => eventsOf(r.events, 'weight-settled').length === 1);
    let seq = lastSeq(r, 'seat-1');
    const send = (t: number, payload: string): void => {
      r.table.injectGarbage('seat-1', `${frame(`E ${++seq} ${t} ${payload}`)}\n`);
    };
    // The card hit the pad 12 ms ago; the poll that read it is now (its window reaches 20 ms back).
    const t0 = r.table.micros('seat-1') - 12_000;
    const before = r.events.length;
    send(t0, 'SLAP');
    send(t0 + 12_000, 'TAG+ 04A1B2C3 20000');
    const sentUs = r.time.nowUs();
    await r.until(() => eventsOf(r.events, 'slap').length === 1, 100);
    await r.time.advance(10);
    expect(eventsOf(r.events, 'tag-arrived')).toEqual([]); // waiting: another tag of the same poll may follow
    await r.until(() => eventsOf(r.events, 'tag-arrived').length === 1, 100);
    // The tag's burst (30 ms past its stamp) and one ping's round trip; not the next regular ping (1 s).
    expect(r.time.nowUs() - sentUs).toBeLessThan(45_000);
    const [slap] = eventsOf(r.events, 'slap');
    const [arrival] = eventsOf(r.events, 'tag-arrived');
    expect(slap?.time).toMatchObject({ rawUs: t0, beforeUs: DEFAULT_SENSOR_TIMING.isrLatencyUs });
    expect(arrival).toMatchObject({ uid: '04A1B2C3', slap: { seq: slap?.seq, time: slap?.time }, time: { rawUs: t0 + 12_000 } });
    expect(landingTime(arrival as SensorEvent)).toBe(slap?.time);
    // Released by a ping reply well before the last-resort timeout.
    expect(r.events.slice(before).map((e) => e.kind)).toEqual(['slap', 'tag-arrived']);
    expect(r.log.some((l) => l.message.includes('knock'))).toBe(false);
  });

  it('dates two tags of one window by their windows when one slap fits both, and logs a knock that no tag followed', async () => {
    const r = setUp({ seats: 1 });
    await r.startAll();
    await r.until(() => eventsOf(r.events, 'weight-settled').length === 1);
    let seq = lastSeq(r, 'seat-1');
    const send = (t: number, payload: string): void => {
      r.table.injectGarbage('seat-1', `${frame(`E ${++seq} ${t} ${payload}`)}\n`);
    };
    const t0 = r.table.micros('seat-1');
    send(t0, 'SLAP');
    send(t0 + 12_000, 'TAG+ 04A1B2C3 20000');
    send(t0 + 19_000, 'TAG+ 04A1B2C4 27000');
    await r.until(() => eventsOf(r.events, 'tag-arrived').length === 2, 200);
    expect(eventsOf(r.events, 'tag-arrived').map((e) => [e.uid, e.slap, e.slapAmbiguous])).toEqual([
      ['04A1B2C3', undefined, 'several-tags'], ['04A1B2C4', undefined, 'several-tags'],
    ]);
    send(r.table.micros('seat-1'), 'SLAP');
    await r.until(() => r.log.some((l) => l.message.includes('knock')), 1000);
    expect(eventsOf(r.events, 'slap')).toHaveLength(2);
  });
});

describe('unplugging and reconnecting', () => {
  it('goes offline, retries with exponential backoff (250 ms doubling to 8 s), and comes back online', async () => {
    const r = setUp({ seats: 1, driver: { random: () => 0, discovery: undefined } });
    await r.startAll();
    r.table.unplug('seat-1');
    await r.until(() => !r.health('seat-1').online, 100);
    expect(r.health('seat-1').errors.disconnects).toBe(1);
    await r.time.advance(20_000);
    const delays = r.portReports.filter((p) => p.state === 'retrying').map((p) => p.retryInMs);
    expect(delays.slice(0, 7)).toEqual([250, 500, 1000, 2000, 4000, 8000, 8000]);
    r.table.plugIn('seat-1');
    await r.until(() => r.health('seat-1').online, 8000 + 1000);
    expect(r.hardware.ports()[0]).toMatchObject({ state: 'identified', attempts: 0 });
    // The backoff starts over once the station is back.
    const reports = r.portReports.length;
    r.table.unplug('seat-1');
    await r.until(() => r.portReports.slice(reports).some((p) => p.state === 'retrying'), 100);
    expect(r.portReports.slice(reports).find((p) => p.state === 'retrying')?.retryInMs).toBe(250);
    expect(r.health('seat-1').errors.disconnects).toBe(2);
  });

  it('jitters the backoff delays with the injected random source, never above the cap', () => {
    expect(backoffDelayMs(DEFAULT_BACKOFF, 0, () => 0)).toBe(250);
    expect(backoffDelayMs(DEFAULT_BACKOFF, 0, () => 0.999)).toBe(200);
    expect(backoffDelayMs(DEFAULT_BACKOFF, 3, () => 0.5)).toBe(1800);
    for (let attempt = 0; attempt < 40; attempt++) {
      expect(backoffDelayMs(DEFAULT_BACKOFF, attempt, () => 0)).toBeLessThanOrEqual(8000);
    }
  });

  it('finds a station plugged in after start by discovery (USB vendor id)', async () => {
    const r = setUp({ stations: [{ id: 'seat-1' }, { id: 'late', plugged: false }], driver: { ports: [] } });
    await r.hardware.start();
    await r.until(() => r.hardware.health().some((h) => h.station === 'seat-1' && h.online), 3000);
    r.table.plugIn('late');
    await r.until(() => r.hardware.health().some((h) => h.station === 'late' && h.online), 5000);
    expect(r.hardware.ports().every((p) => p.discovered)).toBe(true);
  });
});

describe('lifecycle', () => {
  it('rejects a configuration without ports or discovery', async () => {
    const r = setUp({ seats: 1, driver: { ports: [], discovery: undefined } });
    await expect(r.hardware.start()).rejects.toThrow(/ports.*discovery/);
  });

  it('stop() closes every port and clears every timer; calling it twice is safe', async () => {
    const r = setUp({ seats: 2 });
    await r.startAll();
    await Promise.all([r.hardware.stop(), r.hardware.stop()]);
    await r.hardware.stop();
    expect(r.hardware.health().every((h) => !h.online)).toBe(true);
    expect(r.hardware.ports().every((p) => p.state === 'stopped')).toBe(true);
    expect(r.table.paths().every((p) => r.table.port(r.table.names()[r.table.paths().indexOf(p)] ?? '') === undefined)).toBe(true);
    r.table.stop();
    await r.time.flush();
    expect(r.time.pendingTimers).toBe(0);
  });
});

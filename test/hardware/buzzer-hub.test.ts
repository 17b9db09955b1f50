import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BuzzerHub } from '../../controller/hardware/buzzer-hub/buzzer-hub.ts';
import { EdgeDebouncer } from '../../controller/hardware/buzzer-hub/edge-debouncer.ts';
import {
  DEFAULT_FIRMATA_LATENCY, hostEventTime, latencyBounds, maxQueuedReports, ReportWindow, reportTransferUs,
} from '../../controller/hardware/buzzer-hub/host-timestamp.ts';
import { resolveHubConfig, type BuzzerHubOptions } from '../../controller/hardware/buzzer-hub/hub-config.ts';
import { checkPinsAgainstBoard } from '../../controller/hardware/buzzer-hub/pin-check.ts';
import { setUpButtonPin } from '../../controller/hardware/buzzer-hub/raw-button-controller.ts';
import type { Clock, SensorEvent, StationHealth } from '../../controller/hardware/interface.ts';

// mock-firmata ships no typings; this is the part of it (and of board-io underneath) the test drives.
interface MockIo extends EventEmitter {
  name: string;
  digitalRead(pin: number, callback: (value: number) => void): void;
  digitalWrite(pin: number, value: number): void;
  analogWrite(pin: number, value: number): void;
  pinMode(pin: number, mode: number): void;
}
const require = createRequire(import.meta.url);
const { Firmata: MockFirmata } = require('mock-firmata') as { Firmata: new (options?: object) => MockIo };

const FIRMWARE = { firmware: { name: 'StandardFirmata.ino', version: { major: 2, minor: 5 } }, version: { major: 2, minor: 5 } };
// Mock UNO pins: 3 has PWM, 12 and 13 do not; 2 and 4 are on Firmata port 0, 9 on port 1.
const PINS = { b1: 2, b2: 9, lamp1: 12, lamp2: 3, piezo: 13 } as const;

/** A clock the test sets; the hub must stamp with it, never with its own time. */
class FakeClock implements Clock {
  us = 0; // the initial port reports arrive at 0, far outside the backlog window of the presses below
  nowUs(): number {
    return this.us;
  }

  wallMs(): number {
    return 1_700_000_000_000;
  }
}

interface Rig {
  hub: BuzzerHub;
  io: MockIo;
  clock: FakeClock;
  events: SensorEvent[];
  healths: StationHealth[];
  /** Delivers a Firmata report of `pin` to every callback registered for it, as firmata-io would. */
  readonly report: (pin: number, value: number) => void;
  /** The pins the hub asked to read. */
  readonly readPins: () => number[];
  /** What the hub asked of the IO, in order: [pin, value or mode]. */
  calls: { digitalWrite: [number, number][]; analogWrite: [number, number][]; pinMode: [number, number][] };
}

/** The digital writes so far. */
const calls = (rig: Rig): [number, number][] => rig.calls.digitalWrite;

/** Every write of `pin`'s value, in order. */
const writesOf = (rig: Rig, pin: number): number[] => rig.calls.digitalWrite.filter(([p]) => p === pin).map(([, v]) => v);

const rigs: Rig[] = [];

function makeRig(overrides: Partial<BuzzerHubOptions> = {}): Rig {
  const io = new MockFirmata(FIRMWARE);
  // mock-firmata's digitalRead drops the callback: capture it, so the test can play the board's reports.
  const reads = new Map<number, ((value: number) => void)[]>();
  io.digitalRead = (pin, callback) => {
    reads.set(pin, [...(reads.get(pin) ?? []), callback]);
  };
  const calls: Rig['calls'] = { digitalWrite: [], analogWrite: [], pinMode: [] };
  for (const method of ['digitalWrite', 'analogWrite', 'pinMode'] as const) {
    const original = io[method].bind(io);
    io[method] = (pin, value) => {
      calls[method].push([pin, value]);
      original(pin, value);
    };
  }
  const clock = new FakeClock();
  const hub = new BuzzerHub({
    io: () => io,
    buttons: [{ id: 'buzzer-1', pin: PINS.b1, lamp: PINS.lamp1 }, { id: 'buzzer-2', pin: PINS.b2, lamp: PINS.lamp2 }],
    piezoPin: PINS.piezo,
    debounceMs: 1,
    readyTimeoutMs: 5000,
    ...overrides,
  }, clock);
  const events: SensorEvent[] = [];
  const healths: StationHealth[] = [];
  hub.onEvent((e) => events.push(e));
  hub.onHealth((h) => healths.push(h));
  const report = (pin: number, value: number): void => {
    for (const callback of reads.get(pin) ?? []) callback(value);
  };
  const rig = { hub, io, clock, events, healths, report, readPins: () => [...reads.keys()], calls };
  rigs.push(rig);
  return rig;
}

/** Starts the hub and lets the mock board announce itself the way an IO plugin does. */
async function started(overrides: Partial<BuzzerHubOptions> = {}): Promise<Rig> {
  const rig = makeRig(overrides);
  const start = rig.hub.start();
  rig.io.emit('connect');
  rig.io.emit('ready');
  await start;
  // StandardFirmata reports each port's state when reporting is enabled: every button up (HIGH).
  for (const pin of rig.readPins()) rig.report(pin, 1);
  return rig;
}

afterEach(async () => {
  await Promise.all(rigs.splice(0).map((r) => r.hub.stop()));
});

// The default model's figures, as docs/buzzer-hub.md states them.
const TRANSFER_US = 30e6 / 58_824; // 510.0 µs: 3 bytes × 10 bits at the 58 824 baud an Uno runs for 57600
const MAX_US = 500 + TRANSFER_US + 4096 + 1000 + 50_000; // 56 106 µs with nothing queued ahead

describe('host timestamp model', () => {
  it('derives the default bounds from the Firmata path', () => {
    expect(reportTransferUs(DEFAULT_FIRMATA_LATENCY)).toBeCloseTo(TRANSFER_US, 6);
    expect(maxQueuedReports(DEFAULT_FIRMATA_LATENCY)).toBe(21);
    const b = latencyBounds(DEFAULT_FIRMATA_LATENCY, 0);
    expect(b.minUs).toBeCloseTo(TRANSFER_US, 6);
    expect(b.maxUs).toBeCloseTo(MAX_US, 6);
    // A full TX buffer ahead adds 21 transfers; more cannot queue.
    expect(latencyBounds(DEFAULT_FIRMATA_LATENCY, 99).maxUs).toBeCloseTo(MAX_US + 21 * TRANSFER_US, 6);
  });

  it('reports the middle of the latency interval and a half width that still holds both ends', () => {
    const b = latencyBounds(DEFAULT_FIRMATA_LATENCY, 0);
    const t = hostEventTime(1_000_000, b);
    expect(t).toEqual({ source: 'host', epoch: 0, deviceUs: 971_692, hostUs: 971_692, uncertaintyUs: 27_799, beforeUs: 0, afterUs: 0 });
    expect(t.hostUs - t.uncertaintyUs).toBeLessThanOrEqual(1_000_000 - b.maxUs);
    expect(t.hostUs + t.uncertaintyUs).toBeGreaterThanOrEqual(1_000_000 - b.minUs);
  });

  it('counts the reports that can have been queued ahead within the window', () => {
    const w = new ReportWindow(1000);
    w.record(0);
    expect(w.queuedAhead()).toBe(0);
    w.record(400);
    w.record(400);
    expect(w.queuedAhead()).toBe(2);
    w.record(1300); // 0 is out of the window, both 400s are in
    expect(w.queuedAhead()).toBe(2);
    w.record(5000);
    expect(w.queuedAhead()).toBe(0);
  });
});

describe('edge debouncer', () => {
  it('stamps a bouncing press with its first edge', () => {
    const d = new EdgeDebouncer<string>();
    d.edge(true, 'first');
    d.edge(false, 'bounce');
    d.edge(true, 'bounce again');
    expect(d.settle()).toEqual({ pressed: true, stamp: 'first' });
    expect(d.settling).toBe(false);
  });

  it('ignores a glitch that returns to the old level', () => {
    const d = new EdgeDebouncer<string>();
    d.edge(true, 'spike');
    d.edge(false, 'back');
    expect(d.settle()).toBeUndefined();
    expect(d.pressed).toBe(false);
  });
});

describe('BuzzerHub on mock-firmata', () => {
  it('comes online at ready with the Firmata firmware and configures pins', async () => {
    const rig = makeRig();
    const { hub, io, healths, calls } = rig;
    const start = hub.start();
    expect(hub.health().every((h) => !h.online)).toBe(true);
    io.emit('connect');
    io.emit('ready');
    await start;
    expect(hub.health()).toEqual([
      expect.objectContaining({ station: 'buzzer-1', kind: 'hub', online: true, port: 'Mock', firmware: 'StandardFirmata.ino 2.5 (Firmata 2.5)' }),
      expect.objectContaining({ station: 'buzzer-2', kind: 'hub', online: true }),
    ]);
    expect(healths.filter((h) => h.online).map((h) => h.station).sort()).toEqual(['buzzer-1', 'buzzer-2']);
    // Buttons: input (0) with the pull-up (HIGH written to the input); lamps: output (1), PWM (3) on pin 3;
    // the piezo: output. Lamps start off.
    expect(calls.pinMode).toEqual(expect.arrayContaining([[PINS.b1, 0], [PINS.lamp1, 1], [PINS.lamp2, 3], [PINS.piezo, 1]]));
    expect(writesOf(rig, PINS.b1)).toEqual([1]);
    expect(writesOf(rig, PINS.lamp1)).toEqual([0]);
  });

  it('emits a press stamped by the injected clock at the first edge, with the stated uncertainty', async () => {
    const { clock, report, events } = await started();
    clock.us = 1_000_000;
    report(PINS.b1, 0); // pull-up: pressed reads LOW
    clock.us = 1_000_300;
    report(PINS.b1, 1); // contact bounce
    report(PINS.b1, 0);
    clock.us = 1_009_000; // the event is emitted after the debounce, stamped with the first edge
    await vi.waitFor(() => {
      expect(events).toHaveLength(1);
    }, { timeout: 2000 });
    expect(events[0]).toEqual({
      kind: 'button-pressed', station: 'buzzer-1', button: 'buzzer',
      time: { source: 'host', epoch: 0, deviceUs: 971_692, hostUs: 971_692, uncertaintyUs: 27_799, beforeUs: 0, afterUs: 0 },
    });
  });

  it('emits the release, and nothing for repeated reports or a glitch', async () => {
    const { clock, report, events } = await started();
    report(PINS.b1, 0);
    await vi.waitFor(() => {
      expect(events).toHaveLength(1);
    }, { timeout: 2000 });
    report(PINS.b1, 0); // another pin of the port changed: same level, no edge
    clock.us = 2_000_000;
    report(PINS.b1, 1);
    await vi.waitFor(() => {
      expect(events).toHaveLength(2);
    }, { timeout: 2000 });
    expect(events[1]).toMatchObject({ kind: 'button-released', station: 'buzzer-1', time: { hostUs: 1_971_692 } });
    report(PINS.b2, 0); // a spike on buzzer-2, gone before the debounce ends
    report(PINS.b2, 1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(events).toHaveLength(2);
  });

  it('takes the first report as the state: a button held at start reports its release and next press', async () => {
    const rig = makeRig();
    const start = rig.hub.start();
    rig.io.emit('connect');
    rig.io.emit('ready');
    await start;
    rig.report(PINS.b1, 0); // held while reporting was switched on: pressed at an unknown time
    rig.report(PINS.b2, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(rig.events).toEqual([]);
    rig.report(PINS.b1, 1);
    rig.clock.us = 3_000_000;
    await vi.waitFor(() => {
      expect(rig.events.map((e) => e.kind)).toEqual(['button-released']);
    }, { timeout: 2000 });
    rig.report(PINS.b1, 0);
    await vi.waitFor(() => {
      expect(rig.events.map((e) => e.kind)).toEqual(['button-released', 'button-pressed']);
    }, { timeout: 2000 });
  });

  it('widens the uncertainty by the reports that may have been queued ahead', async () => {
    const { clock, report, events } = await started();
    clock.us = 5_000_000;
    report(PINS.b2, 1); // a report of port 1 (no change) in the same serial chunk
    report(PINS.b1, 0);
    await vi.waitFor(() => {
      expect(events).toHaveLength(1);
    }, { timeout: 2000 });
    expect(events[0]?.time).toEqual(hostEventTime(5_000_000, latencyBounds(DEFAULT_FIRMATA_LATENCY, 1)));
    // One 510 µs transfer more at the far end: ±27 799 → ±28 054 µs.
    expect(events[0]?.time).toMatchObject({ hostUs: 4_971_437, uncertaintyUs: 28_054 });
  });

  it('drives the lamps through the IO', async () => {
    const rig = await started();
    const { hub, calls } = rig;
    expect(await hub.setLamp('buzzer-1', 'on')).toEqual({ ok: true });
    expect(calls.digitalWrite.at(-1)).toEqual([PINS.lamp1, 1]);
    expect(await hub.setLamp('buzzer-1', 'off')).toEqual({ ok: true });
    expect(calls.digitalWrite.at(-1)).toEqual([PINS.lamp1, 0]);
    const before = writesOf(rig, PINS.lamp1).length;
    expect(await hub.setLamp('buzzer-1', 'blink-fast')).toEqual({ ok: true });
    await vi.waitFor(() => {
      expect(writesOf(rig, PINS.lamp1).slice(before)).toEqual(expect.arrayContaining([0, 1]));
    }, { timeout: 3000 });
    // pulse fades a PWM lamp; on a pin without PWM it falls back to blinking instead of throwing.
    expect(await hub.setLamp('buzzer-2', 'pulse')).toEqual({ ok: true });
    await vi.waitFor(() => {
      expect(calls.analogWrite.some(([pin]) => pin === PINS.lamp2)).toBe(true);
    }, { timeout: 3000 });
    for (const pattern of ['pulse', 'blink-slow', 'error', 'off'] as const) {
      expect(await hub.setLamp('buzzer-1', pattern)).toEqual({ ok: true });
    }
    expect(await hub.setLamp('nobody', 'on')).toMatchObject({ ok: false, code: 'UNKNOWN_STATION' });
  });

  it('answers NO_LAMP for a button without a lamp', async () => {
    const { hub } = await started({ buttons: [{ id: 'bare', pin: 4 }] });
    expect(await hub.setLamp('bare', 'on')).toMatchObject({ ok: false, code: 'NO_LAMP' });
  });

  it('beeps the piezo and refuses tones the serial link cannot carry', async () => {
    const rig = await started();
    const { hub } = rig;
    // One second: johnny-five toggles the pin from the host every half period (1.1 ms) until the duration is
    // over, so a short beep (it was 40 ms) sees no toggle at all when a busy machine stalls the process.
    const durationMs = 1000;
    const beganAt = Date.now();
    expect(await hub.beep(440, durationMs)).toEqual({ ok: true });
    await vi.waitFor(() => {
      expect(writesOf(rig, PINS.piezo)).toEqual(expect.arrayContaining([0, 1]));
    }, { timeout: 10_000 });
    // The beep ends with the pin LOW (checked once it is over, not at any LOW half period of the tone).
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, durationMs - (Date.now() - beganAt))));
    await vi.waitFor(() => {
      expect(calls(rig).at(-1)).toEqual([PINS.piezo, 0]);
    }, { timeout: 10_000 });
    expect(await hub.beep(2000, 100)).toMatchObject({ ok: false, code: 'BAD_ARGUMENT' });
    expect(await hub.beep(440, 0)).toMatchObject({ ok: false, code: 'BAD_ARGUMENT' });
    const { hub: quiet } = await started({ piezoPin: undefined });
    expect(await quiet.beep()).toMatchObject({ ok: false, code: 'NO_PIEZO' });
  });

  it('goes offline on a board error and counts it', async () => {
    const { hub, io, healths, report, events } = await started();
    io.emit('error', new Error('unplugged'));
    expect(hub.health().map((h) => [h.online, h.errors.disconnects])).toEqual([[false, 1], [false, 1]]);
    expect(healths.at(-1)).toMatchObject({ online: false });
    expect(await hub.setLamp('buzzer-1', 'on')).toMatchObject({ ok: false, code: 'OFFLINE' });
    expect(await hub.beep()).toMatchObject({ ok: false, code: 'OFFLINE' });
    io.emit('close'); // a second report of the same loss is not counted again
    expect(hub.health()[0]?.errors.disconnects).toBe(1);
    report(PINS.b1, 0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events).toEqual([]);
  });

  it('resolves start() with the stations offline when the board never gets ready', async () => {
    const { hub } = makeRig({ readyTimeoutMs: 20 });
    await hub.start();
    expect(hub.health().map((h) => [h.online, h.errors.timeouts])).toEqual([[false, 1], [false, 1]]);
  });

  it('rejects a configuration that cannot work, listing every problem with its code', async () => {
    const { hub } = makeRig({ buttons: [{ id: 'a', pin: 2 }, { id: 'a', pin: 2, lamp: 13 }], piezoPin: 13, debounceMs: -1 });
    const problems = /duplicate station id "a"[\s\S]*pin 2 is already used[\s\S]*pin 13 is already used[\s\S]*debounceMs/;
    await expect(hub.start()).rejects.toThrow(problems);
    await expect(hub.start()).rejects.toMatchObject({
      problems: [
        { code: 'INVALID_CONFIG', path: 'buttons[1].id' }, { code: 'PIN_CONFLICT', path: 'buttons[1].pin' },
        { code: 'PIN_CONFLICT', path: 'piezoPin' }, { code: 'INVALID_CONFIG', path: 'debounceMs' },
      ],
    });
  });

  it('refuses pins the board\'s capability report does not offer, with the port closed again', async () => {
    // mock-firmata's Uno: pins 0/1 list no mode, there is no pin 20.
    const rig = makeRig({ buttons: [{ id: 'a', pin: 1 }, { id: 'b', pin: 20, lamp: 21 }], piezoPin: undefined });
    const start = rig.hub.start();
    rig.io.emit('connect');
    rig.io.emit('ready');
    await expect(start).rejects.toMatchObject({
      problems: [
        { code: 'PIN_RESERVED', path: 'buttons[0].pin' }, { code: 'PIN_NOT_ON_BOARD', path: 'buttons[1].pin' },
        { code: 'PIN_NOT_ON_BOARD', path: 'buttons[1].lamp' },
      ],
    });
    expect(rig.calls.pinMode).toEqual([]); // nothing was set up
    expect(rig.hub.health().every((h) => !h.online)).toBe(true);
  });

  it('stops safely twice, goes offline and ignores later reports', async () => {
    const { hub, report, events } = await started();
    await hub.setLamp('buzzer-1', 'blink-fast');
    await Promise.all([hub.stop(), hub.stop()]);
    await hub.stop();
    expect(hub.health().every((h) => !h.online)).toBe(true);
    report(PINS.b1, 0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events).toEqual([]);
    const { hub: never } = makeRig();
    await never.stop();
    await never.stop();
  });
});

describe('pins against the capability report', () => {
  const config = (buttons: BuzzerHubOptions['buttons'], piezoPin?: number) =>
    resolveHubConfig({ io: () => undefined, buttons, ...(piezoPin === undefined ? {} : { piezoPin }) }).config;
  const MODES = { INPUT: 0, OUTPUT: 1, PULLUP: 11 };
  // A Nano: A6/A7 (20, 21) are analog inputs only; pins 0/1 list nothing.
  const nano = [[], [], ...Array.from({ length: 18 }, () => [0, 1, 4]), [2], [2]].map((supportedModes) => ({ supportedModes }));

  it('accepts digital pins and A0–A5, refuses analog-only pins with the modes they have', () => {
    expect(checkPinsAgainstBoard(config([{ id: 'a', pin: 2, lamp: 14 }], 19), nano, MODES)).toEqual([]);
    expect(checkPinsAgainstBoard(config([{ id: 'a', pin: 20 }], 21), nano, MODES)).toEqual([
      { code: 'PIN_MODE_UNSUPPORTED', path: 'buttons[0].pin', message: 'pin 20 cannot be a digital input (its modes: analog)' },
      { code: 'PIN_MODE_UNSUPPORTED', path: 'piezoPin', message: 'pin 21 cannot be a digital output (its modes: analog)' },
    ]);
  });

  it('checks nothing when the IO has no report', () => {
    expect(checkPinsAgainstBoard(config([{ id: 'a', pin: 99 }]), undefined, MODES)).toEqual([]);
  });

  it('refuses D0/D1 before opening a serial port', () => {
    const { errors } = resolveHubConfig({ io: '/dev/ttyACM0', buttons: [{ id: 'a', pin: 0, lamp: 1 }] });
    expect(errors.map((e) => [e.code, e.path])).toEqual([['PIN_RESERVED', 'buttons[0].pin'], ['PIN_RESERVED', 'buttons[0].lamp']]);
  });
});

describe('button pin set-up', () => {
  const fakeIo = (pullupMode: number | undefined) => {
    const calls: string[] = [];
    const io = {
      MODES: { INPUT: 0, OUTPUT: 1, ...(pullupMode === undefined ? {} : { PULLUP: pullupMode }) }, HIGH: 1, LOW: 0,
      pinMode: (pin: number, mode: number) => calls.push(`mode ${pin} ${mode}`),
      digitalWrite: (pin: number, value: number) => calls.push(`write ${pin} ${value}`),
      digitalRead: () => undefined,
    };
    return { io, calls };
  };

  it('uses Firmata\'s INPUT_PULLUP in one command where the pin offers it (Firmata ≥ 2.5)', () => {
    const { io, calls } = fakeIo(0x0b);
    setUpButtonPin(io, 2, true, true);
    expect(calls).toEqual(['mode 2 11']);
  });

  it('falls back to INPUT and HIGH written to the input (Firmata ≤ 2.4), and to INPUT alone without the pull-up', () => {
    const { io, calls } = fakeIo(undefined);
    setUpButtonPin(io, 2, true, false);
    setUpButtonPin(io, 3, false, false);
    expect(calls).toEqual(['mode 2 0', 'write 2 1', 'mode 3 0']);
  });
});

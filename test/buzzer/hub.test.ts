/**
 * Buzzer mode on the johnny-five hub (mock-firmata underneath): host-stamped presses with the hub's stated
 * uncertainty (±27.8 ms and more: mostly the host's own delay, measured), so presses closer than the combined
 * uncertainty are a tie with the figures;
 * farther apart they are ranked. The hub's piezo beeps for the winner.
 */
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BUZZER_DEFAULTS, type BuzzerSetup } from '../../controller/buzzer/index.ts';
import { BuzzerHub } from '../../controller/hardware/buzzer-hub/buzzer-hub.ts';
import type { Clock } from '../../controller/hardware/interface.ts';
import type { Scheduler } from '../../controller/runtime/ports.ts';
import { buzzerRig, type BuzzerRig } from './fakes.ts';

interface MockIo extends EventEmitter {
  digitalRead(pin: number, callback: (value: number) => void): void;
}
const require = createRequire(import.meta.url);
const { Firmata: MockFirmata } = require('mock-firmata') as { Firmata: new (options?: object) => MockIo };
const FIRMWARE = { firmware: { name: 'StandardFirmata.ino', version: { major: 2, minor: 5 } }, version: { major: 2, minor: 5 } };

class FakeClock implements Clock {
  us = 0;
  nowUs(): number {
    return this.us;
  }

  wallMs(): number {
    return 1_760_000_000_000 + Math.floor(this.us / 1000);
  }
}

/** Timers the test runs by hand once the clock has passed them. */
class ManualScheduler implements Scheduler {
  private timers: { dueUs: number; fn: () => void; live: boolean }[] = [];
  constructor(private readonly clock: FakeClock) {}
  after(ms: number, fn: () => void): () => void {
    const t = { dueUs: this.clock.us + ms * 1000, fn, live: true };
    this.timers.push(t);
    return () => {
      t.live = false;
    };
  }

  runDue(): void {
    const due = this.timers.filter((t) => t.live && t.dueUs <= this.clock.us);
    this.timers = this.timers.filter((t) => !due.includes(t));
    for (const t of due) t.fn();
  }
}

const SETUP: BuzzerSetup = {
  ...BUZZER_DEFAULTS,
  contestants: [
    { id: 'red', name: 'Red team', colour: 'red', station: 'buzzer-1', team: null },
    { id: 'blue', name: 'Blue team', colour: 'blue', station: 'buzzer-2', team: null },
  ],
  teams: [],
};

const hubs: BuzzerHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((h) => h.stop()));
});

interface HubRig {
  clock: FakeClock;
  scheduler: ManualScheduler;
  b: BuzzerRig;
  press: (pin: number) => Promise<void>;
  beeps: number[];
}

async function startHub(): Promise<HubRig> {
  const io = new MockFirmata(FIRMWARE);
  const reads = new Map<number, ((value: number) => void)[]>();
  io.digitalRead = (pin, callback) => {
    reads.set(pin, [...(reads.get(pin) ?? []), callback]);
  };
  const clock = new FakeClock();
  const hub = new BuzzerHub({ io: () => io, buttons: [{ id: 'buzzer-1', pin: 2, lamp: 12 }, { id: 'buzzer-2', pin: 9, lamp: 3 }], piezoPin: 13, debounceMs: 1 }, clock);
  hubs.push(hub);
  const scheduler = new ManualScheduler(clock);
  const beeps: number[] = [];
  const b = buzzerRig(SETUP, hub, clock, scheduler, {
    beep: (hz, ms) => {
      beeps.push(hz);
      void hub.beep(hz, ms);
    },
  });
  const starting = hub.start();
  io.emit('connect');
  io.emit('ready');
  await starting;
  for (const callbacks of reads.values()) for (const cb of callbacks) cb(1);
  b.runtime.start();
  const press = async (pin: number): Promise<void> => {
    const before = b.log.sensors.length;
    for (const cb of reads.get(pin) ?? []) cb(0);
    await vi.waitFor(() => {
      expect(b.log.sensors.length).toBeGreaterThan(before);
    }, { timeout: 2000 });
  };
  return { clock, scheduler, b, press, beeps };
}

describe('buzzer mode on the johnny-five hub', () => {
  it('reports hub presses 20 ms apart as a tie: host stamps carry ±27.8 ms each', async () => {
    const { clock, scheduler, b, press } = await startHub();
    clock.us = 10_000_000;
    b.runtime.arm('host');
    clock.us = 10_500_000;
    await press(2);
    clock.us = 10_520_000;
    await press(9);
    clock.us = 10_700_000;
    scheduler.runDue();
    const tie = b.published.events.find((e) => e.type === 'TIE');
    expect(tie).toMatchObject({ contestants: ['red', 'blue'] });
    if (tie?.type !== 'TIE') throw new Error('no tie');
    expect(tie.combinedUncertaintyUs).toBeGreaterThanOrEqual(2 * 27_799);
    expect(tie.separationUs).toBeLessThan(tie.combinedUncertaintyUs);
    // The sensor rows keep the host stamp and its uncertainty (no raw device time for a hub).
    expect(b.log.sensors.filter((e) => e.kind === 'button-pressed').map((e) => e.time.source)).toEqual(['host', 'host']);
  });

  it('ranks hub presses 80 ms apart, with the delay, and beeps for the winner', async () => {
    const { clock, scheduler, b, press, beeps } = await startHub();
    clock.us = 10_000_000;
    b.runtime.arm('host');
    clock.us = 10_400_000;
    await press(9);
    clock.us = 10_480_000;
    await press(2);
    clock.us = 10_700_000;
    scheduler.runDue();
    const view = b.published.last;
    expect(view?.winners).toEqual(['blue']);
    expect(view?.ranking.map((r) => [r.contestant, r.source])).toEqual([['blue', 'host'], ['red', 'host']]);
    // 80 ms apart is beyond the backlog window (66 ms): the second report cannot have queued behind the
    // first, both intervals have the same width and the delay is the arrival difference.
    expect(Math.abs((view?.ranking[1]?.delayUs ?? 0) - 80_000)).toBeLessThanOrEqual(1);
    expect(view?.ranking[0]?.reactionUs).toBeLessThan(400_000);
    expect(beeps).toEqual([440]);
  });
});

/**
 * The buzzer hub keeps its board: after the board is lost (USB unplugged: firmata-io's 'close' or 'error')
 * or an attempt does not get ready, it closes the port and tries again after the seat stations' backoff,
 * counting one outage once (`disconnects`, or `timeouts` for a board that never got ready). On mock-firmata,
 * one new IO per attempt, as a reopened port gives; the real StandardFirmata unplug is in
 * test/firmata/hub-on-standard-firmata.test.ts.
 */
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { BuzzerHub } from '../../controller/hardware/buzzer-hub/buzzer-hub.ts';
import type { BuzzerHubOptions } from '../../controller/hardware/buzzer-hub/hub-config.ts';
import type { Clock, SensorEvent } from '../../controller/hardware/interface.ts';

interface MockIo extends EventEmitter {
  digitalRead(pin: number, callback: (value: number) => void): void;
}
const require = createRequire(import.meta.url);
const { Firmata: MockFirmata } = require('mock-firmata') as { Firmata: new (options?: object) => MockIo };
const FIRMWARE = { firmware: { name: 'StandardFirmata.ino', version: { major: 2, minor: 5 } }, version: { major: 2, minor: 5 } };

const clock: Clock = { nowUs: () => Math.floor(performance.now() * 1000), wallMs: () => Date.now() };
const hubs: BuzzerHub[] = [];

afterEach(async () => {
  await Promise.all(hubs.splice(0).map((h) => h.stop()));
});

/** A hub whose IO factory hands out a new mock board per attempt, with each board's read callbacks captured. */
function rig(overrides: Partial<BuzzerHubOptions> = {}) {
  const ios: { io: MockIo; reads: Map<number, (value: number) => void> }[] = [];
  const unplugged = { value: false, tries: 0 };
  const hub = new BuzzerHub({
    io: () => {
      if (unplugged.value) {
        unplugged.tries++;
        throw new Error('cannot open /dev/ttyACM0');
      }
      const io = new MockFirmata(FIRMWARE);
      const reads = new Map<number, (value: number) => void>();
      io.digitalRead = (pin, callback) => {
        reads.set(pin, callback);
      };
      ios.push({ io, reads });
      return io;
    },
    buttons: [{ id: 'buzzer-1', pin: 2, lamp: 12 }],
    debounceMs: 1,
    readyTimeoutMs: 5000,
    reconnect: { initialMs: 20, maxMs: 80, jitter: 0 },
    ...overrides,
  }, clock);
  hubs.push(hub);
  const events: SensorEvent[] = [];
  hub.onEvent((e) => events.push(e));
  const board = (n: number) => {
    const entry = ios[n];
    if (entry === undefined) throw new Error(`no attempt ${n}`);
    return entry;
  };
  const ready = (n: number): void => {
    board(n).io.emit('connect');
    board(n).io.emit('ready');
    board(n).reads.get(2)?.(1); // the port's first report: released
  };
  const attempts = () => ios.length;
  return { hub, events, board, ready, attempts, unplugged };
}

async function until(predicate: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!predicate()) {
    if (performance.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe('the buzzer hub after a USB unplug', () => {
  it('goes offline, counts one disconnect, and reopens with the backoff until the board is back', async () => {
    const r = rig();
    const start = r.hub.start();
    r.ready(0);
    await start;
    expect(r.hub.health()[0]).toMatchObject({ online: true, errors: { disconnects: 0, timeouts: 0 } });

    r.unplugged.value = true;
    r.board(0).io.emit('close'); // unplugged
    expect(r.hub.health()[0]).toMatchObject({ online: false, errors: { disconnects: 1 } });
    expect(r.hub.status()).toEqual({ state: 'retrying', attempts: 0, lastError: 'port closed' });
    await until(() => r.hub.status().retryInMs !== undefined);
    expect(r.hub.status()).toEqual({ state: 'retrying', attempts: 1, retryInMs: 20, lastError: 'port closed' });
    expect(await r.hub.setLamp('buzzer-1', 'on')).toMatchObject({ ok: false, code: 'OFFLINE' });

    // Still unplugged: the next attempts fail to open, the delay doubles up to its maximum; counted once.
    await until(() => r.unplugged.tries === 3);
    expect(r.hub.status()).toMatchObject({ state: 'retrying', attempts: 4, retryInMs: 80, lastError: 'cannot create the board: cannot open /dev/ttyACM0' });
    expect(r.hub.health()[0]?.errors).toMatchObject({ disconnects: 1, timeouts: 0 });

    // Plugged back in: the next attempt gets ready; presses are read from the new board only.
    r.unplugged.value = false;
    await until(() => r.attempts() === 2, 3000);
    r.ready(1);
    expect(r.hub.health()[0]).toMatchObject({ online: true, errors: { disconnects: 1 } });
    expect(r.hub.status()).toEqual({ state: 'ready', attempts: 0 });
    r.board(0).reads.get(2)?.(0); // the old board's IO is not trusted any more
    r.board(1).reads.get(2)?.(0);
    await until(() => r.events.length === 1);
    expect(r.events[0]).toMatchObject({ kind: 'button-pressed', station: 'buzzer-1' });
    expect(await r.hub.setLamp('buzzer-1', 'on')).toEqual({ ok: true });

    // A second loss is a second outage.
    r.board(1).io.emit('error', new Error('EIO'));
    expect(r.hub.health()[0]?.errors.disconnects).toBe(2);
    await until(() => r.hub.status().retryInMs !== undefined);
    expect(r.hub.status().retryInMs).toBe(20); // the backoff started over once the board was ready
  });

  it('counts a board that opens but never gets ready as a timeout, once, and keeps trying', async () => {
    const r = rig({ readyTimeoutMs: 30 });
    await r.hub.start(); // resolves at the timeout, offline
    expect(r.hub.health()[0]).toMatchObject({ online: false, errors: { timeouts: 1, disconnects: 0 } });
    await until(() => r.attempts() >= 3, 3000);
    expect(r.hub.health()[0]?.errors).toMatchObject({ timeouts: 1, disconnects: 0 });
    expect(r.hub.status()).toMatchObject({ lastError: 'no ready within 30 ms' });
    r.ready(r.attempts() - 1);
    await until(() => r.hub.health()[0]?.online === true);
  });

  it('stop() cancels a scheduled attempt: no board is created after it', async () => {
    const r = rig({ readyTimeoutMs: 30 });
    await r.hub.start();
    await until(() => r.hub.status().retryInMs !== undefined);
    const attempts = r.attempts();
    await r.hub.stop();
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(r.attempts()).toBe(attempts);
    expect(r.hub.status().state).toBe('stopped');
  });

  it('refuses a backoff that cannot work, before anything is opened', async () => {
    const r = rig({ reconnect: { initialMs: 0, factor: 0.5 } });
    await expect(r.hub.start()).rejects.toMatchObject({
      problems: [{ code: 'INVALID_CONFIG', path: 'reconnect.initialMs' }, { code: 'INVALID_CONFIG', path: 'reconnect.factor' }],
    });
    expect(r.attempts()).toBe(0);
  });
});

/**
 * Virtual time for tests and fast simulations: a `Clock` and a `Scheduler` in one, where time moves only
 * when told to. `advance(ms)` runs every timer that falls due, in order, at its own due time, and lets
 * Node's I/O callbacks run after each one, so serialport's mock binding (which works through
 * `process.nextTick` and promises) delivers what a timer wrote before the next timer fires. A minute of
 * pings, polls and reconnects then takes milliseconds, and the outcome never depends on the machine.
 *
 * Only promise/nextTick-based I/O keeps up with virtual time (the mock binding, the simulated table);
 * a real port needs real time.
 */
import type { Clock } from '../interface.ts';
import type { Scheduler, TimerHandle } from '../serial/timers.ts';

interface VirtualTimer {
  readonly id: number;
  readonly dueUs: number;
  readonly callback: () => void;
}

export interface VirtualTimeOptions {
  /** Controller time at the start, µs. Default 1 000 000 (so no time is ever mistaken for "unset"). */
  readonly startUs?: number;
  /** Wall-clock ms at the start (for `lastSeenMs`). Default 1 700 000 000 000. */
  readonly wallOriginMs?: number;
  /** `setImmediate` rounds after each timer for I/O to settle. Default 3. */
  readonly ioRounds?: number;
}

export class VirtualTime implements Clock, Scheduler {
  private now: number;
  private readonly startUs: number;
  private readonly wallOriginMs: number;
  private readonly ioRounds: number;
  private readonly timers: VirtualTimer[] = [];
  private nextId = 1;

  constructor(options: VirtualTimeOptions = {}) {
    this.now = options.startUs ?? 1_000_000;
    this.startUs = this.now;
    this.wallOriginMs = options.wallOriginMs ?? 1_700_000_000_000;
    this.ioRounds = options.ioRounds ?? 3;
  }

  nowUs(): number {
    return this.now;
  }

  wallMs(): number {
    return this.wallOriginMs + Math.floor((this.now - this.startUs) / 1000);
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const timer: VirtualTimer = { id: this.nextId++, dueUs: this.now + Math.max(0, Math.round(delayMs * 1000)), callback };
    // Keep the list ordered by due time; equal times run in the order they were set (like Node).
    let i = this.timers.length;
    while (i > 0 && (this.timers[i - 1] as VirtualTimer).dueUs > timer.dueUs) i--;
    this.timers.splice(i, 0, timer);
    return timer.id;
  }

  clearTimeout(handle: TimerHandle): void {
    const i = this.timers.findIndex((t) => t.id === handle);
    if (i >= 0) this.timers.splice(i, 1);
  }

  /** Timers waiting to run. */
  get pendingTimers(): number {
    return this.timers.length;
  }

  /** Lets pending I/O callbacks (nextTick, promises, stream plumbing) run without moving time. */
  async flush(): Promise<void> {
    for (let i = 0; i < this.ioRounds; i++) await new Promise<void>((resolve) => setImmediate(resolve));
  }

  /** Moves time forward by `ms`, running every timer that falls due on the way. */
  async advance(ms: number): Promise<void> {
    await this.runUntil(() => false, this.now + ms * 1000);
  }

  /**
   * Moves time forward until `predicate` holds (checked after every timer) or `maxMs` have passed.
   * Returns whether the predicate held.
   */
  async advanceUntil(predicate: () => boolean, maxMs: number): Promise<boolean> {
    await this.flush();
    if (predicate()) return true;
    return this.runUntil(predicate, this.now + maxMs * 1000);
  }

  /**
   * Moves time forward until `promise` settles (a command waiting for its reply), at most `maxMs`.
   * Resolves with its value; rejects with its error, or when it has not settled in time.
   */
  async settle<T>(promise: Promise<T>, maxMs = 60_000): Promise<T> {
    let done = false;
    const tracked = promise.finally(() => {
      done = true;
    });
    if (!(await this.advanceUntil(() => done, maxMs))) throw new Error(`VirtualTime.settle: not settled within ${maxMs} ms of virtual time`);
    return tracked;
  }

  private async runUntil(predicate: () => boolean, deadlineUs: number): Promise<boolean> {
    await this.flush();
    for (;;) {
      const next = this.timers[0];
      if (next === undefined || next.dueUs > deadlineUs) break;
      this.timers.shift();
      this.now = Math.max(this.now, next.dueUs);
      next.callback();
      await this.flush();
      if (predicate()) return true;
    }
    this.now = Math.max(this.now, deadlineUs);
    await this.flush();
    return predicate();
  }
}

/**
 * Timers behind an interface, so the driver and the simulated table run on real time in production and on
 * a virtual clock in tests (`simulated/virtual-time.ts`), where a minute of pings and reconnects takes
 * milliseconds and nothing depends on the machine's speed.
 */

/** An opaque timer handle, as returned by {@link Scheduler.setTimeout}. */
export type TimerHandle = unknown;

/** Schedules callbacks; the two methods behave like Node's `setTimeout`/`clearTimeout`. */
export interface Scheduler {
  /** Runs `callback` once, `delayMs` from now (0 or less: as soon as possible, after the current task). */
  setTimeout(callback: () => void, delayMs: number): TimerHandle;
  /** Cancels a timer that has not run yet; a handle that already ran or was cancelled is ignored. */
  clearTimeout(handle: TimerHandle): void;
}

/** Node's own timers. */
export const systemScheduler: Scheduler = {
  setTimeout: (callback, delayMs) => setTimeout(callback, Math.max(0, delayMs)),
  clearTimeout: (handle) => {
    clearTimeout(handle as NodeJS.Timeout);
  },
};

/** A source of uniform numbers in [0, 1), injected where behaviour is randomised (backoff jitter). */
export type RandomSource = () => number;

/**
 * The timers one component owns, so that `stop()` can cancel all of them at once and a callback that was
 * already cancelled never runs. Not a scheduler of its own: it delegates to the injected one.
 */
export class TimerSet {
  private readonly scheduler: Scheduler;
  private readonly live = new Map<symbol, TimerHandle>();

  constructor(scheduler: Scheduler) {
    this.scheduler = scheduler;
  }

  /** Runs `callback` after `delayMs`; returns a key for {@link cancel}. */
  after(delayMs: number, callback: () => void): symbol {
    const key = Symbol('timer');
    const handle = this.scheduler.setTimeout(() => {
      if (!this.live.delete(key)) return;
      callback();
    }, delayMs);
    this.live.set(key, handle);
    return key;
  }

  /** Cancels one timer (unknown or already run: nothing happens). */
  cancel(key: symbol | undefined): void {
    if (key === undefined) return;
    const handle = this.live.get(key);
    if (handle === undefined) return;
    this.live.delete(key);
    this.scheduler.clearTimeout(handle);
  }

  /** Cancels every timer still pending. */
  clear(): void {
    for (const handle of this.live.values()) this.scheduler.clearTimeout(handle);
    this.live.clear();
  }

  /** Timers still pending (for tests: a stopped component has none). */
  get size(): number {
    return this.live.size;
  }
}

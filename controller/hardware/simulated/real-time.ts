/**
 * Real time for the simulated table in the demo. The simulated stations' timers (RFID polls, load-cell
 * samples) are `unref`'d: the physical world does not keep the controller process alive, only the driver's
 * own timers do (and `stop()` clears those).
 */
import type { Scheduler } from '../serial/timers.ts';

export const unrefScheduler: Scheduler = {
  setTimeout: (callback, delayMs) => setTimeout(callback, Math.max(0, delayMs)).unref(),
  clearTimeout: (handle) => {
    clearTimeout(handle as NodeJS.Timeout);
  },
};

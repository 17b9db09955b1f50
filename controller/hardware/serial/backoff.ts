/**
 * Reconnect delays: exponential backoff with jitter. A station that was unplugged is retried quickly at
 * first (someone re-seating a USB plug) and then less and less often, so a table with a missing station
 * does not spend its time opening a port that is not there. The jitter spreads the retries of several
 * ports that went away together (a USB hub losing power), so they do not all reopen in the same instant.
 */
import type { RandomSource } from './timers.ts';

/** How the delay grows. */
export interface BackoffPolicy {
  /** Delay before the first retry, ms. Default 250. */
  readonly initialMs: number;
  /** Longest delay, ms. Default 8000. */
  readonly maxMs: number;
  /** Growth per failed attempt. Default 2. */
  readonly factor: number;
  /** Fraction of the delay taken off at random: the delay lies in [(1 − jitter)·d, d]. Default 0.2. */
  readonly jitter: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { initialMs: 250, maxMs: 8000, factor: 2, jitter: 0.2 };

/** The delay before retry number `attempt` (0 for the first retry after a loss). Never above `maxMs`. */
export function backoffDelayMs(policy: BackoffPolicy, attempt: number, random: RandomSource): number {
  const base = Math.min(policy.maxMs, policy.initialMs * policy.factor ** Math.max(0, attempt));
  return Math.round(base * (1 - policy.jitter * random()));
}

/**
 * Token buckets per key (an MQTT client, or a token holder), so that one sender cannot take the controller's
 * time from the others (issue 18, item 3). A bucket holds at most `burst` tokens and gains `ratePerS` a second;
 * every request takes one. An empty bucket refuses, and says when the next token arrives: the requester is
 * answered `RATE_LIMITED` with that wait (`retryAfterMs`), and nothing else happens.
 *
 * Memory is bounded: a bucket that has filled up again is the same as no bucket, so full buckets are forgotten,
 * and past `maxKeys` live buckets the least recently used one is dropped (a sender that rotates its keys faster
 * than that gains at most one fresh burst per key; the request queue bounds what they can hold at once).
 */

/** The outcome of `take`: admitted, or refused with the time until a token is there again. */
export type Admission = { readonly ok: true } | { readonly ok: false; readonly retryAfterMs: number };

export interface RateLimitSettings {
  /** Tokens gained per second (the sustained rate). */
  readonly ratePerS: number;
  /** Bucket size: how many requests may arrive at once after a quiet spell. */
  readonly burst: number;
}

export interface RateLimiterOptions extends RateLimitSettings {
  /** Live buckets kept at most. Default 10,000. */
  readonly maxKeys?: number;
  /** Monotonic ms; injected for tests. */
  readonly now?: () => number;
}

/** Why a rate limit is unusable, or undefined. */
export function rateLimitProblem(settings: RateLimitSettings): string | undefined {
  if (!(Number.isFinite(settings.ratePerS) && settings.ratePerS > 0)) return 'the rate must be a positive number of requests per second';
  if (!(Number.isInteger(settings.burst) && settings.burst >= 1)) return 'the burst must be a whole number of at least 1';
  return undefined;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly now: () => number;
  private readonly maxKeys: number;
  private counters = { admitted: 0, refused: 0 };

  /** Throws on a rate or burst that `rateLimitProblem` refuses (a configuration error). */
  constructor(private readonly settings: RateLimiterOptions) {
    const problem = rateLimitProblem(settings);
    if (problem !== undefined) throw new Error(`rate limit: ${problem}`);
    this.now = settings.now ?? (() => performance.now());
    this.maxKeys = settings.maxKeys ?? 10_000;
  }

  /** Takes a token from `key`'s bucket. O(1) amortised. */
  take(key: string): Admission {
    const t = this.now();
    const { ratePerS, burst } = this.settings;
    const bucket = this.buckets.get(key);
    let tokens = burst;
    if (bucket !== undefined) {
      tokens = Math.min(burst, bucket.tokens + ((t - bucket.at) * ratePerS) / 1000);
      // Re-inserted below: the map's order is the order of last use.
      this.buckets.delete(key);
    }
    if (tokens < 1) {
      this.buckets.set(key, { tokens, at: t });
      this.counters.refused++;
      return { ok: false, retryAfterMs: Math.max(1, Math.ceil(((1 - tokens) * 1000) / ratePerS)) };
    }
    this.buckets.set(key, { tokens: tokens - 1, at: t });
    this.counters.admitted++;
    if (this.buckets.size > this.maxKeys) this.evict(t);
    return { ok: true };
  }

  /** Live buckets, admitted and refused requests since the start. */
  stats(): { readonly keys: number; readonly admitted: number; readonly refused: number } {
    return { keys: this.buckets.size, ...this.counters };
  }

  private evict(t: number): void {
    const { ratePerS, burst } = this.settings;
    for (const [key, b] of this.buckets) {
      if (b.tokens + ((t - b.at) * ratePerS) / 1000 >= burst) this.buckets.delete(key);
    }
    // Still too many: drop the least recently used (the map's first entries), down to 90 % so that the sweep
    // runs once per maxKeys / 10 new keys, not at every one.
    const keep = Math.floor(this.maxKeys * 0.9);
    for (const key of this.buckets.keys()) {
      if (this.buckets.size <= keep) break;
      this.buckets.delete(key);
    }
  }
}

/**
 * Idempotency: a request repeated with the same transaction id (by the same client and identity, to the same
 * table and request) within a window gets the first answer again instead of running twice. A requester that lost a
 * response (a dropped connection) can therefore repeat the request safely, Zigbee2MQTT-style.
 */
import type { ResponsePayload } from './payloads.ts';

export interface TransactionCacheOptions {
  /** How long an answer is kept, ms. */
  readonly windowMs: number;
  /** At most this many answers are kept; the oldest go first. */
  readonly maxEntries: number;
  /** Monotonic ms; injected for tests. */
  readonly now: () => number;
}

export class TransactionCache {
  private readonly options: TransactionCacheOptions;
  // Insertion-ordered: the first entry is the oldest. Holds the promise so a duplicate arriving while the
  // first is still running waits for the same answer.
  private readonly entries = new Map<string, { readonly answer: Promise<ResponsePayload>; readonly expires: number }>();

  constructor(options: TransactionCacheOptions) {
    this.options = options;
  }

  /** The cached answer for `key`, if any and not expired. */
  get(key: string): Promise<ResponsePayload> | undefined {
    this.expire();
    return this.entries.get(key)?.answer;
  }

  /** Remembers the answer for `key`. */
  set(key: string, answer: Promise<ResponsePayload>): void {
    this.expire();
    this.entries.delete(key);
    this.entries.set(key, { answer, expires: this.options.now() + this.options.windowMs });
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.entries.delete(oldest.value);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private expire(): void {
    const now = this.options.now();
    for (const [key, entry] of this.entries) {
      if (entry.expires > now) break;
      this.entries.delete(key);
    }
  }
}

/** The cache key of a request: NUL cannot occur in topics or ids, so the parts cannot run into each other. */
export function transactionKey(
  table: string, client: string, name: string, identity: string, transaction: string | number,
): string {
  return [table, client, name, identity, typeof transaction, String(transaction)].join('\u0000');
}

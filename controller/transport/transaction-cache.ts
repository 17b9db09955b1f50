/**
 * Idempotency: a request repeated with the same transaction id (by the same client and identity, to the same
 * table and request) within a window gets the first answer again instead of running twice. A requester that
 * lost a response (a dropped connection) can therefore repeat the request safely, Zigbee2MQTT-style.
 *
 * Answers live in a `TransactionStore`: the composition root gives the dispatcher one backed by the event log
 * (so a repeat after a restart is still answered from it, controller/app/transaction-store.ts); the default
 * keeps them in memory, per table, so a flood on one table cannot push out another table's answers.
 */
import type { ResponsePayload } from './payloads.ts';

/** Where answers are kept between a request and its repeats. */
export interface TransactionStore {
  /** The answer remembered for `key`, if it was given less than `windowMs` ago. */
  recall(key: string, windowMs: number): ResponsePayload | undefined;
  /** Remembers the answer for `key` (to a request to `table`); answers older than `windowMs` may be dropped. */
  remember(key: string, table: string, response: ResponsePayload, windowMs: number): void;
}

export interface MemoryTransactionStoreOptions {
  /** At most this many answers per table; the oldest go first. */
  readonly maxEntriesPerTable: number;
  /** Monotonic ms; injected for tests. */
  readonly now: () => number;
}

/** Answers in memory, per table (lost at a restart: the app uses the event log's store instead). */
export class MemoryTransactionStore implements TransactionStore {
  // Per table, insertion-ordered: the first entry is the oldest.
  private readonly tables = new Map<string, Map<string, { readonly response: ResponsePayload; readonly at: number }>>();

  constructor(private readonly options: MemoryTransactionStoreOptions) {}

  recall(key: string, windowMs: number): ResponsePayload | undefined {
    const now = this.options.now();
    for (const entries of this.tables.values()) {
      const entry = entries.get(key);
      if (entry !== undefined) return now - entry.at < windowMs ? entry.response : undefined;
    }
    return undefined;
  }

  remember(key: string, table: string, response: ResponsePayload, windowMs: number): void {
    const now = this.options.now();
    let entries = this.tables.get(table);
    if (entries === undefined) {
      entries = new Map();
      this.tables.set(table, entries);
    }
    for (const [k, entry] of entries) {
      if (now - entry.at < windowMs) break;
      entries.delete(k);
    }
    entries.delete(key);
    entries.set(key, { response, at: now });
    while (entries.size > this.options.maxEntriesPerTable) {
      const oldest = entries.keys().next();
      if (oldest.done === true) break;
      entries.delete(oldest.value);
    }
  }

  get size(): number {
    let n = 0;
    for (const entries of this.tables.values()) n += entries.size;
    return n;
  }
}

/** The key of a request: NUL cannot occur in topics or ids, so the parts cannot run into each other. */
export function transactionKey(
  table: string, client: string, name: string, identity: string, transaction: string | number,
): string {
  return [table, client, name, identity, typeof transaction, String(transaction)].join('\u0000');
}

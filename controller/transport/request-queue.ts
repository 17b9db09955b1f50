/**
 * A bound on the requests the controller holds at once (issue 18, item 3). A request that passed every check
 * waits for its table (each table applies one action at a time) and holds memory until it is answered; without
 * a bound, one client sending faster than the tables answer makes that wait, and the memory, grow for everyone.
 *
 * Each client may hold `perClient` requests in the queue, and all clients together `total`; a request beyond
 * either is not queued but answered `RATE_LIMITED` at once, with the wait after which a slot is likely free.
 * The queue is fair by construction: a client's requests never wait behind more than `perClient` of another
 * client's on the same table.
 */

export interface RequestQueueOptions {
  /** Requests one client may have waiting or running. Default 32. */
  readonly perClient?: number;
  /** Requests all clients together may have waiting or running. Default 1024. */
  readonly total?: number;
  /** The wait suggested to a client refused for a full queue, ms. Default 250. */
  readonly retryAfterMs?: number;
}

/** A place in the queue: call `leave` exactly once, when the request has been answered. */
export interface QueueTicket {
  readonly ok: true;
  leave(): void;
}

export type QueueAdmission = QueueTicket | { readonly ok: false; readonly retryAfterMs: number; readonly full: 'client' | 'total' };

export interface RequestQueueStats {
  /** Requests in the queue now. */
  readonly waiting: number;
  /** The most there ever were at once. */
  readonly peak: number;
  /** Requests refused because the queue was full. */
  readonly refused: number;
}

export class RequestQueue {
  private readonly perClient: number;
  private readonly total: number;
  private readonly retryAfterMs: number;
  private readonly byClient = new Map<string, number>();
  private waiting = 0;
  private peak = 0;
  private refused = 0;

  constructor(options: RequestQueueOptions = {}) {
    this.perClient = options.perClient ?? 32;
    this.total = options.total ?? 1024;
    this.retryAfterMs = options.retryAfterMs ?? 250;
    if (!(Number.isInteger(this.perClient) && this.perClient >= 1)) throw new Error('request queue: perClient must be a whole number of at least 1');
    if (!(Number.isInteger(this.total) && this.total >= this.perClient)) throw new Error('request queue: total must be a whole number of at least perClient');
  }

  /** A place for one more request of `client`, or why not. */
  enter(client: string): QueueAdmission {
    const mine = this.byClient.get(client) ?? 0;
    const full = mine >= this.perClient ? 'client' : this.waiting >= this.total ? 'total' : undefined;
    if (full !== undefined) {
      this.refused++;
      return { ok: false, retryAfterMs: this.retryAfterMs, full };
    }
    this.byClient.set(client, mine + 1);
    this.waiting++;
    this.peak = Math.max(this.peak, this.waiting);
    let left = false;
    return {
      ok: true,
      leave: () => {
        if (left) return;
        left = true;
        this.waiting--;
        const now = (this.byClient.get(client) ?? 1) - 1;
        if (now === 0) this.byClient.delete(client);
        else this.byClient.set(client, now);
      },
    };
  }

  stats(): RequestQueueStats {
    return { waiting: this.waiting, peak: this.peak, refused: this.refused };
  }
}

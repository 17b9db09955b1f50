/**
 * The embedded broker's brake on a client that publishes too fast (issue 18, item 3). aedes reads a
 * connection's next chunk only once every packet of the previous one has been handled, so delaying a
 * publish's authorisation stops reading that connection: a flood then waits in the sender's own TCP buffers,
 * not in this process's memory, and the event loop the broker shares with the controller stays free for the
 * other clients. Nothing is dropped; every request still reaches the controller, later.
 *
 * A token bucket per connection that may go below zero: each publish reserves the next free slot, and waits
 * until it comes (at most one chunk of packets is reserved ahead, since reading stops meanwhile).
 */

export interface PublishPacerOptions {
  /** Publishes per second a connection may send, sustained. */
  readonly ratePerS: number;
  /** Publishes it may send at once. */
  readonly burst: number;
  /** Monotonic ms; injected for tests. */
  readonly now?: () => number;
}

/** The embedded broker's default for a referee's connection: far above a dashboard, far below a flood. */
export const DEFAULT_PUBLISH_PACE: PublishPacerOptions = { ratePerS: 500, burst: 1000 };

export class PublishPacer {
  // Keyed by the connection object, so a closed connection's bucket goes with it.
  private readonly buckets = new WeakMap<object, { tokens: number; at: number }>();
  private readonly now: () => number;
  private delayed = 0;

  constructor(private readonly options: PublishPacerOptions) {
    if (!(options.ratePerS > 0) || !(options.burst >= 1)) throw new Error('publish pacer: rate and burst must be positive');
    this.now = options.now ?? (() => performance.now());
  }

  /** Reserves a slot for one publish of `connection`: 0 to go on at once, else the ms to wait first. */
  delayMs(connection: object): number {
    const t = this.now();
    const { ratePerS, burst } = this.options;
    const b = this.buckets.get(connection) ?? { tokens: burst, at: t };
    b.tokens = Math.min(burst, b.tokens + ((t - b.at) * ratePerS) / 1000) - 1;
    b.at = t;
    this.buckets.set(connection, b);
    if (b.tokens >= 0) return 0;
    this.delayed++;
    return Math.ceil((-b.tokens * 1000) / ratePerS);
  }

  /** Publishes that had to wait, since the start. */
  get delayedCount(): number {
    return this.delayed;
  }
}

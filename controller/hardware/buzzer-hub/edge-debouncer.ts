/**
 * Debouncing for one button, the same rule as the seat stations' firmware (hardware/protocol.md): a change
 * counts once the input has been quiet for the debounce time, and is stamped with the **first** edge of
 * the burst that led to it; a burst that ends on the old level is a glitch and reports nothing. Pure: the
 * caller owns the timer (`edge` says when to call `settle`), so the rule is testable without time.
 */

/** A stable change of a button, stamped at the first edge of its burst. */
export interface SettledChange<T> {
  readonly pressed: boolean;
  /** The stamp passed with the burst's first edge. */
  readonly stamp: T;
}

export class EdgeDebouncer<T> {
  private stable = false;
  private latest = false;
  private burstStart: T | undefined;

  /**
   * Feeds a raw change of the input. Afterwards, while `settling`, the caller (re)arms its timer for the
   * debounce time — every edge restarts the quiet period — and calls `settle` when it fires.
   */
  edge(pressed: boolean, stamp: T): void {
    this.latest = pressed;
    // The first edge away from the stable level opens the burst; later edges only move `latest`.
    if (this.burstStart === undefined && pressed !== this.stable) this.burstStart = stamp;
  }

  /** Whether a burst is in progress (the caller's timer must be armed). */
  get settling(): boolean {
    return this.burstStart !== undefined;
  }

  /** Called when the input has been quiet for the debounce time: the change, or undefined for a glitch. */
  settle(): SettledChange<T> | undefined {
    const stamp = this.burstStart;
    this.burstStart = undefined;
    if (stamp === undefined || this.latest === this.stable) return undefined;
    this.stable = this.latest;
    return { pressed: this.stable, stamp };
  }

  /** Sets the level without reporting it: the first reading is a state, not a change. */
  baseline(pressed: boolean): void {
    this.stable = pressed;
    this.latest = pressed;
    this.burstStart = undefined;
  }

  /** Forgets a burst in progress (the input is no longer watched); the stable level stays. */
  abandon(): void {
    this.burstStart = undefined;
    this.latest = this.stable;
  }

  /** The debounced level. */
  get pressed(): boolean {
    return this.stable;
  }
}

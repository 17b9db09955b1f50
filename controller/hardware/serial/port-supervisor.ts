/**
 * Keeps one port path connected: opens a link, and when the port closes unexpectedly (unplugged, USB
 * error) or cannot be opened (not there yet), tries again after an exponential backoff with jitter
 * (default 250 ms, doubling up to 8 s). The backoff starts over once a station has identified itself on
 * the port, so a station that is re-plugged comes back within a quarter of a second.
 *
 * What a port is doing is reported as a {@link PortStatus} — including the cases that are no station's
 * health because no station could be named: nothing answering on it, or a station refused.
 */
import type { StationId } from '../interface.ts';
import { backoffDelayMs, type BackoffPolicy } from './backoff.ts';
import type { LinkSignal, StationLink } from './station-link.ts';
import { TimerSet, type RandomSource, type Scheduler } from './timers.ts';

/** What a port is doing. */
export type PortState =
  /** Opening the port. */
  | 'opening'
  /** Open; waiting for the station's banner. */
  | 'waiting-banner'
  /** A station identified itself and is served. */
  | 'identified'
  /** Open, but no banner and no answer to `info` (not our firmware, wrong baud rate, hung board). Still listening. */
  | 'no-banner'
  /** A station identified itself but was refused (see `refusal`); its lines are ignored until its next banner. */
  | 'refused'
  /** Closed or not openable; the next attempt is scheduled (`retryInMs`). */
  | 'retrying'
  /** Stopped by the driver. */
  | 'stopped';

/** Why a station was refused on a port. */
export type PortRefusal =
  /** Another port already serves a station with this id (two boards with the same id: set one with `id set`). */
  | 'duplicate-id'
  /** The banner's protocol version is not one this controller speaks. */
  | 'protocol-version';

/** One port as the driver sees it. */
export interface PortStatus {
  readonly path: string;
  readonly state: PortState;
  /** Found by discovery (USB vendor id) rather than configured. */
  readonly discovered: boolean;
  /** The station identified (or refused) on the port. */
  readonly station?: StationId;
  readonly refusal?: PortRefusal;
  /** Failed attempts since the last identification. */
  readonly attempts: number;
  /** Delay of the scheduled retry, ms (state `retrying`). */
  readonly retryInMs?: number;
  /** Why the port last closed or failed to open. */
  readonly lastError?: string;
  /** Bad lines received while no station was identified on the port (afterwards they count for the station). */
  readonly badLines: number;
  /** Command timeouts while no station was identified on the port (the `info` fallback). */
  readonly timeouts: number;
}

/** What the supervisor needs from the driver. */
export interface PortSupervisorDeps {
  readonly createLink: (path: string, onSignal: (signal: LinkSignal) => void) => StationLink;
  readonly scheduler: Scheduler;
  readonly backoff: BackoffPolicy;
  readonly random: RandomSource;
  /** Every signal of the current link (stale links' signals are dropped). */
  readonly onSignal: (supervisor: PortSupervisor, link: StationLink, signal: LinkSignal) => void;
  readonly onStatus: (status: PortStatus) => void;
}

type MutableStatus = { -readonly [K in keyof PortStatus]: PortStatus[K] };

export class PortSupervisor {
  readonly path: string;
  private readonly deps: PortSupervisorDeps;
  private readonly timers: TimerSet;
  private readonly state: MutableStatus;
  private current: StationLink | undefined;
  private stopping: Promise<void> | undefined;

  constructor(path: string, discovered: boolean, deps: PortSupervisorDeps) {
    this.path = path;
    this.deps = deps;
    this.timers = new TimerSet(deps.scheduler);
    this.state = { path, state: 'opening', discovered, attempts: 0, badLines: 0, timeouts: 0 };
  }

  /** The link while the port is open. */
  get link(): StationLink | undefined {
    return this.current;
  }

  status(): PortStatus {
    return { ...this.state };
  }

  /** Makes the first attempt. */
  start(): void {
    this.attempt();
  }

  /** A station identified itself on the port: it is served, and the backoff starts over. */
  identified(station: StationId): void {
    this.update({ state: 'identified', station, refusal: undefined, attempts: 0, retryInMs: undefined, lastError: undefined });
  }

  /** A station was refused on the port. */
  refused(station: StationId, refusal: PortRefusal): void {
    this.update({ state: 'refused', station, refusal });
  }

  /** No banner and no answer to `info`. */
  silent(): void {
    this.update({ state: 'no-banner', station: undefined, refusal: undefined });
  }

  /** Counts a problem seen while no station was identified on the port. */
  count(what: 'badLines' | 'timeouts'): void {
    this.state[what]++;
    this.deps.onStatus(this.status());
  }

  /** Closes the port and cancels the retries. Safe to call twice. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.timers.clear();
      const link = this.current;
      this.current = undefined;
      this.update({ state: 'stopped', retryInMs: undefined });
      if (link !== undefined) await link.close();
    })();
    return this.stopping;
  }

  private attempt(): void {
    if (this.stopping !== undefined) return;
    this.update({ state: 'opening', retryInMs: undefined });
    const link = this.deps.createLink(this.path, (signal) => {
      this.linkSignal(link, signal);
    });
    this.current = link;
    link.open().then(() => {
      if (this.current !== link) return;
      this.update({ state: 'waiting-banner', station: undefined, refusal: undefined });
    }, (error: unknown) => {
      if (this.current !== link) return;
      this.current = undefined;
      this.retry(error instanceof Error ? error.message : String(error));
    });
  }

  private linkSignal(link: StationLink, signal: LinkSignal): void {
    if (this.current !== link) return;
    if (signal.type === 'closed') {
      this.current = undefined;
      this.deps.onSignal(this, link, signal);
      if (!signal.requested) this.retry(signal.message ?? 'port closed');
      return;
    }
    this.deps.onSignal(this, link, signal);
  }

  private retry(reason: string): void {
    if (this.stopping !== undefined) return;
    const delay = backoffDelayMs(this.deps.backoff, this.state.attempts, this.deps.random);
    this.update({ state: 'retrying', attempts: this.state.attempts + 1, retryInMs: delay, lastError: reason });
    this.timers.after(delay, () => {
      this.attempt();
    });
  }

  private update(changes: Partial<MutableStatus>): void {
    Object.assign(this.state, changes);
    for (const key of Object.keys(changes) as (keyof MutableStatus)[]) {
      if (this.state[key] === undefined) Reflect.deleteProperty(this.state, key);
    }
    this.deps.onStatus(this.status());
  }
}

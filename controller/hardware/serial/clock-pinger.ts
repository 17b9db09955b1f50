/**
 * Keeps a station's clock mapping fresh: `ping` through the link at a steady rate, each reply fed to the
 * station's `StationClock` as a sync sample.
 *
 * Right after a banner the station's clock has just restarted and nothing maps its stamps yet, so the
 * pinger starts with a quick burst (default 10 pings 20 ms apart): the first events after a boot are then
 * already mapped with a tight bound. After that one ping every 100 ms (docs/timing.md: at 250 ms the
 * cross-station goals are missed), about 3 % of a 115200-baud line.
 *
 * Pings go through the link's command queue like every command, so they never overlap another command; a
 * ping waiting behind a `tare` is simply sent later (its send time is taken when it is written).
 */
import type { RawSyncSample } from '../clock/index.ts';
import type { CommandBody, CommandOutcome } from './command-queue.ts';
import { parseU32Field } from './station-facts.ts';
import { TimerSet, type Scheduler } from './timers.ts';

/** When to ping. */
export interface PingSchedule {
  /** Pings in the burst after a banner. Default 10. */
  readonly burstCount: number;
  /** Gap between burst pings, ms. Default 20. */
  readonly burstIntervalMs: number;
  /** Gap between pings after the burst, ms. Default 100. */
  readonly intervalMs: number;
  /** Reply timeout of a ping, ms. Default 1000: a ping is answered at once, a late one is useless anyway. */
  readonly timeoutMs: number;
  /**
   * Serial rate used for the least one-way latency of each exchange (the line's bytes on the wire, 10 bits
   * each), which tightens the clock bound. 0 turns the minima off (a link whose wire timing is unknown).
   */
  readonly wireBaudRate: number;
}

export const DEFAULT_PING_SCHEDULE: PingSchedule = {
  burstCount: 10, burstIntervalMs: 20, intervalMs: 100, timeoutMs: 1000, wireBaudRate: 115_200,
};

/** What the pinger needs from a link. */
export interface PingTransport {
  command(body: CommandBody, timeoutMs?: number): Promise<CommandOutcome>;
}

/** Time (µs) `bytes` take on the wire at `baud`, 10 bits a byte (start, 8 data, stop). */
function wireTimeUs(bytes: number, baud: number): number {
  return baud > 0 ? (bytes * 10 * 1e6) / baud : 0;
}

export class ClockPinger {
  private readonly transport: PingTransport;
  private readonly schedule: PingSchedule;
  private readonly onSample: (sample: RawSyncSample) => void;
  private readonly timers: TimerSet;
  private burstLeft = 0;
  /** Bumped by start/stop, so a reply to a ping of an earlier run schedules nothing. */
  private generation = 0;
  private running = false;
  private inFlight = false;
  /** The timer of the next ping, while one is scheduled. */
  private next: symbol | undefined;

  /** Host times come from the link's command timing (taken when the ping is written and the reply parsed). */
  constructor(transport: PingTransport, scheduler: Scheduler, schedule: PingSchedule, onSample: (sample: RawSyncSample) => void) {
    this.transport = transport;
    this.schedule = schedule;
    this.onSample = onSample;
    this.timers = new TimerSet(scheduler);
  }

  /** (Re)starts pinging with a burst: call it on every banner. */
  start(): void {
    this.stop();
    this.running = true;
    this.burstLeft = this.schedule.burstCount;
    this.ping(this.generation);
  }

  /** Stops pinging; a ping in flight is left to resolve and ignored. Safe to call twice. */
  stop(): void {
    this.running = false;
    this.inFlight = false;
    this.generation++;
    this.timers.clear();
    this.next = undefined;
  }

  /**
   * Pings now instead of at the next scheduled moment (the schedule goes on from this ping); nothing when a
   * ping is in flight (its reply comes soon anyway) or the pinger is stopped. The driver uses it when it needs
   * a fresh stamp from the station soon: a reply proves which lines the station had sent before it.
   */
  pingNow(): void {
    if (!this.running || this.inFlight) return;
    this.timers.cancel(this.next);
    this.next = undefined;
    this.ping(this.generation);
  }

  private ping(generation: number): void {
    this.inFlight = true;
    void this.transport.command({ verb: 'ping' }, this.schedule.timeoutMs).then((outcome) => {
      if (generation !== this.generation || !this.running) return;
      const raw = outcome.ok ? parseU32Field(outcome.fields.t) : undefined;
      if (outcome.ok && raw !== undefined) {
        this.onSample({
          hostSendUs: outcome.sentUs,
          raw,
          hostRecvUs: outcome.receivedUs,
          outboundMinUs: wireTimeUs(outcome.sentBytes, this.schedule.wireBaudRate),
          inboundMinUs: wireTimeUs(outcome.replyBytes, this.schedule.wireBaudRate),
        });
      }
      // Still "in flight" while the sample is handled: a pingNow() from there must not start a second chain.
      this.inFlight = false;
      if (!outcome.ok && outcome.failure === 'closed') return;
      const inBurst = this.burstLeft > 1;
      this.burstLeft = Math.max(0, this.burstLeft - 1);
      this.next = this.timers.after(inBurst ? this.schedule.burstIntervalMs : this.schedule.intervalMs, () => {
        this.next = undefined;
        this.ping(generation);
      });
    });
  }
}

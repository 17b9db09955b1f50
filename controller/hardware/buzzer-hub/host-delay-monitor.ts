/**
 * The host term of the hub's latency model, measured on the running controller.
 *
 * The hub stamps a report when its callback runs; the host part of the delay (`eventLoopUs`, YAML
 * `hardware.buzzerHub.hostDelayMs`) is how long the report's bytes waited in the host before that — almost
 * all of it the time the event loop was busy elsewhere (synchronous work, GC, a starved CPU) when they
 * arrived. That is what this measures: a probe timer every `probeMs` notes how late it runs. A timer due
 * while the loop is busy runs when the loop is free again, as the serial read does, so its lateness is the
 * wait a report arriving at its due time would have had. Not included: the kernel tty and serialport's own
 * read (tens to hundreds of µs, measured with the emulator by test/firmata/measure-host-delay.ts, which
 * prints this monitor's figures beside its own).
 *
 * - **Rolling figures** over the last `windowMs` (default 60 s): p50, p99 and max lateness, for
 *   `<base>/bridge/health` (docs/mqtt.md).
 * - **Edges over the allowance**: an edge stamped while the loop had stalled could have waited up to the
 *   stall. Each edge is judged once the probes around it have run: its bound is the largest lateness of the
 *   probes that ran within one probe period either side of its stamp, plus one probe period (the probe due
 *   just after the edge's bytes arrived may be up to one period away). An edge whose bound exceeds the
 *   allowance is counted, and a warning goes to the listeners (the controller logs it), at most one per
 *   `warnEveryMs` with the count since the last.
 */
import type { HostDelaySnapshot } from '../../kernel/stats.ts';

export interface HostDelayMonitorOptions {
  /** The allowance the hub's stamps assume (µs): `LatencyModel.eventLoopUs`. */
  readonly allowanceUs: number;
  /** Probe period, ms. Default 10. */
  readonly probeMs?: number;
  /** Rolling window of the figures, ms. Default 60 000. */
  readonly windowMs?: number;
  /** Least time between two warnings, ms. Default 10 000. */
  readonly warnEveryMs?: number;
}

/** What `<base>/bridge/health` carries for the hub (declared once in the kernel, beside the statistics). */
export type { HostDelaySnapshot };

/** A warning: `edges` edges since the last warning could have waited up to `worstMs`, above the allowance. */
export interface HostDelayWarning {
  readonly edges: number;
  readonly worstMs: number;
  readonly allowanceMs: number;
}

const round01 = (ms: number): number => Math.round(ms * 10) / 10;

export class HostDelayMonitor {
  private readonly probeMs: number;
  private readonly windowMs: number;
  private readonly warnEveryMs: number;
  private readonly allowanceMs: number;
  /** Probe samples in time order: when the probe ran (ms, performance.now) and how late (ms). */
  private readonly samples: { readonly atMs: number; readonly lateMs: number }[] = [];
  /** Edges not judged yet (their stamp, ms). */
  private pending: number[] = [];
  private timer: NodeJS.Timeout | undefined;
  private edges = 0;
  private edgesOver = 0;
  private unwarned = { edges: 0, worstMs: 0 };
  private lastWarnMs = -Infinity;
  private readonly listeners = new Set<(warning: HostDelayWarning) => void>();

  constructor(options: HostDelayMonitorOptions) {
    this.probeMs = options.probeMs ?? 10;
    this.windowMs = options.windowMs ?? 60_000;
    this.warnEveryMs = options.warnEveryMs ?? 10_000;
    this.allowanceMs = options.allowanceUs / 1000;
  }

  /** Starts the probe (again after `stop`). */
  start(): void {
    if (this.timer !== undefined) return;
    this.schedule(performance.now() + this.probeMs);
  }

  /** Stops the probe; the figures so far stay readable. */
  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** An edge was stamped now. */
  edge(): void {
    this.pending.push(performance.now());
  }

  /** Called with each warning (the controller logs it). */
  onWarning(listener: (warning: HostDelayWarning) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  snapshot(): HostDelaySnapshot {
    this.expire(performance.now());
    const late = this.samples.map((s) => s.lateMs).sort((a, b) => a - b);
    const at = (p: number): number => late[Math.max(0, Math.ceil(p * late.length) - 1)] ?? 0;
    return {
      windowS: this.windowMs / 1000, samples: late.length,
      p50Ms: round01(at(0.5)), p99Ms: round01(at(0.99)), maxMs: round01(late.at(-1) ?? 0),
      allowanceMs: round01(this.allowanceMs), edges: this.edges, edgesOver: this.edgesOver,
    };
  }

  private schedule(dueMs: number): void {
    this.timer = setTimeout(() => {
      const now = performance.now();
      this.samples.push({ atMs: now, lateMs: Math.max(0, now - dueMs) });
      this.judge(now);
      this.expire(now);
      // The next probe is due one period after this one ran: a stall is sampled once, not as a burst.
      this.schedule(now + this.probeMs);
    }, this.probeMs);
    // The probe never keeps the process alive on its own.
    this.timer.unref();
  }

  /** Judges the edges whose surrounding probes have all run; warns when the last warning is old enough. */
  private judge(now: number): void {
    const ready = this.pending.filter((t) => t + this.probeMs < now);
    if (ready.length > 0) this.pending = this.pending.filter((t) => t + this.probeMs >= now);
    for (const t of ready) {
      let worst = 0;
      for (let i = this.samples.length - 1; i >= 0; i--) {
        const s = this.samples[i];
        if (s === undefined || s.atMs < t - this.probeMs) break;
        if (s.atMs <= t + this.probeMs) worst = Math.max(worst, s.lateMs);
      }
      const bound = worst + this.probeMs;
      this.edges++;
      if (bound <= this.allowanceMs) continue;
      this.edgesOver++;
      this.unwarned.edges++;
      this.unwarned.worstMs = Math.max(this.unwarned.worstMs, bound);
    }
    if (this.unwarned.edges === 0 || now - this.lastWarnMs < this.warnEveryMs) return;
    const { edges, worstMs } = this.unwarned;
    const warning = { edges, worstMs: round01(worstMs), allowanceMs: round01(this.allowanceMs) };
    this.unwarned = { edges: 0, worstMs: 0 };
    this.lastWarnMs = now;
    for (const listener of this.listeners) listener(warning);
  }

  private expire(now: number): void {
    let drop = 0;
    while (drop < this.samples.length && (this.samples[drop]?.atMs ?? now) < now - this.windowMs) drop++;
    if (drop > 0) this.samples.splice(0, drop);
  }
}

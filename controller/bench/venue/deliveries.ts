/**
 * Every viewer must get every event of the tables it follows: a lost delivery is a failure, never a smaller
 * denominator. Each event carries its table's `seq` (+1 per event, docs/mqtt.md), so what the controllers
 * published in the window is, per table, the seqs in (first, last]: `first` the newest seq the reference (the
 * venue viewers, on the venue broker itself) had seen when the window opened, `last` the newest when it closed.
 * Each viewer keeps the (seq, latency) of every event it receives; at the end it is held against those ranges:
 * each seq of a followed table that it did not get is one lost delivery. Latencies count only the window's
 * events (not the snapshot a dashboard viewer gets on connecting, not the warm-up).
 */
import { summarise } from '../../kernel/stats.ts';

/** Per table, the window's events: seq in (from, to]. */
export type SeqRanges = Readonly<Record<string, readonly [from: number, to: number]>>;

/** What a group of viewers got, summed. */
export interface DeliveryTally {
  readonly viewers: number;
  /** Deliveries owed: for each viewer, the window's events of the tables it follows. */
  readonly expected: number;
  readonly lost: number;
  /** Viewers that missed at least one event. */
  readonly viewersWithLoss: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

/** One viewer's received events, by table (in arrival order; a repeat counts once). */
export class DeliveryLog {
  private readonly seqs = new Map<string, number[]>();
  private readonly latencies = new Map<string, number[]>();

  /** `follows`: the tables this viewer follows, or undefined for every table. */
  constructor(readonly follows: ReadonlySet<string> | undefined) {}

  record(table: string, seq: number, latencyMs: number): void {
    let seqs = this.seqs.get(table);
    let latencies = this.latencies.get(table);
    if (seqs === undefined || latencies === undefined) {
      seqs = [];
      latencies = [];
      this.seqs.set(table, seqs);
      this.latencies.set(table, latencies);
    }
    seqs.push(seq);
    latencies.push(latencyMs);
  }

  /** The window's deliveries this viewer owes and lost; pushes the latency of each one it got into `into`. */
  check(ranges: SeqRanges, into?: number[]): { expected: number; lost: number } {
    let expected = 0;
    let lost = 0;
    for (const [table, [from, to]] of Object.entries(ranges)) {
      if (this.follows !== undefined && !this.follows.has(table)) continue;
      expected += to - from;
      const seqs = this.seqs.get(table) ?? [];
      const latencies = this.latencies.get(table) ?? [];
      const got = new Set<number>();
      for (let i = 0; i < seqs.length; i++) {
        const seq = seqs[i] as number;
        if (seq <= from || seq > to || got.has(seq)) continue;
        got.add(seq);
        into?.push(latencies[i] as number);
      }
      lost += to - from - got.size;
    }
    return { expected, lost };
  }
}

/** The tally of a group of viewers (their latencies summarised; NaN figures when none arrived). */
export function tally(logs: readonly DeliveryLog[], ranges: SeqRanges): DeliveryTally {
  const latencies: number[] = [];
  let expected = 0;
  let lost = 0;
  let viewersWithLoss = 0;
  for (const log of logs) {
    const one = log.check(ranges, latencies);
    expected += one.expected;
    lost += one.lost;
    if (one.lost > 0) viewersWithLoss++;
  }
  const s = summarise(latencies);
  return { viewers: logs.length, expected, lost, viewersWithLoss, p50Ms: s.p50, p99Ms: s.p99, maxMs: s.max };
}

/** Whether every log has every event of the window (no lost delivery); cheaper than a tally for polling. */
export function complete(logs: readonly DeliveryLog[], ranges: SeqRanges): boolean {
  return logs.every((log) => log.check(ranges).lost === 0);
}

/**
 * Waits until every log is complete or `graceMs` passed (deliveries of the window's last events still under
 * way), then tallies. A delivery later than the grace is lost: the grace bounds what "late" may mean.
 */
export async function tallyAfterGrace(logs: readonly DeliveryLog[], ranges: SeqRanges, graceMs: number): Promise<DeliveryTally> {
  const deadline = performance.now() + graceMs;
  while (!complete(logs, ranges) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  return tally(logs, ranges);
}

/** The table and seq of an event message (`<base>/<table>/events`, payload with `seq` and `at`), or undefined. */
export function eventOf(
  topic: string, payload: { readonly seq?: unknown; readonly at?: unknown },
): { table: string; seq: number; at: number } | undefined {
  if (!topic.endsWith('/events')) return undefined;
  const parts = topic.split('/');
  const table = parts[parts.length - 2];
  const { seq, at } = payload;
  if (table === undefined || typeof seq !== 'number' || typeof at !== 'number') return undefined;
  return { table, seq, at };
}

/**
 * Holes in the dashboard's event lists, filled from the table's own log. Every event carries its table's `seq`
 * (+1 per event within one controller start, `epoch`); when the dashboard's connection to the broker was down —
 * the venue's Wi-Fi, the broker restarting — the next event it receives shows a jump in `seq`. It then asks the
 * table for what it missed with the tokenless `history` request (docs/mqtt.md, "history: the events you missed"),
 * page by page, and hands those events to the hub, which puts them in their place and passes them on to the
 * browsers: the big screen's list has no hole (docs/venue-offline.md).
 *
 * Only the newest `keep` missing events are asked for (the hub keeps no more per table), one fill per table at
 * a time; a fill that fails (no answer: the controller is away) is logged and not retried — the state that
 * follows is the truth, and the next jump asks again.
 */
import type { TransportLogger } from '../../controller/transport/logger.ts';

/** One page of `history`: the events as published, and where the next page starts (null: none). */
export interface HistoryPage {
  readonly events: readonly unknown[];
  readonly next: number | null;
}

export type AskHistory = (table: string, params: { fromSeq: number; epoch: number; limit: number }) => Promise<HistoryPage>;

/** The `seq` and `epoch` of an event payload, when it has them. */
export function eventNumber(payload: unknown): { seq: number; epoch: number } | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const { seq, epoch } = payload as { seq?: unknown; epoch?: unknown };
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || typeof epoch !== 'number' || !Number.isSafeInteger(epoch)) return undefined;
  return { seq, epoch };
}

export interface GapStats {
  /** Jumps in `seq` seen, and fills that brought events back. */
  gaps: number;
  filled: number;
  /** Events brought back, and fills that got no answer. */
  recovered: number;
  failed: number;
}

export class EventGaps {
  readonly stats: GapStats = { gaps: 0, filled: 0, recovered: 0, failed: 0 };
  private readonly newest = new Map<string, { epoch: number; seq: number }>();
  private readonly filling = new Set<string>();

  constructor(
    private readonly ask: AskHistory,
    private readonly onRecovered: (table: string, events: readonly unknown[]) => void,
    private readonly keep: number,
    private readonly logger: TransportLogger,
  ) {}

  /** Every event as it arrives live. A jump past the newest event of the same start asks for what lies between. */
  seen(table: string, at: { seq: number; epoch: number }): void {
    const newest = this.newest.get(table);
    // The first event since the dashboard started, or a new start of the controller (seq begins again at 1).
    if (newest === undefined || at.epoch > newest.epoch) {
      this.newest.set(table, at);
      return;
    }
    if (at.epoch < newest.epoch || at.seq <= newest.seq) return;
    if (at.seq > newest.seq + 1 && !this.filling.has(table)) {
      this.stats.gaps++;
      void this.fill(table, at.epoch, Math.max(newest.seq + 1, at.seq - this.keep), at.seq - 1);
    }
    this.newest.set(table, at);
  }

  private async fill(table: string, epoch: number, from: number, to: number): Promise<void> {
    this.filling.add(table);
    const found: unknown[] = [];
    try {
      let fromSeq: number | null = from;
      while (fromSeq !== null && fromSeq <= to) {
        const page: HistoryPage = await this.ask(table, { fromSeq, epoch, limit: to - fromSeq + 1 });
        found.push(...page.events.filter((e) => {
          const n = eventNumber(e);
          return n !== undefined && n.epoch === epoch && n.seq >= from && n.seq <= to;
        }));
        fromSeq = page.events.length === 0 ? null : page.next;
      }
      if (found.length > 0) {
        this.stats.filled++;
        this.stats.recovered += found.length;
        this.onRecovered(table, found);
      }
    } catch (error) {
      this.stats.failed++;
      this.logger.warn('dashboard could not fill a gap in a table\'s events', {
        table, from, to, error: error instanceof Error ? error.message : String(error),
      });
    } finally {
      this.filling.delete(table);
    }
  }
}

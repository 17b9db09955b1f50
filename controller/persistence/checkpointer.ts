/**
 * When the WAL is copied back into the database file. SQLite's automatic checkpoint runs inside whichever
 * COMMIT crosses 1000 WAL pages and fsyncs the database file there: measured, that turns the p99 commit from
 * ~0.1 ms into ~5 ms (and the worst case into ~20 ms), on the path from sensor line to MQTT. So the writer
 * turns it off and checkpoints when the table is idle (no commit for `idleMs`), which a game table mostly is
 * between presses, with a cap on the WAL's size so a never-idle log cannot grow without bound (a WAL that
 * grows is also slower to append to). Under sustained load the capped checkpoints still stall one commit each:
 * see docs/persistence.md for the measured figures.
 */
import type Database from 'better-sqlite3';

export interface CheckpointOptions {
  /** Checkpoint after this long without a commit. Default 250 ms. */
  readonly checkpointIdleMs?: number;
  /**
   * Checkpoint right after the commit that brings the WAL to about this many 4 KiB pages (estimated: a commit
   * writes at least one page, and a log row takes ~200 bytes). Default 2000 (~8 MiB; SQLite's own is 1000).
   */
  readonly checkpointPages?: number;
}

export class IdleCheckpointer {
  private readonly idleMs: number;
  private readonly maxPages: number;
  private pagesSince = 0;
  private lastCommitMs = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly db: Database.Database, options: CheckpointOptions) {
    this.idleMs = options.checkpointIdleMs ?? 250;
    this.maxPages = options.checkpointPages ?? 2000;
    db.pragma('wal_autocheckpoint = 0');
  }

  /** Called after every commit of `rows` rows. */
  committed(rows: number): void {
    if (rows === 0) return;
    this.pagesSince += 1 + rows / 20;
    this.lastCommitMs = performance.now();
    if (this.pagesSince >= this.maxPages) {
      this.checkpoint();
      return;
    }
    if (this.timer === undefined) this.arm(this.idleMs);
  }

  /** Checkpoints now if nothing is pending (PASSIVE: never waits for readers, never blocks the writer). */
  checkpoint(): void {
    this.stop();
    if (!this.db.open || this.db.inTransaction) return;
    this.db.pragma('wal_checkpoint(PASSIVE)');
    this.pagesSince = 0;
  }

  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(ms: number): void {
    // unref: a pending checkpoint must not keep the process alive; close() checkpoints anyway.
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const quietMs = performance.now() - this.lastCommitMs;
      if (quietMs < this.idleMs || this.db.inTransaction) {
        this.arm(Math.max(1, this.idleMs - quietMs));
        return;
      }
      try {
        this.checkpoint();
      } catch {
        // A failed checkpoint loses nothing (the WAL stays valid); the next commit reports a real disk problem.
      }
    }, ms).unref();
  }
}

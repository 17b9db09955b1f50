/**
 * The append-only event log (design principle 8, "Nothing is lost"). Every sensor event and every applied or
 * rejected action is appended here before anything derived from it is published.
 *
 * Group commit: an append runs its INSERT at once (so its seq is known) inside a transaction that stays open
 * for the rest of the event-loop turn; the batch commits in a `setImmediate` callback, or earlier when the
 * caller calls `commit()` or the batch reaches `maxBatchRows`. One commit per turn instead of one per row is
 * what makes ≥ 20,000 events/s cheap. The contract for callers: publish only what is committed, either
 *   log.appendAction(…); log.commit(); publish(…)            // commit now, synchronously
 * or
 *   log.appendAction(…); await log.committed(); publish(…)   // share the turn's commit with other appends
 * A killed process loses at most the uncommitted batch, and nothing of that batch was published.
 */
import type Database from 'better-sqlite3';
import { reject, type Result } from '../kernel/result.ts';
import type { BaseAction, GameId, GameResult } from '../rules/engine.ts';
import { IdleCheckpointer, type CheckpointOptions } from './checkpointer.ts';
import { openDatabase, type OpenOptions } from './database.ts';
import { effectiveSeqs } from './effective-actions.ts';
import { EventLogError, toLogError, type EventLogErrorCode } from './errors.ts';
import { LogReader } from './log-reader.ts';
import type { Correction, LoggableSensorEvent } from './rows.ts';

export interface EventLogOptions extends OpenOptions, CheckpointOptions {
  /** Commit the pending batch at the end of the event-loop turn (setImmediate). Default true. */
  readonly autoCommit?: boolean;
  /** Commit as soon as a batch holds this many rows, bounding a transaction's size. Default 1000. */
  readonly maxBatchRows?: number;
  /** Wall clock for `at_wall_ms` and game start/end times (ms since 1970). Default Date.now. */
  readonly wallClock?: () => number;
  /**
   * Called when an automatic commit fails (the batch is rolled back and `committed()` waiters are rejected).
   * Default: rethrow, which ends the process — the log can no longer promise anything, and a restart recovers
   * every committed row.
   */
  readonly onError?: (error: EventLogError) => void;
}

export interface CommitInfo {
  /** Rows the commit made durable (0 when nothing was pending). */
  readonly rows: number;
  /** The highest seq in the log after the commit. */
  readonly lastSeq: number;
}

export type OpenResult = Result<{ readonly log: EventLog }, EventLogErrorCode>;

export type CorrectionResult = Result<{ readonly seq: number }, 'BAD_CORRECTION' | 'NOTHING_TO_UNDO' | 'UNDO_NOT_LAST'>;

export interface NewGame {
  readonly tableId: string;
  readonly game: GameId;
  readonly config: Record<string, unknown> & { readonly players: readonly string[] };
  readonly seed: number | string;
}

/** What a rejected action's row keeps of the rejection. */
export interface RejectionSummary {
  readonly code: string;
  readonly message: string;
}

/** A game in progress, as the writer tracks it to validate appends without reading the file. */
interface OpenGame {
  readonly tableId: string;
  /** Seqs of the actions in force, oldest first; undo may only pop the last one. */
  readonly actions: number[];
}

interface Waiter {
  resolve(info: CommitInfo): void;
  reject(error: EventLogError): void;
}

type Params = [string, number | null, string, number, number | null, string];
type SensorParams = [
  string, number | null, number, number, string, string, string, number, number | null, number, number | null, number, number,
];

export class EventLog {
  /** Reads over the same connection (sees the pending batch too). */
  readonly reader: LogReader;
  private readonly insertRow: Database.Statement<Params>;
  private readonly insertSensor: Database.Statement<SensorParams>;
  private readonly insertGame: Database.Statement<[string, string, string, string, number]>;
  private readonly finishGame: Database.Statement<[number, string, number]>;
  private readonly insertSnapshot: Database.Statement<[number, number, number, string]>;
  private readonly openGames = new Map<number, OpenGame>();
  private readonly checkpointer: IdleCheckpointer | undefined;
  private readonly autoCommit: boolean;
  private readonly maxBatchRows: number;
  private readonly wallClock: () => number;
  private batchRows = 0;
  private answersSincePrune = 0;
  private answerStatements: {
    readonly put: Database.Statement<[string, string, number, string]>;
    readonly get: Database.Statement<[string, number], string>;
    readonly prune: Database.Statement<[number]>;
  } | undefined;

  private publicEventInsert: Database.Statement<[string, number, number, number, string]> | undefined;
  private lastSeqValue: number;
  private scheduled: NodeJS.Immediate | undefined;
  private waiters: Waiter[] = [];
  private closed = false;

  private constructor(private readonly db: Database.Database, readonly file: string, private readonly options: EventLogOptions) {
    this.reader = new LogReader(db);
    this.autoCommit = options.autoCommit ?? true;
    this.maxBatchRows = options.maxBatchRows ?? 1000;
    this.wallClock = options.wallClock ?? Date.now;
    this.insertRow = db.prepare('INSERT INTO log (table_id, game_id, kind, at_wall_ms, host_us, payload) VALUES (?, ?, ?, ?, ?, ?)');
    this.insertSensor = db.prepare(`INSERT INTO log (table_id, game_id, kind, at_wall_ms, host_us, payload,
      station, time_source, epoch, raw_us, device_us, uncertainty_us, before_us, after_us)
      VALUES (?, ?, 'sensor', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.insertGame = db.prepare('INSERT INTO games (table_id, game, config, seed, started_at) VALUES (?, ?, ?, ?, ?)');
    this.finishGame = db.prepare('UPDATE games SET ended_at = ?, result = ? WHERE id = ? AND ended_at IS NULL');
    this.insertSnapshot = db.prepare('INSERT OR IGNORE INTO snapshots (game_id, seq, action_count, state) VALUES (?, ?, ?, ?)');
    this.lastSeqValue = this.reader.lastSeq();
    this.loadOpenGames();
    this.checkpointer = options.readonly === true ? undefined : new IdleCheckpointer(db, options);
  }

  /**
   * Opens (or creates, with its folders) a log file. A damaged file answers `LOG_CORRUPT` and stays untouched;
   * see `OpenOptions` for durability, the busy timeout, the integrity check and read-only use.
   */
  static open(file: string, options: EventLogOptions = {}): OpenResult {
    const opened = openDatabase(file, options);
    if (!opened.ok) return opened;
    try {
      return { ok: true, log: new EventLog(opened.db, file, options) };
    } catch (error) {
      opened.db.close();
      const e = toLogError(error, file, 'LOG_UNREADABLE');
      return reject(e.code, e.detail);
    }
  }

  /** Rows appended since the last commit. */
  get pendingRows(): number {
    return this.batchRows;
  }

  /** The highest seq appended so far (committed or pending). */
  get lastSeq(): number {
    return this.lastSeqValue;
  }

  /** Starts a game on a table; throws GAME_IN_PROGRESS while that table has an unfinished game. */
  startGame(game: NewGame): number {
    for (const [id, open] of this.openGames) {
      if (open.tableId === game.tableId) throw new EventLogError('GAME_IN_PROGRESS', `table ${game.tableId} still has game ${id} in progress`);
    }
    const config = JSON.stringify(game.config);
    const seed = JSON.stringify(game.seed);
    return this.write(() => {
      const at = this.wallClock();
      const id = Number(this.insertGame.run(game.tableId, game.game, config, seed, at).lastInsertRowid);
      // The row carries the whole setup, so the log alone can rebuild the game's row (`zaptable log repair`
      // when the page holding the games table is lost).
      this.insert(game.tableId, id, 'system', null, {
        event: 'game-started', game: game.game, players: game.config.players, config: game.config, seed: game.seed,
      }, at);
      this.openGames.set(id, { tableId: game.tableId, actions: [] });
      return id;
    }, true);
  }

  /** Logs a sensor event (gameId null between games); returns its seq. */
  appendSensor(tableId: string, gameId: number | null, event: LoggableSensorEvent): number {
    if (gameId !== null) this.openGame(tableId, gameId);
    return this.write(() => {
      const { time, ...fields } = event;
      const uncertainty = Number.isFinite(time.uncertaintyUs) ? time.uncertaintyUs : null;
      const result = this.insertSensor.run(tableId, gameId, this.wallClock(), time.hostUs, JSON.stringify(fields),
        event.station, time.source, time.epoch, time.rawUs ?? null, time.deviceUs, uncertainty, time.beforeUs, time.afterUs);
      return this.track(Number(result.lastInsertRowid));
    });
  }

  /**
   * Logs an applied action with an optional summary of its outcome (e.g. the engine's events) and the
   * controller time it happened at; returns its seq.
   */
  appendAction(tableId: string, gameId: number, action: BaseAction, summary?: unknown, hostUs?: number): number {
    const open = this.openGame(tableId, gameId);
    return this.write(() => {
      const seq = this.insert(tableId, gameId, 'action', hostUs ?? null, summary === undefined ? { action } : { action, summary });
      open.actions.push(seq);
      return seq;
    });
  }

  /** Logs an action the engine (or the runtime) refused, with the rejection's code; returns its seq. */
  appendRejected(tableId: string, gameId: number | null, action: unknown, rejection: RejectionSummary, hostUs?: number): number {
    if (gameId !== null) this.openGame(tableId, gameId);
    const payload = { action, code: rejection.code, message: rejection.message };
    return this.write(() => this.insert(tableId, gameId, 'rejected', hostUs ?? null, payload));
  }

  /**
   * Logs a referee's correction. Undo must name the last action still in force (so the rest always replays);
   * anything else is answered with a rejection and logs nothing.
   */
  appendCorrection(tableId: string, gameId: number, correction: Correction): CorrectionResult {
    const open = this.openGame(tableId, gameId);
    const c = correction as Partial<Correction> | null;
    if (typeof c?.by !== 'string' || c.by === '' || typeof c.reason !== 'string' || c.action?.type !== 'undo' || !Number.isInteger(c.action.seq)) {
      return reject('BAD_CORRECTION', 'a correction needs "by", "reason" and an action {type: "undo", seq}');
    }
    const last = open.actions.at(-1);
    if (last === undefined) return reject('NOTHING_TO_UNDO', `game ${gameId} has no action to undo`);
    if (last !== correction.action.seq) {
      const message = `only the last action in force (seq ${last}) can be undone, not seq ${correction.action.seq}`;
      return reject('UNDO_NOT_LAST', message);
    }
    return this.write(() => {
      const seq = this.insert(tableId, gameId, 'correction', null, { by: correction.by, reason: correction.reason, action: correction.action });
      open.actions.pop();
      return { ok: true, seq };
    });
  }

  /** Logs something about the controller itself (started, station lost…); returns its seq. */
  appendSystem(tableId: string, gameId: number | null, payload: Readonly<Record<string, unknown>>): number {
    if (gameId !== null) this.openGame(tableId, gameId);
    return this.write(() => this.insert(tableId, gameId, 'system', null, payload));
  }

  /**
   * Stores the state reached after the game's actions in force, so recovery can start there instead of from
   * setup. The caller passes the state it holds; recovery uses a snapshot only while no undo has reached
   * behind it. Returns false (and stores nothing) before the first action.
   */
  appendSnapshot(gameId: number, state: unknown): boolean {
    const open = this.openGames.get(gameId);
    if (open === undefined) throw new EventLogError('GAME_NOT_OPEN', `game ${gameId} is not in progress`);
    const last = open.actions.at(-1);
    if (last === undefined) return false;
    const json = JSON.stringify(state);
    this.write(() => this.insertSnapshot.run(gameId, last, open.actions.length, json));
    return true;
  }

  /** Ends a game with its result (finished games are kept as history). */
  endGame(gameId: number, result: GameResult): void {
    const open = this.openGames.get(gameId);
    if (open === undefined) throw new EventLogError('GAME_NOT_OPEN', `game ${gameId} is not in progress`);
    const resultJson = JSON.stringify(result);
    this.write(() => {
      const at = this.wallClock();
      this.finishGame.run(at, resultJson, gameId);
      this.insert(open.tableId, gameId, 'system', null, { event: 'game-ended', result }, at);
      this.openGames.delete(gameId);
    }, true);
  }

  /**
   * Remembers the answer to a request with a transaction id and commits it at once, so that it is durable
   * before the requester sees it (a repeat after a restart is answered from here). Answers older than
   * `pruneBeforeMs` are dropped meanwhile.
   */
  rememberAnswer(key: string, tableId: string, response: string, pruneBeforeMs: number): void {
    const at = this.wallClock();
    this.write(() => {
      this.statements().put.run(key, tableId, at, response);
      this.batchRows++;
      if (++this.answersSincePrune >= 500) {
        this.answersSincePrune = 0;
        this.statements().prune.run(pruneBeforeMs);
      }
    });
    this.commit();
  }

  /** The remembered answer to `key` if it was given at or after `sinceMs`. */
  recallAnswer(key: string, sinceMs: number): string | undefined {
    return this.statements().get.get(key, sinceMs);
  }

  /**
   * Appends one public event exactly as it is published on `<base>/<table>/events` (`payload`: its JSON), under
   * its `(tableId, epoch, seq)`, in the open batch. Call before publishing it: what the venue missed during a
   * network cut is replayed from here (docs/venue-offline.md). A repeated `(tableId, epoch, seq)` is refused
   * (LOG_WRITE_FAILED): an event has one number.
   */
  appendPublicEvent(tableId: string, epoch: number, seq: number, at: number, payload: string): void {
    this.publicEventInsert ??= this.db.prepare('INSERT INTO public_events (table_id, epoch, seq, at_wall_ms, payload) VALUES (?, ?, ?, ?, ?)');
    const insert = this.publicEventInsert;
    this.write(() => {
      insert.run(tableId, epoch, seq, Math.round(at), payload);
      this.batchRows++;
    });
  }

  /** The number of actions in force in a game in progress. */
  actionCount(gameId: number): number {
    return this.openGames.get(gameId)?.actions.length ?? 0;
  }

  /** The seq of the last action in force in a game in progress (what "undo" would name), if any. */
  lastActionInForce(gameId: number): number | undefined {
    return this.openGames.get(gameId)?.actions.at(-1);
  }

  /** The games in progress, by id, with their table. */
  gamesInProgress(): { readonly gameId: number; readonly tableId: string }[] {
    return [...this.openGames].map(([gameId, g]) => ({ gameId, tableId: g.tableId }));
  }

  /**
   * Commits the pending batch now. Synchronous: when it returns, the batch survives a killed process
   * (`durability: 'process'`) or a power cut (`'power'`). Throws LOG_WRITE_FAILED after rolling the batch back.
   */
  commit(): CommitInfo {
    if (this.scheduled !== undefined) {
      clearImmediate(this.scheduled);
      this.scheduled = undefined;
    }
    if (this.closed || !this.db.inTransaction) return { rows: 0, lastSeq: this.lastSeqValue };
    const rows = this.batchRows;
    try {
      this.db.exec('COMMIT');
    } catch (error) {
      throw this.fail(error);
    }
    this.batchRows = 0;
    this.checkpointer?.committed(rows);
    const info = { rows, lastSeq: this.lastSeqValue };
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w.resolve(info);
    return info;
  }

  /** Same as commit(). */
  flush(): CommitInfo {
    return this.commit();
  }

  /**
   * Resolves once everything appended so far is committed: at the end of this event-loop turn, or earlier on
   * commit()/maxBatchRows. With `autoCommit: false`, only the next commit() resolves it. Rejects with the
   * commit's error if the batch was rolled back.
   */
  committed(): Promise<CommitInfo> {
    if (this.closed || !this.db.inTransaction) return Promise.resolve({ rows: 0, lastSeq: this.lastSeqValue });
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /** Commits what is pending and closes the file (a clean close also checkpoints the WAL). Safe to call twice. */
  close(): void {
    if (this.closed) return;
    try {
      this.commit();
    } finally {
      this.closed = true;
      this.checkpointer?.stop();
      this.db.close();
    }
  }

  private openGame(tableId: string, gameId: number): OpenGame {
    const open = this.openGames.get(gameId);
    if (open?.tableId !== tableId) throw new EventLogError('GAME_NOT_OPEN', `game ${gameId} is not in progress on table ${tableId}`);
    return open;
  }

  /** Prepared on first use (a read-only tool never needs them). */
  private statements(): NonNullable<EventLog['answerStatements']> {
    this.answerStatements ??= {
      put: this.db.prepare('INSERT OR REPLACE INTO answers (key, table_id, at_wall_ms, response) VALUES (?, ?, ?, ?)'),
      get: this.db.prepare<[string, number], string>('SELECT response FROM answers WHERE key = ? AND at_wall_ms >= ?').pluck(),
      prune: this.db.prepare('DELETE FROM answers WHERE at_wall_ms < ?'),
    };
    return this.answerStatements;
  }

  private insert(
    tableId: string, gameId: number | null, kind: string, hostUs: number | null, payload: unknown, atMs = this.wallClock(),
  ): number {
    const result = this.insertRow.run(tableId, gameId, kind, atMs, hostUs, JSON.stringify(payload));
    return this.track(Number(result.lastInsertRowid));
  }

  private track(seq: number): number {
    this.lastSeqValue = seq;
    this.batchRows++;
    return seq;
  }

  /**
   * Runs `body` inside the open batch, beginning one if needed. `multi`: body runs several statements, made
   * atomic with a savepoint. A failed statement leaves the batch as it was (the row is simply not appended);
   * a failure that aborted the whole transaction (disk full, I/O) loses the batch: see fail().
   */
  private write<T>(body: () => T, multi = false): T {
    if (this.closed) throw new EventLogError('LOG_CLOSED', `${this.file} is closed`);
    if (this.options.readonly === true) throw new EventLogError('LOG_READONLY', `${this.file} was opened read-only`);
    let result: T;
    try {
      if (!this.db.inTransaction) {
        // IMMEDIATE takes the write lock now, so a competing writer fails here (LOG_BUSY), not at COMMIT.
        this.db.exec('BEGIN IMMEDIATE');
        this.batchRows = 0;
        if (this.autoCommit) {
          this.scheduled ??= setImmediate(() => {
            this.autoCommitNow();
          });
        }
      }
      // Inside an open transaction, better-sqlite3's transaction() is a savepoint.
      result = multi ? this.db.transaction(body)() : body();
    } catch (error) {
      if (!this.db.inTransaction) throw this.fail(error);
      this.lastSeqValue = this.reader.lastSeq();
      throw toLogError(error, this.file, 'LOG_WRITE_FAILED');
    }
    if (this.batchRows >= this.maxBatchRows) this.commit();
    return result;
  }

  private autoCommitNow(): void {
    this.scheduled = undefined;
    try {
      this.commit();
    } catch (error) {
      const e = toLogError(error, this.file, 'LOG_WRITE_FAILED');
      if (this.options.onError === undefined) throw e;
      this.options.onError(e);
    }
  }

  /** Rolls the batch back, rejects its waiters and rebuilds what the writer tracks from the committed file. */
  private fail(error: unknown): EventLogError {
    const e = toLogError(error, this.file, 'LOG_WRITE_FAILED');
    try {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      this.batchRows = 0;
      this.lastSeqValue = this.reader.lastSeq();
      this.loadOpenGames();
    } catch {
      // The connection itself is unusable; the original error is the one to report.
    }
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w.reject(e);
    return e;
  }

  private loadOpenGames(): void {
    this.openGames.clear();
    for (const game of this.reader.games({ finished: false })) {
      this.openGames.set(game.id, { tableId: game.tableId, actions: effectiveSeqs(this.reader.steps(game.id)) });
    }
  }
}

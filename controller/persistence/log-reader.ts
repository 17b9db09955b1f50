/**
 * Reading the log: prepared SELECTs over one connection, decoded into typed rows. Used by recovery, history,
 * export and the dispute view; the writer (event-log.ts) owns the same connection, so reads in the writing
 * process also see the batch that is not committed yet.
 */
import type Database from 'better-sqlite3';
import { decodeGame, decodeRow, type GameRecord, type LogKind, type LogRow, type RawGameRow, type RawLogRow } from './rows.ts';

export interface GameFilter {
  /** Only this table's games. */
  readonly tableId?: string;
  /** true: finished games only; false: unfinished only; undefined: both. */
  readonly finished?: boolean;
  /** At most this many, newest first. Default: all. */
  readonly limit?: number;
}

/** One action or correction row, undecoded beyond what replay needs. */
export interface StepRow {
  readonly seq: number;
  readonly kind: 'action' | 'correction';
  readonly payload: string;
  readonly hostUs: number | null;
  /** When it was logged, ms on the controller's wall clock (the game record's move times). */
  readonly atWallMs: number;
}

export interface SnapshotRow {
  readonly seq: number;
  readonly actionCount: number;
  readonly state: string;
}

/** Anything holding a reader, such as an open EventLog: what recovery, history and export take. */
export interface HasReader {
  readonly reader: LogReader;
}

export class LogReader {
  private readonly gameById: Database.Statement<[number], RawGameRow>;
  private readonly gameList: Database.Statement<[Record<string, unknown>], RawGameRow>;
  private readonly rowsOfGame: Database.Statement<[number], RawLogRow>;
  private readonly kindRowsOfGame: Database.Statement<[number, string], RawLogRow>;
  private readonly stepsOfGame: Database.Statement<[number], {
    seq: number; kind: 'action' | 'correction'; payload: string; host_us: number | null; at_wall_ms: number;
  }>;

  private readonly sensorsByTime: Database.Statement<[string, number, number], RawLogRow>;
  private readonly rowBySeq: Database.Statement<[number], RawLogRow>;
  private readonly tableRowsOutsideGames: Database.Statement<[string, string, number], RawLogRow>;
  private readonly tableIdList: Database.Statement<[], string>;
  private readonly snapshotsOfGame: Database.Statement<[number], { seq: number; action_count: number; state: string }>;
  private readonly lastSeqOfGame: Database.Statement<[number], number | null>;
  private readonly lastSeqAll: Database.Statement<[], number | null>;
  private readonly countsOfGame: Database.Statement<[number], { kind: LogKind; n: number }>;

  // Prepared on first use: a log opened by an older build's reader tool may not have the table yet.
  private publicEventsFrom: Database.Statement<[string, number, number, number], { seq: number; payload: string }> | undefined;
  private lastPublicSeqOf: Database.Statement<[string, number], number | null> | undefined;

  constructor(private readonly db: Database.Database) {
    this.gameById = db.prepare('SELECT * FROM games WHERE id = ?');
    this.gameList = db.prepare(`SELECT * FROM games
      WHERE (@table IS NULL OR table_id = @table)
        AND (@finished IS NULL OR (ended_at IS NOT NULL) = @finished)
      ORDER BY id DESC LIMIT @limit`);
    this.rowsOfGame = db.prepare('SELECT * FROM log WHERE game_id = ? ORDER BY seq');
    this.kindRowsOfGame = db.prepare('SELECT * FROM log WHERE game_id = ? AND kind = ? ORDER BY seq');
    this.stepsOfGame = db.prepare(`SELECT seq, kind, payload, host_us, at_wall_ms FROM log
      WHERE game_id = ? AND kind IN ('action', 'correction') ORDER BY seq`);
    this.sensorsByTime = db.prepare(`SELECT * FROM log
      WHERE kind = 'sensor' AND table_id = ? AND host_us BETWEEN ? AND ? ORDER BY host_us, station, device_us, seq`);
    this.rowBySeq = db.prepare('SELECT * FROM log WHERE seq = ?');
    this.tableIdList = db.prepare('SELECT DISTINCT table_id FROM log ORDER BY table_id').pluck() as Database.Statement<[], string>;
    this.tableRowsOutsideGames = db.prepare('SELECT * FROM log WHERE table_id = ? AND game_id IS NULL AND kind = ? AND seq > ? ORDER BY seq');
    this.snapshotsOfGame = db.prepare('SELECT seq, action_count, state FROM snapshots WHERE game_id = ? ORDER BY seq DESC');
    this.lastSeqOfGame = db.prepare('SELECT max(seq) FROM log WHERE game_id = ?').pluck() as Database.Statement<[number], number | null>;
    this.lastSeqAll = db.prepare('SELECT max(seq) FROM log').pluck() as Database.Statement<[], number | null>;
    this.countsOfGame = db.prepare('SELECT kind, count(*) AS n FROM log WHERE game_id = ? GROUP BY kind');
  }

  game(id: number): GameRecord | undefined {
    const raw = this.gameById.get(id);
    return raw === undefined ? undefined : decodeGame(raw);
  }

  /** Games, newest first. */
  games(filter: GameFilter = {}): GameRecord[] {
    const finished = filter.finished === undefined ? null : filter.finished ? 1 : 0;
    return this.gameList.all({ table: filter.tableId ?? null, finished, limit: filter.limit ?? -1 }).map(decodeGame);
  }

  /** Every row of a game (or only one kind), in log order. */
  rows(gameId: number, kind?: LogKind): LogRow[] {
    const raws = kind === undefined ? this.rowsOfGame.all(gameId) : this.kindRowsOfGame.all(gameId, kind);
    return raws.map(decodeRow);
  }

  /** The action and correction rows of a game, in log order: what recovery replays. */
  steps(gameId: number): StepRow[] {
    return this.stepsOfGame.all(gameId).map((r) => ({
      seq: r.seq, kind: r.kind, payload: r.payload, hostUs: r.host_us, atWallMs: r.at_wall_ms,
    }));
  }

  /** A table's sensor rows whose mapped time lies in [fromUs, toUs], in mapped-time order. */
  sensorsBetween(tableId: string, fromUs: number, toUs: number): LogRow[] {
    return this.sensorsByTime.all(tableId, fromUs, toUs).map(decodeRow);
  }

  /**
   * A table's rows of one kind that belong to no game, after `afterSeq`, in log order. Buzzer mode has no
   * rules engine and no game: its sessions and decisions are system rows of this kind (docs/buzzer.md).
   */
  tableRows(tableId: string, kind: LogKind, afterSeq = 0): LogRow[] {
    return this.tableRowsOutsideGames.all(tableId, kind, afterSeq).map(decodeRow);
  }

  /** Every table id that logged anything. */
  tableIds(): string[] {
    return this.tableIdList.all();
  }

  row(seq: number): LogRow | undefined {
    const raw = this.rowBySeq.get(seq);
    return raw === undefined ? undefined : decodeRow(raw);
  }

  /** A game's snapshots, newest first. */
  snapshots(gameId: number): SnapshotRow[] {
    return this.snapshotsOfGame.all(gameId).map((r) => ({ seq: r.seq, actionCount: r.action_count, state: r.state }));
  }

  /** The highest seq of a game's rows (0 if none), or of the whole log without an argument. */
  lastSeq(gameId?: number): number {
    return (gameId === undefined ? this.lastSeqAll.get() : this.lastSeqOfGame.get(gameId)) ?? 0;
  }

  /**
   * A table's public events of one controller start (`epoch`) with `seq >= fromSeq`, oldest first, at most
   * `limit`: the JSON text each was published with (docs/venue-offline.md).
   */
  publicEvents(
    tableId: string, epoch: number, fromSeq: number, limit: number,
  ): { readonly seq: number; readonly payload: string }[] {
    this.publicEventsFrom ??= this.db.prepare(`SELECT seq, payload FROM public_events
      WHERE table_id = ? AND epoch = ? AND seq >= ? ORDER BY seq LIMIT ?`);
    return this.publicEventsFrom.all(tableId, epoch, fromSeq, limit);
  }

  /** The highest seq of a table's public events in one controller start (0 when none). */
  lastPublicSeq(tableId: string, epoch: number): number {
    this.lastPublicSeqOf ??= this.db.prepare('SELECT max(seq) FROM public_events WHERE table_id = ? AND epoch = ?')
      .pluck() as Database.Statement<[string, number], number | null>;
    return this.lastPublicSeqOf.get(tableId, epoch) ?? 0;
  }

  /** How many rows of each kind a game has. */
  counts(gameId: number): Record<LogKind, number> {
    const counts: Record<LogKind, number> = { sensor: 0, action: 0, rejected: 0, correction: 0, system: 0 };
    for (const { kind, n } of this.countsOfGame.all(gameId)) counts[kind] = n;
    return counts;
  }
}

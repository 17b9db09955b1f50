/**
 * The persistence layer: the append-only SQLite event log (design principle 8), recovery after a crash,
 * history, export to action logs and the dispute view, archive and online backup. See docs/persistence.md.
 */
export { archiveFileFor, archiveGames, type ArchiveErrorCode, type ArchiveOptions, type ArchiveResult, type ArchivedGame } from './archive.ts';
export { backupLog, type BackupErrorCode, type BackupResult } from './backup.ts';
export { benchEventLog, type EventLogBenchFigures, type EventLogBenchOptions } from './bench.ts';
export type { Durability, OpenOptions } from './database.ts';
export { EventLogError, type EventLogErrorCode } from './errors.ts';
export {
  EventLog, type CommitInfo, type CorrectionResult, type EventLogOptions, type NewGame, type OpenResult,
} from './event-log.ts';
export { disputeView, exportActionLog, gameSensorView, type DisputeRow, type ExportedActionLog } from './export-log.ts';
export { GameRecords, type GameRecordsOptions, type RecordErrorCode } from './game-record.ts';
export { describeRow, gameLog, listGames, type GameSummary } from './history.ts';
export { LogReader, type GameFilter, type HasReader } from './log-reader.ts';
export { exportReadable, repairLog, type ReadableRows, type RepairResult } from './repair.ts';
export { rebuildGame, recoverTables, type RebuildFailure, type RebuildOptions, type RebuildResult, type RebuiltGame } from './recovery.ts';
export type { Correction, CorrectionAction, GameRecord, LogKind, LogRow, LoggableSensorEvent, LoggedTime, UndoCorrection } from './rows.ts';
export { MIGRATIONS, SCHEMA_VERSION } from './schema.ts';

/** Where the log lives when no --db is given (relative to the working directory). */
export const DEFAULT_LOG_FILE = 'data/zaptable.db';

/**
 * Finished (and running) games as history: the list with results, and one game's full log. Games are never
 * deleted, so the history is complete.
 */
import { effectiveSeqs } from './effective-actions.ts';
import type { GameFilter, HasReader } from './log-reader.ts';
import type { GameRecord, LogKind, LogRow } from './rows.ts';

export interface GameSummary extends GameRecord {
  /** Rows per kind. */
  readonly counts: Readonly<Record<LogKind, number>>;
  /** Actions in force (applied and not undone). */
  readonly actionCount: number;
}

/** Games, newest first, with their row counts and results. */
export function listGames(log: HasReader, filter: GameFilter = {}): GameSummary[] {
  const reader = log.reader;
  return reader.games(filter).map((game) => ({
    ...game,
    counts: reader.counts(game.id),
    actionCount: effectiveSeqs(reader.steps(game.id)).length,
  }));
}

/** One game with every row it logged, in order; undefined when there is no such game. */
export function gameLog(log: HasReader, gameId: number): { readonly game: GameSummary; readonly rows: LogRow[] } | undefined {
  const reader = log.reader;
  const game = reader.game(gameId);
  if (game === undefined) return undefined;
  const rows = reader.rows(gameId);
  const summary = { ...game, counts: reader.counts(gameId), actionCount: effectiveSeqs(reader.steps(gameId)).length };
  return { game: summary, rows };
}

/** One line per row, for people: seq, kind and what happened. */
export function describeRow(row: LogRow): string {
  const head = `#${row.seq} ${row.kind.padEnd(10)}`;
  switch (row.kind) {
    case 'sensor': {
      const { station, kind, time, ...rest } = row.event;
      const detail = Object.entries(rest).filter(([k]) => k !== 'seq').map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ');
      return `${head} ${station} ${kind} ${detail} mapped ${time.hostUs} us ±${time.uncertaintyUs}`
        + ` (device ${time.deviceUs} us −${time.beforeUs}/+${time.afterUs}, epoch ${time.epoch})`;
    }
    case 'action':
      return `${head} ${JSON.stringify(row.action)}`;
    case 'rejected':
      return `${head} ${row.code}: ${row.message} ${JSON.stringify(row.action)}`;
    case 'correction':
      return `${head} ${row.correction.action.type} #${row.correction.action.seq} by ${row.correction.by}: ${row.correction.reason}`;
    case 'system':
      return `${head} ${JSON.stringify(row.payload)}`;
  }
}

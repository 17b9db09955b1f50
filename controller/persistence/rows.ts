/**
 * What the log holds, decoded: one typed row per kind. The JSON `payload` column carries what has no column of
 * its own; sensor rows keep their time in columns (raw and unwrapped device µs, epoch, mapped host µs,
 * uncertainty, the sensor interval before and after the stamp) so disputes can be settled with SQL and nothing is lost to JSON (an infinite uncertainty would
 * become null in JSON; in the column NULL means exactly "not synced yet", read back as Infinity).
 */
import type { EventTime } from '../kernel/event-time.ts';
import type { BaseAction, GameId, GameResult } from '../rules/engine.ts';
import { isGameId } from '../rules/games.ts';
import { EventLogError } from './errors.ts';

export type LogKind = 'sensor' | 'action' | 'rejected' | 'correction' | 'system';

/** When a sensor event happened: the kernel's `EventTime` (stored in columns; NULL uncertainty = Infinity). */
export type LoggedTime = EventTime;

/**
 * The fields of a sensor event the log relies on. Hardware's `SensorEvent` satisfies it structurally, and every
 * other field (uid, grams, button…) is kept in the payload.
 */
export interface LoggableSensorEvent {
  readonly station: string;
  readonly kind: string;
  readonly seq?: number;
  readonly time: LoggedTime;
}

/** A referee's undo: reverts the action logged at `seq`, which must be the game's last action still in force. */
export interface UndoCorrection {
  readonly type: 'undo';
  readonly seq: number;
}

export type CorrectionAction = UndoCorrection;

export interface Correction {
  /** Who made it (a referee's name or client id), for the record. */
  readonly by: string;
  readonly reason: string;
  readonly action: CorrectionAction;
}

interface RowBase {
  readonly seq: number;
  readonly tableId: string;
  readonly gameId: number | null;
  readonly atWallMs: number;
  readonly hostUs: number | null;
}

export type LogRow =
  | (RowBase & { readonly kind: 'sensor'; readonly event: LoggableSensorEvent & Readonly<Record<string, unknown>> })
  | (RowBase & { readonly kind: 'action'; readonly action: BaseAction; readonly summary?: unknown })
  | (RowBase & { readonly kind: 'rejected'; readonly action: unknown; readonly code: string; readonly message: string })
  | (RowBase & { readonly kind: 'correction'; readonly correction: Correction })
  | (RowBase & { readonly kind: 'system'; readonly payload: Readonly<Record<string, unknown>> });

/** A game as recorded in the `games` table. */
export interface GameRecord {
  readonly id: number;
  readonly tableId: string;
  readonly game: GameId;
  readonly config: Record<string, unknown> & { readonly players: readonly string[] };
  readonly seed: number | string;
  readonly startedAtMs: number;
  readonly endedAtMs: number | null;
  readonly result: GameResult | null;
}

/** A `log` row as SQLite returns it. */
export interface RawLogRow {
  seq: number;
  table_id: string;
  game_id: number | null;
  kind: LogKind;
  at_wall_ms: number;
  host_us: number | null;
  payload: string;
  station: string | null;
  time_source: string | null;
  epoch: number | null;
  raw_us: number | null;
  device_us: number | null;
  uncertainty_us: number | null;
  before_us: number | null;
  after_us: number | null;
}

export interface RawGameRow {
  id: number;
  table_id: string;
  game: string;
  config: string;
  seed: string;
  started_at: number;
  ended_at: number | null;
  result: string | null;
}

/** Parses a JSON column; damaged JSON is a damaged log. */
export function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new EventLogError('LOG_CORRUPT', `${where}: invalid JSON (${(error as Error).message})`);
  }
}

function sensorEvent(raw: RawLogRow): LoggableSensorEvent & Readonly<Record<string, unknown>> {
  const fields = parseJson(raw.payload, `log row ${raw.seq}`) as Record<string, unknown>;
  const time: LoggedTime = {
    source: raw.time_source === 'host' ? 'host' : 'device',
    epoch: raw.epoch ?? 0,
    deviceUs: raw.device_us ?? 0,
    ...(raw.raw_us === null ? {} : { rawUs: raw.raw_us }),
    hostUs: raw.host_us ?? 0,
    uncertaintyUs: raw.uncertainty_us ?? Infinity,
    // NULL: logged before the interval was recorded (schema 1), when the stamp alone was used.
    beforeUs: raw.before_us ?? 0,
    afterUs: raw.after_us ?? 0,
  };
  return { ...fields, station: raw.station ?? '', kind: String(fields.kind), time };
}

export function decodeRow(raw: RawLogRow): LogRow {
  const base: RowBase = {
    seq: raw.seq, tableId: raw.table_id, gameId: raw.game_id, atWallMs: raw.at_wall_ms, hostUs: raw.host_us,
  };
  if (raw.kind === 'sensor') return { ...base, kind: 'sensor', event: sensorEvent(raw) };
  const p = parseJson(raw.payload, `log row ${raw.seq}`) as Record<string, unknown>;
  switch (raw.kind) {
    case 'action':
      return { ...base, kind: 'action', action: p.action as BaseAction, ...('summary' in p ? { summary: p.summary } : {}) };
    case 'rejected':
      return { ...base, kind: 'rejected', action: p.action, code: String(p.code), message: String(p.message) };
    case 'correction':
      return { ...base, kind: 'correction', correction: p as unknown as Correction };
    case 'system':
      return { ...base, kind: 'system', payload: p };
  }
}

export function decodeGame(raw: RawGameRow): GameRecord {
  const stored: string = raw.game; // before the guard narrows it (to never, for a game this build does not know)
  if (!isGameId(raw.game)) throw new EventLogError('LOG_CORRUPT', `game ${raw.id}: unknown game "${stored}"`);
  return {
    id: raw.id,
    tableId: raw.table_id,
    game: raw.game,
    config: parseJson(raw.config, `game ${raw.id} config`) as GameRecord['config'],
    seed: parseJson(raw.seed, `game ${raw.id} seed`) as number | string,
    startedAtMs: raw.started_at,
    endedAtMs: raw.ended_at,
    result: raw.result === null ? null : parseJson(raw.result, `game ${raw.id} result`) as GameResult,
  };
}

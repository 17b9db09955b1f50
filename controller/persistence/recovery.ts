/**
 * Restart after a crash: for every table, the unfinished game is rebuilt from its setup (config + seed) and
 * the actions in force (logged actions minus undone ones), by the same pure engine that played it — so the
 * state is exactly the one the killed controller had committed. A snapshot, when one is still valid, replaces
 * the replay of the actions it covers.
 */
import { reject, type Rejection, type Result } from '../kernel/result.ts';
import type { BaseAction, GameId } from '../rules/engine.ts';
import { getEngine } from '../rules/games.ts';
import { effectiveActions, effectiveSeqs } from './effective-actions.ts';
import { EventLogError } from './errors.ts';
import type { HasReader, SnapshotRow, StepRow } from './log-reader.ts';
import { parseJson, type GameRecord } from './rows.ts';

export interface RebuildOptions {
  /** Start from the newest valid snapshot (default true); false replays everything from setup. */
  readonly useSnapshots?: boolean;
}

export interface RebuiltGame {
  readonly ok: true;
  readonly tableId: string;
  readonly gameId: number;
  readonly game: GameId;
  readonly state: unknown;
  /** Actions in force (applied and not undone). */
  readonly actionCount: number;
  /** The highest seq among the game's rows: everything up to it is accounted for. */
  readonly lastSeq: number;
  /** The seq of the snapshot recovery started from, or null for a replay from setup. */
  readonly fromSnapshot: number | null;
}

/** BAD_SETUP: the engine refused the logged setup; REPLAY_REJECTED: a logged action no longer applies. */
export interface RebuildFailure extends Rejection<'NO_SUCH_GAME' | 'BAD_SETUP' | 'REPLAY_REJECTED' | 'LOG_CORRUPT'> {
  readonly tableId: string;
  readonly gameId: number;
  /** The seq of the action that failed to replay. */
  readonly seq?: number;
}

export type RebuildResult = RebuiltGame | RebuildFailure;

/** A snapshot is valid while every action it covers is still in force (no undo reached behind it). */
function validSnapshot(snapshots: readonly SnapshotRow[], inForce: readonly number[]): SnapshotRow | undefined {
  return snapshots.find((s) => inForce.filter((seq) => seq <= s.seq).length === s.actionCount);
}

/** What `replayGame` tells a visitor after setup (`seq` null) and after each action in force. */
export interface ReplayStep {
  readonly seq: number | null;
  readonly atWallMs: number | null;
  readonly action: BaseAction | null;
  readonly state: unknown;
  /** The engine's events of this step, unfiltered (hidden facts included: filter before they leave). */
  readonly events: readonly unknown[];
}

/**
 * Replays a game's actions in force from its setup (or from `snapshot`) through the engine that played it. The
 * one replay loop: recovery uses its final state, the game record (game-record.ts) visits every step.
 */
export function replayGame(
  record: GameRecord, steps: readonly StepRow[], snapshot?: SnapshotRow, visit?: (step: ReplayStep) => void,
): Result<{ state: unknown }, 'BAD_SETUP'> | (Rejection<'REPLAY_REJECTED'> & { seq: number }) {
  const engine = getEngine(record.game);
  let state: unknown;
  if (snapshot === undefined) {
    const setup = engine.setup(record.config, record.seed);
    if (!setup.ok) return reject('BAD_SETUP', `setup rejected: ${setup.code}: ${setup.message}`);
    state = setup.state;
    visit?.({ seq: null, atWallMs: record.startedAtMs, action: null, state, events: setup.events });
  } else {
    state = parseJson(snapshot.state, `snapshot ${record.id}/${snapshot.seq}`);
  }
  const times = visit === undefined ? undefined : new Map(steps.map((s) => [s.seq, s.atWallMs]));
  for (const { seq, action } of effectiveActions(steps, snapshot?.seq ?? 0)) {
    const parsed = engine.parseAction(action);
    if ('error' in parsed) return { ...reject('REPLAY_REJECTED', `action at seq ${seq}: ${parsed.error}`), seq };
    const outcome = engine.apply(state, parsed);
    if (!outcome.ok) return { ...reject('REPLAY_REJECTED', `action at seq ${seq}: ${outcome.code}: ${outcome.message}`), seq };
    state = outcome.state;
    visit?.({ seq, atWallMs: times?.get(seq) ?? null, action: parsed, state, events: outcome.events });
  }
  return { ok: true, state };
}

/**
 * Rebuilds one game's current (or final) state from the log. A snapshot is only a cache: when the game cannot
 * be read with one (LOG_CORRUPT: a damaged page under the snapshot's state, which the open's quick check does
 * not look into), it is replayed from its setup instead.
 */
export function rebuildGame(log: HasReader, gameId: number, options: RebuildOptions = {}): RebuildResult {
  const rebuilt = rebuildFrom(log, gameId, options);
  if (!rebuilt.ok && rebuilt.code === 'LOG_CORRUPT' && options.useSnapshots !== false) {
    const replayed = rebuildFrom(log, gameId, { ...options, useSnapshots: false });
    if (replayed.ok) return replayed;
  }
  return rebuilt;
}

function rebuildFrom(log: HasReader, gameId: number, options: RebuildOptions): RebuildResult {
  const reader = log.reader;
  let record: GameRecord | undefined;
  try {
    record = reader.game(gameId);
    if (record === undefined) return { ok: false, tableId: '', gameId, code: 'NO_SUCH_GAME', message: `no game ${gameId} in the log` };
    const steps = reader.steps(gameId);
    const inForce = effectiveSeqs(steps);
    const snapshot = options.useSnapshots === false ? undefined : validSnapshot(reader.snapshots(gameId), inForce);
    const replayed = replayGame(record, steps, snapshot);
    if (!replayed.ok) return { ...replayed, tableId: record.tableId, gameId };
    return {
      ok: true, tableId: record.tableId, gameId, game: record.game, state: replayed.state,
      actionCount: inForce.length, lastSeq: reader.lastSeq(gameId), fromSnapshot: snapshot?.seq ?? null,
    };
  } catch (error) {
    if (!(error instanceof EventLogError)) throw error;
    return { ok: false, tableId: record?.tableId ?? '', gameId, code: 'LOG_CORRUPT', message: error.detail };
  }
}

/**
 * The games to resume after a restart: every unfinished game (at most one per table, since startGame refuses a
 * second), rebuilt. A failure is reported per game, so one bad table does not stop the others.
 */
export function recoverTables(log: HasReader, options: RebuildOptions = {}): RebuildResult[] {
  return log.reader.games({ finished: false }).reverse().map((g) => rebuildGame(log, g.id, options));
}

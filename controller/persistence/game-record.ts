/**
 * A game's record as a spectator saw it, rebuilt from the log (not from the dashboard's window of recent
 * events): every action in force replayed through the engine that played it (recovery.ts `replayGame`), and of
 * each step only what was public — the engine's events through the game's public filter, the public view, the
 * refusals as they were announced (`HIDDEN_REASON` where the reason is a hidden fact). No hand, no unrevealed
 * barrel, no seed (with the seed and the config anyone could deal the hands again). The full action log, which
 * holds all of those, is `exportActionLog` (export-log.ts): for a referee's token only (docs/mqtt.md).
 *
 * Replaying is CPU work on the controller's event loop, which also stamps sensor lines; so a built record is
 * kept (per game, until the game logs another row) with the engine state every `checkpointEvery` steps, and a
 * stepped-back state replays at most that many actions from the nearest checkpoint.
 */
import { reject, type Result } from '../kernel/result.ts';
import type { BaseAction } from '../rules/engine.ts';
import type { PublicGameRecord, RecordCorrection, RecordedGame, RecordRefusal, RecordStep } from '../rules/game-record.ts';
import { PUBLIC } from '../rules/common/viewer.ts';
import { getEngine, getGame, toPublicEvents } from '../rules/games.ts';
import { effectiveActions } from './effective-actions.ts';
import type { HasReader } from './log-reader.ts';
import { replayGame } from './recovery.ts';
import type { GameRecord } from './rows.ts';

export type RecordErrorCode = 'NO_SUCH_GAME' | 'NO_SUCH_STEP' | 'BAD_SETUP' | 'REPLAY_REJECTED';

export interface GameRecordsOptions {
  /** Records kept built (most recently asked first). Default 4. */
  readonly keep?: number;
  /** An engine state kept every this many steps, for stepping back. Default 25. */
  readonly checkpointEvery?: number;
}

interface Built {
  readonly record: PublicGameRecord;
  /** The highest seq of the game's rows when it was built: a newer row means it is stale. */
  readonly lastSeq: number;
  readonly checkpoints: ReadonlyMap<number, unknown>;
  readonly actions: readonly BaseAction[];
}

const describe = (g: GameRecord): RecordedGame => ({
  id: g.id, table: g.tableId, game: g.game, players: [...g.config.players],
  startedAtMs: g.startedAtMs, endedAtMs: g.endedAtMs, result: g.result,
});

/** The last step logged before `seq` (rows of one game are in seq order). */
function stepBefore(steps: readonly RecordStep[], seq: number): number {
  let index = 0;
  while (index + 1 < steps.length && (steps[index + 1]?.seq ?? Infinity) < seq) index += 1;
  return index;
}

const asObjects = (events: readonly unknown[]): object[] => events.filter((e): e is object => typeof e === 'object' && e !== null);

/** A table's games and their public records, read from the log; built records are cached (see the file comment). */
export class GameRecords {
  private readonly built = new Map<number, Built>();
  private readonly keep: number;
  private readonly every: number;

  constructor(private readonly log: HasReader, options: GameRecordsOptions = {}) {
    this.keep = Math.max(1, options.keep ?? 4);
    this.every = Math.max(1, options.checkpointEvery ?? 25);
  }

  /** A table's games, newest first. */
  games(tableId: string, limit = 50): RecordedGame[] {
    return this.log.reader.games({ tableId, limit }).map(describe);
  }

  /** The public record of a game of `tableId` (its newest game without `gameId`). */
  record(tableId: string, gameId?: number): Result<{ readonly record: PublicGameRecord }, RecordErrorCode> {
    const built = this.build(tableId, gameId);
    return built.ok ? { ok: true, record: built.built.record } : built;
  }

  /** The public view after `step` actions in force (0: the setup), rebuilt from the nearest checkpoint. */
  viewAt(
    tableId: string, gameId: number, step: number,
  ): Result<{ readonly view: unknown; readonly step: RecordStep }, RecordErrorCode> {
    const found = this.build(tableId, gameId);
    if (!found.ok) return found;
    const { record, checkpoints, actions } = found.built;
    const at = record.steps[step];
    if (at === undefined) return reject('NO_SUCH_STEP', `game ${gameId} has steps 0 to ${record.steps.length - 1}, not ${step}`);
    const engine = getEngine(record.game.game);
    const from = Math.floor(step / this.every) * this.every;
    let state = checkpoints.get(from);
    for (let i = from; i < step; i += 1) {
      const outcome = engine.apply(state, actions[i] as BaseAction);
      // It applied when the record was built from the same rows: a failure here is a bug, not input.
      if (!outcome.ok) throw new Error(`game ${gameId} step ${i + 1} no longer applies: ${outcome.code}`);
      state = outcome.state;
    }
    return { ok: true, view: engine.view(state, PUBLIC), step: at };
  }

  private build(tableId: string, gameId: number | undefined): Result<{ readonly built: Built }, RecordErrorCode> {
    const reader = this.log.reader;
    const game = gameId === undefined ? reader.games({ tableId, limit: 1 })[0] : reader.game(gameId);
    if (game === undefined || game.tableId !== tableId) {
      return reject('NO_SUCH_GAME', gameId === undefined ? `table ${tableId} has no game in the log` : `table ${tableId} has no game ${gameId}`);
    }
    const lastSeq = reader.lastSeq(game.id);
    const cached = this.built.get(game.id);
    if (cached !== undefined && cached.lastSeq === lastSeq) {
      this.built.delete(game.id);
      this.built.set(game.id, cached);
      return { ok: true, built: cached };
    }
    const engine = getEngine(game.game);
    const steps: RecordStep[] = [];
    const checkpoints = new Map<number, unknown>();
    const stepRows = reader.steps(game.id);
    const replayed = replayGame(game, stepRows, undefined, (s) => {
      const index = steps.length;
      if (index % this.every === 0) checkpoints.set(index, s.state);
      const result = engine.result(s.state);
      steps.push({
        step: index, seq: s.seq, at: s.atWallMs ?? game.startedAtMs, action: s.action?.type ?? null,
        events: asObjects(toPublicEvents(game.game, s.events)),
        rounds: result.rounds, scores: result.scores, over: result.over,
      });
    });
    if (!replayed.ok) return reject(replayed.code, replayed.message);
    const built: Built = {
      record: { game: describe(game), steps, refusals: this.refusals(game, steps), corrections: this.corrections(game, steps) },
      lastSeq, checkpoints, actions: effectiveActions(stepRows).map((a) => a.action),
    };
    this.built.set(game.id, built);
    while (this.built.size > this.keep) this.built.delete(this.built.keys().next().value as number);
    return { ok: true, built };
  }

  private refusals(game: GameRecord, steps: readonly RecordStep[]): RecordRefusal[] {
    const definition = getGame(game.game);
    const out: RecordRefusal[] = [];
    for (const row of this.log.reader.rows(game.id, 'rejected')) {
      if (row.kind !== 'rejected') continue;
      const index = stepBefore(steps, row.seq);
      const type = (row.action as { type?: unknown } | null)?.type;
      const shown = definition.engine.publicRejection(row.action, { ok: false, code: row.code, message: row.message });
      out.push({ seq: row.seq, at: row.atWallMs, afterStep: index, action: typeof type === 'string' ? type : '?', code: shown.code, message: shown.message });
    }
    return out;
  }

  private corrections(game: GameRecord, steps: readonly RecordStep[]): RecordCorrection[] {
    const out: RecordCorrection[] = [];
    for (const row of this.log.reader.rows(game.id, 'correction')) {
      if (row.kind !== 'correction') continue;
      const undone = this.log.reader.row(row.correction.action.seq);
      out.push({
        seq: row.seq, at: row.atWallMs, afterStep: stepBefore(steps, row.seq),
        undone: undone?.kind === 'action' ? undone.action.type : '?', reason: row.correction.reason,
      });
    }
    return out;
  }
}

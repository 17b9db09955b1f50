/**
 * The table runtime's log port on top of the SQLite event log (controller/persistence). Game ids are the
 * log's integers, carried as strings by the runtime.
 */
import { reject } from '../kernel/result.ts';
import { rebuildGame, type EventLog } from '../persistence/index.ts';
import type { RuntimeLog } from '../runtime/ports.ts';

export function runtimeLogOf(log: EventLog): RuntimeLog {
  return {
    startGame: (info) => {
      const config = { ...info.config };
      return String(log.startGame({ tableId: info.tableId, game: info.game, config, seed: info.seed }));
    },
    sensor: (tableId, gameId, event) => {
      log.appendSensor(tableId, gameId === null ? null : Number(gameId), event);
    },
    action: (tableId, gameId, action) => {
      const hostUs = action.at === undefined ? undefined : action.at * 1000;
      return log.appendAction(tableId, Number(gameId), action, undefined, hostUs);
    },
    rejected: (tableId, gameId, action, code, message) => {
      log.appendRejected(tableId, gameId === '' ? null : Number(gameId), action, { code, message });
    },
    correction: (tableId, gameId, correction) => {
      // The log's own correction rows are undos; other referee corrections are kept as system rows.
      log.appendSystem(tableId, Number(gameId), { correction });
    },
    undoLast(tableId, gameId, by, reason) {
      const id = Number(gameId);
      const last = log.lastActionInForce(id);
      if (last === undefined) return reject('NOTHING_TO_UNDO', 'no action to undo in this game');
      const undone = log.appendCorrection(tableId, id, { by, reason: reason ?? 'undo', action: { type: 'undo', seq: last } });
      if (!undone.ok) return undone;
      log.commit();
      const rebuilt = rebuildGame(log, id);
      if (!rebuilt.ok) return reject(rebuilt.code, rebuilt.message);
      return { ok: true, undoneSeq: last, state: rebuilt.state };
    },
    endGame: (gameId, result) => {
      log.endGame(Number(gameId), result as Parameters<EventLog['endGame']>[1]);
    },
    commit: () => {
      log.commit();
    },
  };
}

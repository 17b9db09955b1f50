/**
 * Getting games out of the log: as an action-log file `zaptable replay FILE` reads ({game, config, seed,
 * actions}, docs/rules-engine.md), and as a dispute view — the sensor rows around a moment with their raw and
 * mapped timestamps, so "who pressed first?" can be settled from what the stations stamped.
 */
import type { BaseAction, GameId } from '../rules/engine.ts';
import { effectiveActions } from './effective-actions.ts';
import type { HasReader } from './log-reader.ts';
import type { LogRow } from './rows.ts';

/** The action-log format of controller/scenarios/action-log.ts (persistence may not import scenarios). */
export interface ExportedActionLog {
  readonly game: GameId;
  readonly config: Record<string, unknown> & { readonly players: readonly string[] };
  readonly seed: number | string;
  /** The actions in force, in order: undone actions are left out, so the file replays to the logged state. */
  readonly actions: readonly BaseAction[];
}

/** A game as an action log; undefined when there is no such game. */
export function exportActionLog(log: HasReader, gameId: number): ExportedActionLog | undefined {
  const game = log.reader.game(gameId);
  if (game === undefined) return undefined;
  const actions = effectiveActions(log.reader.steps(gameId)).map((a) => a.action);
  return { game: game.game, config: game.config, seed: game.seed, actions };
}

/** One sensor event with every timestamp a dispute needs. */
export interface DisputeRow {
  readonly seq: number;
  readonly station: string;
  readonly kind: string;
  /** What was sensed besides time (uid, button, grams…). */
  readonly detail: Readonly<Record<string, unknown>>;
  readonly source: 'device' | 'host';
  /** Station boot; device µs compare only within one station and epoch. */
  readonly epoch: number;
  /** The 32-bit micros() from the line (null for host-stamped events). */
  readonly rawUs: number | null;
  /** Unwrapped device µs. */
  readonly deviceUs: number;
  /** Device time mapped to the controller's clock: the one order across stations. */
  readonly mappedUs: number;
  /** Half width of the clock mapping's interval around the mapped time (Infinity: station not synced yet). */
  readonly uncertaintyUs: number;
  /** The sensor's own interval: it happened up to `beforeUs` before its stamp, up to `afterUs` after (µs). */
  readonly beforeUs: number;
  readonly afterUs: number;
  /** µs after the first row of the view. */
  readonly sinceFirstUs: number;
  /**
   * Its whole interval (sensor interval and mapping uncertainty) overlaps the previous rows': the two cannot be
   * ordered (a tie), whatever the arrival order. Device µs are taken as controller µs here (they differ by at
   * most the clock's rate error, 1 %): a hint for people; arbitration itself scales them.
   */
  readonly overlapsPrevious: boolean;
}

function toDisputeRows(rows: readonly LogRow[]): DisputeRow[] {
  const sensors = rows.flatMap((r) => (r.kind === 'sensor' ? [{ seq: r.seq, event: r.event }] : []));
  sensors.sort((a, b) => a.event.time.hostUs - b.event.time.hostUs || a.event.station.localeCompare(b.event.station)
    || a.event.time.deviceUs - b.event.time.deviceUs || a.seq - b.seq);
  const first = sensors[0]?.event.time.hostUs ?? 0;
  let previousEnd = -Infinity;
  return sensors.map(({ seq, event }) => {
    const { station, kind, time, seq: _stationSeq, ...detail } = event;
    const row: DisputeRow = {
      seq, station, kind, detail, source: time.source, epoch: time.epoch, rawUs: time.rawUs ?? null, deviceUs: time.deviceUs,
      mappedUs: time.hostUs, uncertaintyUs: time.uncertaintyUs, beforeUs: time.beforeUs, afterUs: time.afterUs,
      sinceFirstUs: time.hostUs - first,
      overlapsPrevious: time.hostUs - time.beforeUs - time.uncertaintyUs <= previousEnd,
    };
    previousEnd = Math.max(previousEnd, time.hostUs + time.afterUs + time.uncertaintyUs);
    return row;
  });
}

/** A game's sensor events in mapped-time order. */
export function gameSensorView(log: HasReader, gameId: number): DisputeRow[] {
  return toDisputeRows(log.reader.rows(gameId, 'sensor'));
}

/** A table's sensor events within `windowUs` either side of the mapped time `aroundUs`, in mapped-time order. */
export function disputeView(log: HasReader, tableId: string, aroundUs: number, windowUs: number): DisputeRow[] {
  return toDisputeRows(log.reader.sensorsBetween(tableId, aroundUs - windowUs, aroundUs + windowUs));
}

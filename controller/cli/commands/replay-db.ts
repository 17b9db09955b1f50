/**
 * `zaptable replay --db FILE --game GAME_ID`: replays a game from the event log — from its setup, through
 * every action in force, by the pure engine (snapshots are not trusted here: a dispute deserves the full
 * replay) — and prints the resulting view; `--sensors` adds the game's sensor events with their raw device
 * timestamps, sensor intervals, mapped times and uncertainty, in mapped-time order, to settle "who pressed
 * first".
 */
import type { Viewer } from '../../rules/common/viewer.ts';
import { getEngine } from '../../rules/games.ts';
import {
  DEFAULT_LOG_FILE, disputeView, gameSensorView, rebuildGame, type DisputeRow, type EventLog,
} from '../../persistence/index.ts';
import { intOption, parse, UsageError } from '../args.ts';
import { renderTree, type Output } from '../output.ts';
import { openForReading } from './history.ts';

export const replayDbHelp = `zaptable replay --db FILE --game GAME_ID [--json] [--viewer WHO] [--sensors [--around SEQ] [--window-ms MS]]

Replays a game from the event log (setup, then every action not undone) and prints the
resulting view, like replaying an action-log file.

  --db FILE        the event log (default ${DEFAULT_LOG_FILE})
  --game GAME_ID   the game (see \`zaptable history\`)
  --json           print JSON
  --viewer WHO     public (default), omniscient, or player:ID
  --sensors        also print the game's sensor events: station, raw micros(), unwrapped device us,
                   the sensor's interval (how long before its stamp it may have happened: a tag's
                   poll window, a button's interrupt latency) and boot epoch, mapped controller
                   time +- uncertainty, in mapped-time order; "tie" marks an event whose interval
                   overlaps the one before (cannot be ordered)
  --around SEQ     with --sensors: the table's sensor events around log row SEQ instead
  --window-ms MS   with --around: how far either side (default 500)`;

function parseViewer(text: string | undefined): Viewer {
  if (text === undefined || text === 'public') return { role: 'public' };
  if (text === 'omniscient') return { role: 'omniscient' };
  if (text.startsWith('player:') && text.length > 7) return { role: 'player', player: text.slice(7) };
  throw new UsageError(`--viewer must be public, omniscient or player:ID, got "${text}"`);
}

/** A tag arrival dated by a slap (slap-matching.ts): the slap's stamp, instead of the whole time object. */
function slapNote(slap: unknown): string {
  const s = slap as { seq?: unknown; time?: { deviceUs?: unknown; beforeUs?: unknown } } | null;
  const seq = typeof s?.seq === 'number' ? ` seq ${s.seq}` : '';
  return ` landed by the slap${seq} at device ${String(s?.time?.deviceUs)} us (≤ ${String(s?.time?.beforeUs)} us before)`;
}

function sensorLine(r: DisputeRow): string {
  const { slap, ...rest } = r.detail;
  const detail = Object.entries(rest).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ') + (slap === undefined ? '' : slapNote(slap));
  const raw = r.rawUs === null ? 'host-stamped' : `raw ${r.rawUs}`;
  const unc = Number.isFinite(r.uncertaintyUs) ? `±${r.uncertaintyUs} us` : '±inf (not synced)';
  // The sensor's own interval: it happened in [device − before, device + after] (docs/timing.md §3).
  const interval = r.afterUs === 0 ? `, happened ≤ ${r.beforeUs} us before` : `, happened −${r.beforeUs}/+${r.afterUs} us`;
  return `#${r.seq} +${r.sinceFirstUs} us  ${r.station} ${r.kind} ${detail}  mapped ${r.mappedUs} us ${unc}`
    + `  (${raw}, device ${r.deviceUs} us${interval}, epoch ${r.epoch})${r.overlapsPrevious ? '  tie' : ''}`;
}

interface GameRef {
  readonly tableId: string;
  readonly gameId: number;
}

/** The game's sensor rows, or the table's around one log row; a string explains why there are none. */
function sensors(log: EventLog, game: GameRef, around: number | undefined, windowMs: number): DisputeRow[] | string {
  if (around === undefined) return gameSensorView(log, game.gameId);
  const row = log.reader.row(around);
  if (row?.hostUs == null) return `log row ${around} has no controller time to centre on`;
  return disputeView(log, game.tableId, row.hostUs, windowMs * 1000);
}

export function replayDbCommand(argv: readonly string[], io: Output): number {
  const { values, positionals } = parse(argv, {
    db: { type: 'string' }, game: { type: 'string' }, json: { type: 'boolean' }, viewer: { type: 'string' },
    sensors: { type: 'boolean' }, around: { type: 'string' }, 'window-ms': { type: 'string' },
  });
  if (positionals.length > 0) throw new UsageError('replay --db takes no FILE');
  if (values.game === undefined) throw new UsageError('replay --db needs --game GAME_ID');
  const gameId = intOption(values.game, 'game', 0);
  const viewer = parseViewer(values.viewer);
  const around = values.around === undefined ? undefined : intOption(values.around, 'around', 0);
  const windowMs = intOption(values['window-ms'], 'window-ms', 500, 0);
  const log = openForReading(values.db ?? DEFAULT_LOG_FILE, 'replay', io);
  if (log === undefined) return 1;
  try {
    const rebuilt = rebuildGame(log, gameId, { useSnapshots: false });
    if (!rebuilt.ok) {
      io.err(`zaptable replay: game ${gameId}: ${rebuilt.code}: ${rebuilt.message}`);
      return 1;
    }
    const view = getEngine(rebuilt.game).view(rebuilt.state, viewer);
    const events = values.sensors === true ? sensors(log, rebuilt, around, windowMs) : undefined;
    if (typeof events === 'string') {
      io.err(`zaptable replay: ${events}`);
      return 1;
    }
    if (values.json === true) {
      io.out(JSON.stringify(events === undefined ? view : { view, sensors: events }, null, 2));
      return 0;
    }
    io.out(`${rebuilt.game} game ${gameId} (table ${rebuilt.tableId}): ${rebuilt.actionCount} actions applied`);
    for (const line of renderTree(view)) io.out(line);
    if (events !== undefined) {
      io.out(`sensor events (${events.length}), in mapped-time order:`);
      for (const r of events) io.out(`  ${sensorLine(r)}`);
    }
    return 0;
  } finally {
    log.close();
  }
}

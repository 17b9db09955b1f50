/**
 * `zaptable history`: the games kept in the event log (finished ones with their results), and one game's full
 * log. Opens the database read-only, so it is safe next to a running controller.
 */
import { DEFAULT_LOG_FILE, describeRow, EventLog, gameLog, listGames, type GameSummary } from '../../persistence/index.ts';
import { intOption, parse, UsageError } from '../args.ts';
import type { Output } from '../output.ts';

export const historyHelp = `zaptable history [--db FILE] [--table ID] [--limit N] [--json]
zaptable history show GAME_ID [--db FILE] [--json]

Lists the games in the event log, newest first, with their results; "show" prints one game
with every row it logged (sensor events with their timestamps, actions, rejections,
corrections, system rows).

  --db FILE     the event log (default ${DEFAULT_LOG_FILE})
  --table ID    only this table's games
  --limit N     at most N games (default all)
  --json        print JSON instead of text`;

function when(ms: number | null): string {
  return ms === null ? '-' : new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}

function summaryLine(g: GameSummary): string {
  const players = g.config.players.join(',');
  const outcome = g.endedAtMs === null
    ? 'in progress'
    : g.result?.over === true ? `winners ${g.result.winners.join(',') || '-'}` : 'abandoned';
  return `#${g.id}  table ${g.tableId}  ${g.game}  players ${players}  seed ${JSON.stringify(g.seed)}  `
    + `${when(g.startedAtMs)} → ${when(g.endedAtMs)}  ${g.actionCount} actions  ${outcome}`;
}

/** Opens the log read-only or prints why not; undefined means "exit 1". */
export function openForReading(file: string, command: string, io: Output): EventLog | undefined {
  const opened = EventLog.open(file, { readonly: true });
  if (opened.ok) return opened.log;
  io.err(`zaptable ${command}: ${opened.code}: ${opened.message}`);
  return undefined;
}

export function historyCommand(argv: readonly string[], io: Output): number {
  const { values, positionals } = parse(argv, {
    db: { type: 'string' }, table: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' },
  });
  const [sub, id, ...extra] = positionals;
  if (extra.length > 0 || (sub !== undefined && sub !== 'show')) throw new UsageError(`unexpected argument "${extra[0] ?? sub ?? ''}"`);
  const gameId = sub === 'show' ? intOption(id, 'GAME_ID', 0) : undefined;
  if (sub === 'show' && gameId === 0) throw new UsageError('history show needs a GAME_ID');
  const limit = values.limit === undefined ? undefined : intOption(values.limit, 'limit', 0);
  const log = openForReading(values.db ?? DEFAULT_LOG_FILE, 'history', io);
  if (log === undefined) return 1;
  try {
    if (gameId === undefined) {
      const games = listGames(log, {
        ...(values.table === undefined ? {} : { tableId: values.table }),
        ...(limit === undefined ? {} : { limit }),
      });
      if (values.json === true) io.out(JSON.stringify(games, null, 2));
      else if (games.length === 0) io.out('no games in the log');
      else for (const g of games) io.out(summaryLine(g));
      return 0;
    }
    const found = gameLog(log, gameId);
    if (found === undefined) {
      io.err(`zaptable history: no game ${gameId} in the log`);
      return 1;
    }
    if (values.json === true) {
      io.out(JSON.stringify(found, null, 2));
    } else {
      io.out(summaryLine(found.game));
      io.out(`config ${JSON.stringify(found.game.config)}`);
      if (found.game.result !== null) io.out(`result ${JSON.stringify(found.game.result)}`);
      for (const row of found.rows) io.out(describeRow(row));
    }
    return 0;
  } finally {
    log.close();
  }
}

/**
 * Continuing unfinished games after a restart: every game table continues its game from the log when it can,
 * and every buzzer table its session when the set-up is unchanged.
 */
import type { TableConfig } from '../config/index.ts';
import { recoverTables, type EventLog } from '../persistence/index.ts';
import type { BuzzerRuntime } from '../runtime/buzzer/buzzer-runtime.ts';
import { loggedSessions } from './buzzer-log.ts';
import type { TableHost } from './table-host.ts';

/**
 * Starts every table. One table's log state never stops the others or the start: a game that cannot be rebuilt
 * (REPLAY_REJECTED, BAD_SETUP, LOG_CORRUPT) or no longer fits the table (another game, seats gone) is ended in
 * the log as abandoned, with the reason, and the table starts anew; the abandoned game stays in the log
 * (`zaptable history`, `zaptable replay --db`).
 */
export function recoverGames(
  log: EventLog,
  hosts: ReadonlyMap<string, TableHost>,
  buzzers: ReadonlyMap<string, { readonly config: TableConfig; readonly runtime: BuzzerRuntime }>,
  say: (line: string) => void,
): void {
  const recovered = new Map<string, ReturnType<typeof recoverTables>[number]>();
  for (const r of recoverTables(log)) recovered.set(r.tableId, r);
  for (const [id, host] of hosts) {
    const r = recovered.get(id);
    const record = r?.ok ? log.reader.game(r.gameId) : undefined;
    const why = r === undefined ? undefined
      : !r.ok ? `${r.code}: ${r.message}`
          : record === undefined ? 'its record is missing' : host.misfit(record);
    if (r?.ok && record && why === undefined) {
      say(`table ${id}: continuing game ${r.gameId} after ${r.actionCount} actions`);
      host.start({ gameId: String(r.gameId), game: record.game, config: record.config, seed: record.seed, state: r.state });
      continue;
    }
    if (r !== undefined && why !== undefined) {
      say(`table ${id}: game ${r.gameId} cannot continue (${why}); it is kept in the log as abandoned and a new game starts`);
      try {
        log.endGame(r.gameId, { over: false, winners: [], scores: {}, rounds: 0, abandoned: true, reason: why } as Parameters<EventLog['endGame']>[1]);
        log.commit();
      } catch (error) {
        say(`table ${id}: stays idle: ${(error as Error).message} (see zaptable log repair)`);
        continue;
      }
    }
    host.start();
  }
  for (const [id, { runtime }] of buzzers) {
    // A session continues when the set-up is unchanged (same contestants, teams and options); else a new one starts.
    const last = loggedSessions(log, id).at(-1);
    if (last !== undefined && JSON.stringify(last.setup) === JSON.stringify(runtime.options.setup)) {
      say(`table ${id}: continuing buzzer session after ${last.actions.length} actions`);
      runtime.start(last.actions);
    } else {
      runtime.start();
    }
  }
}

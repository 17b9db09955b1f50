/**
 * `zaptable log export|repair|archive|backup`. The way out of a damaged event log (`LOG_CORRUPT` at start):
 * `export` prints every row SQLite can still read as JSON (nothing is written to the log); `repair` copies those
 * rows into a new log file and keeps the damaged one beside it (docs/persistence.md, "A damaged log"). A season
 * on one SD card: `archive` moves old finished games into a dated archive file, `backup` copies the log while
 * the controller runs (docs/persistence.md, "Retention and backup").
 */
import { writeFileSync } from 'node:fs';
import { archiveGames, backupLog, DEFAULT_LOG_FILE, exportReadable, repairLog } from '../../persistence/index.ts';
import { intOption, parse, UsageError } from '../args.ts';
import type { Output } from '../output.ts';

export const logHelp = `zaptable log export [--db FILE] [--out FILE]
zaptable log repair [--db FILE]
zaptable log archive --older-than DAYS [--db FILE] [--dir DIR]
zaptable log backup TARGET [--db FILE]

For an event log that no longer opens (zaptable start says LOG_CORRUPT):

  export    prints every row that can still be read (games, log rows, snapshots, answers, public events) as JSON,
            to --out FILE or to the terminal; the log itself is only read
  repair    copies every readable row into a new log (same ids and seq numbers, so history and
            replay keep working), puts it in place of FILE, and keeps the damaged file beside it
            as FILE.damaged-<time>. Stop the controller first. Rows that cannot be read are counted.

For a log that runs all season (safe while the controller runs):

  archive   moves finished games that ended more than DAYS days ago (their rows and snapshots), and the
            events published before then (what the history request serves), into
            DIR/<log>-YYYY-MM-DD.db (default DIR: archive/ beside the log), a complete event log that
            zaptable history --db and zaptable replay --db read. Copied, checked, then removed; the
            newest game always stays (ids keep counting up)
  backup    copies the log to TARGET with SQLite's online backup API: a consistent snapshot of
            everything committed, checked, as one file; TARGET must not exist

  --db FILE          the event log (default ${DEFAULT_LOG_FILE}; zaptable start uses storage.directory/storage.database)
  --out FILE         export: write the JSON here instead of printing it
  --older-than DAYS  archive: games that ended more than DAYS days ago (0: every finished game)
  --dir DIR          archive: where the archive files go`;

export async function logCommand(argv: readonly string[], io: Output): Promise<number> {
  const { values, positionals } = parse(argv, {
    db: { type: 'string' }, out: { type: 'string' }, 'older-than': { type: 'string' }, dir: { type: 'string' },
  });
  const [sub, ...extra] = positionals;
  const file = values.db ?? DEFAULT_LOG_FILE;
  if (sub === 'backup') {
    const [target, ...more] = extra;
    if (target === undefined) throw new UsageError('log backup needs a TARGET file');
    if (more.length > 0) throw new UsageError(`unexpected argument "${more[0] ?? ''}"`);
    return backup(file, target, io);
  }
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0] ?? ''}"`);
  if (sub === 'archive') {
    if (values['older-than'] === undefined) throw new UsageError('log archive needs --older-than DAYS');
    const days = intOption(values['older-than'], 'older-than', 0, 0, 36_500);
    return archive(file, days, values.dir, io);
  }
  if (sub === 'export') {
    const rows = exportReadable(file);
    if ('error' in rows) {
      io.err(`zaptable log export: LOG_UNREADABLE: ${rows.error}`);
      return 1;
    }
    const text = JSON.stringify(rows, null, 2);
    if (values.out === undefined) io.out(text);
    else writeFileSync(values.out, `${text}\n`);
    const counts = Object.entries(rows.tables).map(([t, r]) => `${t} ${r.length}`).join(', ');
    const lost = Object.values(rows.unreadable).reduce((a, b) => a + b, 0);
    const summary = `zaptable log export: ${counts} rows read; ${lost} unreadable`;
    if (values.out === undefined) io.err(summary);
    else io.out(summary);
    return 0;
  }
  if (sub === 'repair') {
    const result = repairLog(file);
    if (!result.ok) {
      io.err(`zaptable log repair: ${result.code}: ${result.message}`);
      return 1;
    }
    const copied = Object.entries(result.copied).map(([t, n]) => `${t} ${n}`).join(', ');
    const lost = Object.values(result.unreadable).reduce((a, b) => a + b, 0);
    const rebuilt = result.rebuiltGames > 0 ? `, ${String(result.rebuiltGames)} game rows rebuilt from the log` : '';
    io.out(`zaptable log repair: ${file} rebuilt (${copied} rows copied, ${lost} unreadable${rebuilt}); the damaged file is ${result.damagedCopy}`);
    return 0;
  }
  throw new UsageError(sub === undefined ? 'log needs export, repair, archive or backup' : `unknown log command "${sub}"`);
}

function archive(file: string, days: number, dir: string | undefined, io: Output): number {
  const result = archiveGames(file, { olderThanDays: days, ...(dir === undefined ? {} : { dir }) });
  if (!result.ok) {
    io.err(`zaptable log archive: ${result.code}: ${result.message}`);
    return 1;
  }
  for (const k of result.kept) io.out(`  game ${k.id} stays: ${k.reason}`);
  if (result.games.length === 0 && result.publicEvents === 0) {
    io.out(`zaptable log archive: no finished game older than ${days} days to move; ${file} is unchanged`);
    return 0;
  }
  const rows = result.games.reduce((n, g) => n + g.rows, 0);
  const games = result.games.length === 0 ? 'no game' : `${result.games.length} games (${rows} log rows; ids ${result.games.map((g) => g.id).join(', ')})`;
  io.out(`zaptable log archive: moved ${games} and ${result.publicEvents} published events `
    + `from ${file} to ${result.archiveFile}; read them with zaptable history --db ${result.archiveFile}`);
  return 0;
}

async function backup(file: string, target: string, io: Output): Promise<number> {
  const result = await backupLog(file, target);
  if (!result.ok) {
    io.err(`zaptable log backup: ${result.code}: ${result.message}`);
    return 1;
  }
  io.out(`zaptable log backup: ${file} → ${result.file}: ${result.games} games, ${result.rows} log rows up to seq ${result.lastSeq}, `
    + `${result.bytes} bytes, checked, in ${Math.round(result.ms)} ms`);
  return 0;
}

/**
 * `zaptable log export|repair`: the way out of a damaged event log (`LOG_CORRUPT` at start). `export` prints
 * every row SQLite can still read as JSON (nothing is written to the log); `repair` copies those rows into a
 * new log file and keeps the damaged one beside it (docs/persistence.md, "A damaged log").
 */
import { writeFileSync } from 'node:fs';
import { DEFAULT_LOG_FILE, exportReadable, repairLog } from '../../persistence/index.ts';
import { parse, UsageError } from '../args.ts';
import type { Output } from '../output.ts';

export const logHelp = `zaptable log export [--db FILE] [--out FILE]
zaptable log repair [--db FILE]

For an event log that no longer opens (zaptable start says LOG_CORRUPT):

  export    prints every row that can still be read (games, log rows, snapshots, answers) as JSON,
            to --out FILE or to the terminal; the log itself is only read
  repair    copies every readable row into a new log (same ids and seq numbers, so history and
            replay keep working), puts it in place of FILE, and keeps the damaged file beside it
            as FILE.damaged-<time>. Stop the controller first. Rows that cannot be read are counted.

  --db FILE     the event log (default ${DEFAULT_LOG_FILE}; zaptable start uses storage.directory/storage.database)
  --out FILE    export: write the JSON here instead of printing it`;

export function logCommand(argv: readonly string[], io: Output): number {
  const { values, positionals } = parse(argv, { db: { type: 'string' }, out: { type: 'string' } });
  const [sub, ...extra] = positionals;
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0] ?? ''}"`);
  const file = values.db ?? DEFAULT_LOG_FILE;
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
  throw new UsageError(sub === undefined ? 'log needs export or repair' : `unknown log command "${sub}"`);
}

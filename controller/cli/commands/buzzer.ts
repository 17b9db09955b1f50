/**
 * `zaptable buzzer export|replay`: a buzzer session's presses out of the event log. Both replay the logged
 * actions through the pure buzzer logic (controller/buzzer/press-rows.ts), so what they print is recomputed
 * from the logged stamps — the raw `micros()`, its boot epoch, the mapped time and its uncertainty — not
 * copied from what was shown at the time: that is how a dispute is settled.
 */
import { writeFileSync } from 'node:fs';
import { compareEvents } from '../../kernel/event-order.ts';
import { initialState, replaySession, type PressRow, type SessionReplay } from '../../buzzer/index.ts';
import { loggedSessions, type LoggedSession } from '../../app/buzzer-log.ts';
import { DEFAULT_LOG_FILE, type EventLog } from '../../persistence/index.ts';
import { intOption, parse, UsageError } from '../args.ts';
import type { Output } from '../output.ts';
import { openForReading } from './history.ts';

export const buzzerHelp = `zaptable buzzer export --db FILE [--table ID] [--session N] [--out FILE]
zaptable buzzer replay --db FILE --question N [--table ID] [--session N] [--json]

export   one CSV row per press of a buzzer session: question, round, contestant, team, station,
         time source, boot epoch, raw micros(), device us, mapped us, uncertainty us, outcome,
         rank, tie group, delay behind the winner (us), reaction time from live (us), false start,
         reason, sensor log row. To stdout, or to --out FILE.
replay   a question's ranking recomputed from the logged presses, with each place's separation
         from the next and the combined uncertainty: a tie is a tie because the intervals overlap.

  --db FILE       the event log (default ${DEFAULT_LOG_FILE})
  --table ID      the buzzer table (default: the only table with buzzer sessions)
  --session N     which session, 1 = the first (default: the latest)
  --question N    replay: the question number
  --out FILE      export: write the CSV here
  --json          replay: print JSON`;

const COLUMNS = [
  'question', 'round', 'contestant', 'team', 'station', 'source', 'epoch', 'raw_us', 'device_us', 'mapped_us', 'uncertainty_us',
  'outcome', 'rank', 'tie_group', 'delay_us', 'reaction_us', 'false_start', 'reason', 'sensor_seq',
  // Appended (not next to uncertainty_us) so that the columns of earlier exports keep their places.
  'before_us', 'after_us',
] as const;

function csvCell(value: string | number | boolean | null): string {
  if (value === null) return '';
  // Mapped times, uncertainties and delays are fractional µs: 0.1 µs is far below any stamp's resolution.
  const text = typeof value === 'number' ? String(Math.round(value * 10) / 10) : String(value);
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The CSV text of a session's press rows (RFC 4180, header first). */
export function pressCsv(rows: readonly PressRow[]): string {
  const lines = [COLUMNS.join(',')];
  for (const r of rows) {
    lines.push([
      r.question, r.round, r.contestant, r.team, r.station, r.source, r.epoch, r.rawUs, r.deviceUs, r.mappedUs, r.uncertaintyUs,
      r.outcome, r.rank, r.tieGroup, r.delayUs, r.reactionUs, r.falseStart, r.reason, r.sensorSeq, r.beforeUs, r.afterUs,
    ].map(csvCell).join(','));
  }
  return `${lines.join('\n')}\n`;
}

function tablesWithSessions(log: EventLog): string[] {
  return log.reader.tableIds().filter((id) => loggedSessions(log, id).length > 0);
}

function pickSession(log: EventLog, table: string | undefined, session: number | undefined): LoggedSession {
  const candidates = table === undefined ? tablesWithSessions(log) : [table];
  if (candidates.length !== 1) {
    throw new UsageError(candidates.length === 0 ? 'no buzzer sessions in this log' : `several buzzer tables (${candidates.join(', ')}): name one with --table`);
  }
  const sessions = loggedSessions(log, candidates[0] ?? '');
  if (sessions.length === 0) throw new UsageError(`table ${candidates[0] ?? ''} has no buzzer sessions in this log`);
  const found = session === undefined ? sessions.at(-1) : sessions[session - 1];
  if (found === undefined) throw new UsageError(`--session must be 1 to ${sessions.length}`);
  return found;
}

function replayOf(s: LoggedSession): SessionReplay {
  const first = s.actions[0];
  return replaySession(initialState(s.setup, first?.at ?? { hostUs: 0, wallMs: 0 }), s.actions);
}

function us(n: number | null): string {
  if (n === null) return '-';
  return n >= 10_000 ? `${(n / 1000).toFixed(3)} ms` : `${Math.round(n)} us`;
}
const r1 = (n: number): number => Math.round(n * 10) / 10;

function replayLines(rows: readonly PressRow[], question: number): string[] {
  const lines: string[] = [];
  const rounds = [...new Set(rows.map((r) => r.round))];
  for (const round of rounds) {
    const ranked = rows.filter((r) => r.round === round && r.rank !== null)
      .sort((x, y) => (x.rank ?? 0) - (y.rank ?? 0) || x.mappedUs - y.mappedUs);
    lines.push(`question ${question}, round ${round}: ${ranked.length} ranked press(es)`);
    ranked.forEach((r, i) => {
      const tie = r.tieGroup === null ? '' : `  TIE group ${r.tieGroup}`;
      const raw = r.rawUs === null ? 'host-stamped' : `raw ${r.rawUs}, epoch ${r.epoch}`;
      lines.push(`  ${String(r.rank).padStart(2)}. ${r.contestant.padEnd(12)} +${us(r.delayUs)} behind, reaction ${us(r.reactionUs)}`
        + `  mapped ${r1(r.mappedUs)} us ±${r1(r.uncertaintyUs)} us (${r.station}, ${raw})${tie}`);
      const next = ranked[i + 1];
      if (next !== undefined) {
        // The same fields ranking.ts compares, the button's interval included.
        const timed = (x: PressRow) => ({
          station: x.station, epoch: x.epoch, deviceUs: x.deviceUs, hostUs: x.mappedUs, uncertaintyUs: x.uncertaintyUs,
          beforeUs: x.beforeUs, afterUs: x.afterUs,
        });
        const a = timed(r);
        const b = timed(next);
        // Host-stamped presses share no device clock, even on one hub button (as in ranking.ts).
        const c = compareEvents(
          r.source === 'host' ? { ...a, station: `${a.station}#a` } : a, next.source === 'host' ? { ...b, station: `${b.station}#b` } : b,
        );
        const verdict = c.order === 'tie' ? 'cannot be ordered (tie)' : c.order === 'before' ? 'ordered' : 'ordered the other way';
        lines.push(`      vs ${next.contestant}: separation ${r1(c.separationUs)} us, combined uncertainty ${r1(c.combinedUncertaintyUs)} us`
          + ` -> ${verdict}`);
      }
    });
    for (const r of rows.filter((x) => x.round === round && x.rank === null)) {
      const why = r.reason === null ? '' : ` (${r.reason})`;
      lines.push(`   -  ${r.contestant.padEnd(12)} ${r.outcome}${why}  mapped ${r1(r.mappedUs)} us ±${r1(r.uncertaintyUs)} us`);
    }
  }
  return lines;
}

export function buzzerCommand(argv: readonly string[], io: Output): number {
  const [sub, ...rest] = argv;
  if (sub !== 'export' && sub !== 'replay') throw new UsageError(sub === undefined ? 'buzzer needs export or replay' : `unknown buzzer command "${sub}"`);
  const { values, positionals } = parse(rest, {
    db: { type: 'string' }, table: { type: 'string' }, session: { type: 'string' }, question: { type: 'string' },
    out: { type: 'string' }, json: { type: 'boolean' },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0] ?? ''}"`);
  const session = values.session === undefined ? undefined : intOption(values.session, 'session', 1);
  const question = sub === 'replay' ? intOption(values.question, 'question', 0) : undefined;
  if (sub === 'replay' && question === 0) throw new UsageError('buzzer replay needs --question N');
  const log = openForReading(values.db ?? DEFAULT_LOG_FILE, `buzzer ${sub}`, io);
  if (log === undefined) return 1;
  try {
    const replay = replayOf(pickSession(log, values.table, session));
    for (const r of replay.refused) io.err(`warning: the logic refused a logged ${r.action.type} on replay (${r.code})`);
    if (sub === 'export') {
      const csv = pressCsv(replay.rows);
      if (values.out === undefined) io.out(csv.trimEnd());
      else {
        writeFileSync(values.out, csv);
        io.err(`${replay.rows.length} press(es) written to ${values.out}`);
      }
      return 0;
    }
    const rows = replay.rows.filter((r) => r.question === question);
    if (rows.length === 0) {
      io.err(`zaptable buzzer replay: question ${question ?? 0} has no presses in this session`);
      return 1;
    }
    if (values.json === true) io.out(JSON.stringify(rows, null, 2));
    else for (const line of replayLines(rows, question ?? 0)) io.out(line);
    return 0;
  } finally {
    log.close();
  }
}

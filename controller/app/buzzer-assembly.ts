/**
 * A buzzer table's set-up from its configuration: contestants from the seats (names, colours, stations),
 * teams, and the modes of `tables[].buzzer` (docs/buzzer.md).
 */
import { BUZZER_DEFAULTS, type BuzzerSetup } from '../buzzer/index.ts';
import type { TableConfig } from '../config/index.ts';

export function buzzerSetupOf(table: TableConfig): BuzzerSetup {
  const b = table.buzzer;
  const teamOf = new Map(b.teams.flatMap((t) => t.seats.map((seat) => [seat, t.id] as const)));
  return {
    ...BUZZER_DEFAULTS,
    contestants: table.seats.map((s) => ({
      id: s.id, name: s.name, colour: s.colour ?? null, station: s.station, team: teamOf.get(s.id) ?? null,
    })),
    teams: b.teams.map((t) => ({ id: t.id, name: t.name ?? t.id, members: t.seats })),
    penaltyMs: b.penaltyMs,
    lockout: b.lockout,
    autoResetMs: b.autoResetMs,
    oneBuzzPerQuestion: b.oneBuzzPerQuestion,
    teamLockout: b.teamLockout,
    readingTimerMs: b.readingTimerMs,
    points: { correct: b.points.correct, wrong: b.points.wrong },
    afterWrong: b.afterWrong,
    arbitrationWindowMs: table.timing.arbitrationWindowMs,
  };
}

/** Every station a buzzer table uses: its buzzers and the host's button. */
export function buzzerStationsOf(table: TableConfig): string[] {
  return [...table.seats.map((s) => s.station), ...(table.buzzer.hostStation === undefined ? [] : [table.buzzer.hostStation])];
}

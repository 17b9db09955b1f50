/**
 * Cross-field checks of `tables:` that one key's schema cannot express: unique ids and stations, seats per
 * mode, Zapp Zerapp colours, keys that apply to one mode only, buzzer teams. Each finding is one error with
 * the path of the value to change.
 */
import { configError, type ConfigError } from './errors.ts';
import { isRecord, list, rec, text, type Rec } from './loose.ts';
import { findGame } from '../rules/games.ts';
import { MODES, SEAT_LIMITS, modesWithKey, type Mode } from './schema-tables.ts';
import { didYouMean } from './suggest.ts';

const isMode = (v: unknown): v is Mode => (MODES as readonly unknown[]).includes(v);

/** Reports the second and later occurrences of a value among `items` (value, path, label for the message). */
function duplicates(items: readonly { value: string | undefined; path: string; label: string }[], what: string): ConfigError[] {
  const first = new Map<string, string>();
  const errors: ConfigError[] = [];
  for (const item of items) {
    if (item.value === undefined) continue;
    const earlier = first.get(item.value);
    if (earlier === undefined) first.set(item.value, item.label);
    else errors.push(configError('CONFIG_CONFLICT', item.path, `${what} "${item.value}" is already used by ${earlier}`));
  }
  return errors;
}

function checkSeats(table: Rec, t: number, serial: boolean, input: Rec): ConfigError[] {
  const errors: ConfigError[] = [];
  const at = `tables.${t}`;
  const seats = list(table.seats).map(rec);
  const mode = table.mode;
  const limits = isMode(mode) ? SEAT_LIMITS[mode] : undefined;
  if (isMode(mode) && limits !== undefined) {
    const [min, max] = limits;
    if (seats.length < min || seats.length > max) {
      errors.push(configError('CONFIG_INVALID', `${at}.seats`, `${mode} needs ${min}–${max} seats, got ${seats.length}`));
    }
  }
  errors.push(...duplicates(seats.map((s, i) => ({ value: text(s.id), path: `${at}.seats.${i}.id`, label: `seat ${i}` })), 'seat id'));
  const inputSeats = list(input.seats).map(rec);
  seats.forEach((seat, i) => {
    const path = `${at}.seats.${i}`;
    if (serial && seat.station === undefined) {
      errors.push(configError('CONFIG_INVALID', `${path}.station`, 'is required on serial hardware: the id in the station\'s banner (set with `id set`)'));
    }
    if (seat.station === 'unset') {
      errors.push(configError('CONFIG_INVALID', `${path}.station`, '"unset" is what a station without an id announces: give it one with `id set`'));
    }
    if (serial && inputSeats[i]?.bot === true) {
      errors.push(configError('CONFIG_CONFLICT', `${path}.bot`, 'bots play only on simulated hardware (hardware.kind: simulated)'));
    }
  });
  const game = findGame(mode);
  const gameColours = game?.seatColours;
  if (game !== undefined && gameColours !== undefined) {
    seats.forEach((seat, i) => {
      const colour = text(seat.colour);
      if (colour !== undefined && !gameColours.includes(colour)) {
        errors.push(configError('CONFIG_INVALID', `${at}.seats.${i}.colour`, `${game.title} colours are ${gameColours.join(', ')}; got "${colour}"`));
      }
    });
    errors.push(...duplicates(seats.map((s, i) => ({ value: text(s.colour), path: `${at}.seats.${i}.colour`, label: `seat ${i}` })), 'colour'));
  }
  return errors;
}

/** Keys that only mean something in one mode: written for another mode they are almost surely a mistake. */
function checkModeKeys(input: Rec, t: number, mode: Mode): ConfigError[] {
  const errors: ConfigError[] = [];
  const at = `tables.${t}`;
  if (input.buzzer !== undefined && mode !== 'buzzer') {
    errors.push(configError('CONFIG_CONFLICT', `${at}.buzzer`, `only for mode buzzer (this table is ${mode})`));
  }
  if (mode === 'buzzer' && isRecord(input.rules) && Object.keys(input.rules).length > 0) {
    errors.push(configError('CONFIG_CONFLICT', `${at}.rules`, 'buzzer mode has no rules engine: its options are in `buzzer`'));
  }
  // Game-specific table keys: only the games whose plug-in lists the key understand it.
  for (const key of ['pileStation', 'chips']) {
    const modes = modesWithKey(key);
    if (input[key] !== undefined && !modes.includes(mode)) {
      errors.push(configError('CONFIG_CONFLICT', `${at}.${key}`, `only for mode ${modes.join(' or ')} (this table is ${mode})`));
    }
  }
  return errors;
}

function checkTeams(table: Rec, t: number): ConfigError[] {
  const errors: ConfigError[] = [];
  const seatIds = list(table.seats).map((s) => text(rec(s).id)).filter((s): s is string => s !== undefined);
  const teams = list(rec(table.buzzer).teams).map(rec);
  const at = `tables.${t}.buzzer.teams`;
  errors.push(...duplicates(teams.map((team, i) => ({ value: text(team.id), path: `${at}.${i}.id`, label: `team ${i}` })), 'team id'));
  const members: { value: string | undefined; path: string; label: string }[] = [];
  teams.forEach((team, i) => {
    list(team.seats).forEach((seat, k) => {
      const id = text(seat);
      if (id !== undefined && !seatIds.includes(id)) {
        errors.push(configError('CONFIG_INVALID', `${at}.${i}.seats.${k}`, `no seat "${id}" at this table${didYouMean(id, seatIds)}`));
      }
      members.push({ value: id, path: `${at}.${i}.seats.${k}`, label: `team "${text(team.id) ?? i}"` });
    });
  });
  errors.push(...duplicates(members, 'seat'));
  return errors;
}

/** Buzzer modes that need each other: auto-reset needs its delay; the delay alone would be silently ignored. */
function checkBuzzerModes(table: Rec, t: number): ConfigError[] {
  const buzzer = rec(table.buzzer);
  const at = `tables.${t}.buzzer`;
  if (buzzer.lockout === 'auto-reset' && buzzer.autoResetMs === null) {
    return [configError('CONFIG_INVALID', `${at}.autoResetMs`, 'lockout: auto-reset needs autoResetMs (how long after a winner to re-arm)')];
  }
  if (buzzer.lockout !== 'auto-reset' && typeof buzzer.autoResetMs === 'number') {
    return [configError('CONFIG_CONFLICT', `${at}.autoResetMs`, 'only with lockout: auto-reset (set lockout: auto-reset, or remove autoResetMs)')];
  }
  return [];
}

/** Every station a table reads (seats, then the pile station, then a buzzer host button), with its path. */
function stationsOf(table: Rec, t: number): { value: string | undefined; path: string; label: string }[] {
  const label = `table "${text(table.id) ?? t}"`;
  const seats = list(table.seats).map((s, i) => {
    const path = `tables.${t}.seats.${i}.station`;
    return { value: text(rec(s).station), path, label: `${label} (${path})` };
  });
  return [
    ...seats,
    { value: text(table.pileStation), path: `tables.${t}.pileStation`, label: `${label} (its pile station)` },
    { value: text(rec(table.buzzer).hostStation), path: `tables.${t}.buzzer.hostStation`, label: `${label} (its host button)` },
  ];
}

/** The cross-field checks of every table. `input` is what was written (before defaults), to see what was set. */
export function checkTables(config: unknown, input: unknown): ConfigError[] {
  const tables = list(rec(config).tables).map(rec);
  const inputTables = list(rec(input).tables).map(rec);
  const serial = rec(rec(config).hardware).kind === 'serial';
  const errors = duplicates(tables.map((table, t) => ({ value: text(table.id), path: `tables.${t}.id`, label: `table ${t}` })), 'table id');
  tables.forEach((table, t) => {
    const written = inputTables[t] ?? {};
    errors.push(...checkSeats(table, t, serial, written));
    if (isMode(table.mode)) errors.push(...checkModeKeys(written, t, table.mode));
    if (table.mode === 'buzzer') errors.push(...checkTeams(table, t), ...checkBuzzerModes(table, t));
  });
  // One station, one seat: across tables as within one (a station's events must belong to exactly one game).
  errors.push(...duplicates(tables.flatMap(stationsOf), 'station'));
  return errors;
}

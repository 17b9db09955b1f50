/**
 * A table's `rules:` are the rules engine's options: the engine's own `resolveConfig` checks them (so the
 * option list lives in one place, next to the rules), with the players and Zapp Zerapp colours taken from
 * `seats`. Each engine complaint becomes one error under `tables.N.rules`.
 */
import { findGame, GAMES } from '../rules/games.ts';
import { configError, type ConfigError } from './errors.ts';
import { isRecord, list, rec, text } from './loose.ts';
import { suggest } from './suggest.ts';

/** Keys a user may write in `rules`, per game (the engines' options minus what comes from `seats`). */
export const RULES_KEYS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(GAMES.map((g) => [g.id, g.rulesKeys]));

/** `config.board.homes.RED: …` or `scoringMode: …` → the key path under `rules` and the message. */
function split(message: string): { key: string; rest: string; message: string } | undefined {
  const m = /^(?:config\.)?([A-Za-z]\w*)([^\s:]*): (.*)$/s.exec(message);
  if (!m?.[1] || m[3] === undefined) return undefined;
  return { key: m[1], rest: (m[2] ?? '').replace(/\[(\d+)\]/g, '.$1'), message: m[3] };
}

function toError(message: string, at: string, game: string, rules: Record<string, unknown>): ConfigError {
  const parts = split(message);
  if (!parts) return configError('CONFIG_INVALID', at, message);
  if (parts.message === 'unknown option') {
    const keys = RULES_KEYS[game] ?? [];
    const hint = suggest(parts.key, keys);
    const tail = hint === undefined ? ` (${game} options: ${keys.join(', ')})` : `; did you mean "${hint}"?`;
    return configError('CONFIG_UNKNOWN_KEY', `${at}.${parts.key}`, `unknown ${game} rules option${tail}`);
  }
  // The engines word some messages tersely ("one of A, B"); say it as the schema's errors do, with the value.
  const said = parts.message.startsWith('one of ') ? `must be ${parts.message}` : parts.message;
  const value = parts.rest === '' ? rules[parts.key] : undefined;
  const got = value === undefined || said.includes('got ') ? '' : `, got ${JSON.stringify(value)}`;
  return configError('CONFIG_INVALID', `${at}.${parts.key}${parts.rest}`, `${said}${got}`);
}

/** Checks one game table's `rules` (call only when its mode and seats are otherwise valid). */
function checkTableRules(table: Record<string, unknown>, t: number): ConfigError[] {
  const game = findGame(table.mode);
  if (game === undefined) return [];
  const at = `tables.${t}.rules`;
  const rules = rec(table.rules);
  const errors: ConfigError[] = [];
  for (const key of game.rulesFromSeats) {
    if (key in rules) errors.push(configError('CONFIG_CONFLICT', `${at}.${key}`, `comes from \`seats\`${key === 'colours' ? ' (each seat\'s colour)' : ''}; remove it here`));
  }
  const seats = list(table.seats).map(rec).map((s) => ({ id: text(s.id) ?? '', ...(text(s.colour) === undefined ? {} : { colour: text(s.colour) }) }));
  const options: Record<string, unknown> = Object.fromEntries(
    Object.entries(rules).filter(([k]) => !game.rulesFromSeats.includes(k)),
  );
  errors.push(...game.checkRules(options, seats).map((m) => toError(m, at, game.id, options)));
  return errors;
}

/**
 * Runs the engine check on every game table whose seats are sound. `blocked(tablePath)` says whether a
 * mistake the engine would only repeat (in seat ids, their number, colours or the rules) is already reported.
 */
export function checkRules(config: unknown, blocked: (path: string) => boolean): ConfigError[] {
  return list(rec(config).tables).flatMap((table, t) => {
    if (!isRecord(table) || blocked(`tables.${t}`)) return [];
    const game = findGame(table.mode);
    if (game === undefined) return [];
    const n = list(table.seats).length;
    if (n < game.seats[0] || n > game.seats[1]) return [];
    return checkTableRules(table, t);
  });
}

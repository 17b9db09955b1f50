/**
 * A table's `rules:` are the rules engine's options: the engine's own `resolveConfig` checks them (so the
 * option list lives in one place, next to the rules), with the players and Zapp Zerapp colours taken from
 * `seats`. Each engine complaint becomes one error under `tables.N.rules`.
 */
import { resolveConfig as resolveZapp } from '../rules/zapp-zerapp/index.ts';
import { DEFAULT_CONFIG as ZIP_DEFAULTS, resolveConfig as resolveZip } from '../rules/zip-zap/index.ts';
import { configError, type ConfigError } from './errors.ts';
import { isRecord, list, rec, text } from './loose.ts';
import { SEAT_LIMITS } from './schema-tables.ts';
import { suggest } from './suggest.ts';

/** Keys a user may write in `rules` (the engines' options minus what comes from `seats`). */
const FROM_SEATS = new Set(['players', 'colours']);
const zappProbe = resolveZapp({ players: ['a', 'b'] });
export const RULES_KEYS: Readonly<Record<'zapp-zerapp' | 'zip-zap', readonly string[]>> = {
  'zapp-zerapp': (zappProbe.ok ? Object.keys(zappProbe.config) : []).filter((k) => !FROM_SEATS.has(k)),
  'zip-zap': Object.keys(ZIP_DEFAULTS),
};

/** `config.board.homes.RED: …` or `scoringMode: …` → the key path under `rules` and the message. */
function split(message: string): { key: string; rest: string; message: string } | undefined {
  const m = /^(?:config\.)?([A-Za-z]\w*)([^\s:]*): (.*)$/s.exec(message);
  if (!m?.[1] || m[3] === undefined) return undefined;
  return { key: m[1], rest: (m[2] ?? '').replace(/\[(\d+)\]/g, '.$1'), message: m[3] };
}

function toError(message: string, at: string, game: 'zapp-zerapp' | 'zip-zap', rules: Record<string, unknown>): ConfigError {
  const parts = split(message);
  if (!parts) return configError('CONFIG_INVALID', at, message);
  if (parts.message === 'unknown option') {
    const hint = suggest(parts.key, RULES_KEYS[game]);
    const tail = hint === undefined ? ` (${game} options: ${RULES_KEYS[game].join(', ')})` : `; did you mean "${hint}"?`;
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
  const game = table.mode;
  if (game !== 'zapp-zerapp' && game !== 'zip-zap') return [];
  const at = `tables.${t}.rules`;
  const rules = rec(table.rules);
  const errors: ConfigError[] = [];
  for (const key of FROM_SEATS) {
    if (key in rules) errors.push(configError('CONFIG_CONFLICT', `${at}.${key}`, `comes from \`seats\`${key === 'colours' ? ' (each seat\'s colour)' : ''}; remove it here`));
  }
  const seats = list(table.seats).map(rec);
  const players = seats.map((s) => text(s.id) ?? '');
  const options: Record<string, unknown> = Object.fromEntries(Object.entries(rules).filter(([k]) => !FROM_SEATS.has(k)));
  if (game === 'zip-zap') {
    const r = resolveZip({ ...options, players });
    if ('errors' in r) errors.push(...r.errors.map((m) => toError(m, at, game, options)));
  } else {
    const colours = Object.fromEntries(seats.map((s) => [text(s.id) ?? '', (text(s.colour) ?? '').toUpperCase()]));
    const r = resolveZapp({ ...options, players, colours });
    if (!r.ok) errors.push(...r.errors.map((m) => toError(m, at, game, options)));
  }
  return errors;
}

/**
 * Runs the engine check on every game table whose seats are sound. `blocked(tablePath)` says whether a
 * mistake the engine would only repeat (in seat ids, their number, colours or the rules) is already reported.
 */
export function checkRules(config: unknown, blocked: (path: string) => boolean): ConfigError[] {
  return list(rec(config).tables).flatMap((table, t) => {
    if (!isRecord(table) || blocked(`tables.${t}`)) return [];
    const mode = table.mode;
    if (mode !== 'zapp-zerapp' && mode !== 'zip-zap') return [];
    const n = list(table.seats).length;
    if (n < SEAT_LIMITS[mode][0] || n > SEAT_LIMITS[mode][1]) return [];
    return checkTableRules(table, t);
  });
}

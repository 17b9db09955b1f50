/**
 * Engine configuration (A.10): options, defaults and validation. Every option that resolves an ambiguity
 * (A.11) defaults to the spec's proposed resolution; the alternatives are the other values.
 */
import { SOLID_SUITS, type SolidSuit } from './cards.ts';

/** How "nobody can follow" is detected (ZIP-Q-3). */
export type StuckDetection = 'ORACLE' | 'TIMEOUT' | 'HUMAN';
/** What happens when the reserve runs out during start flips (ZIP-Q-2). */
export type ReserveExhausted = 'REDEAL' | 'OPEN_START';
/** Penalty points (ZIP-51) or one point per round won (ZIP-55). */
export type ScoringMode = 'PENALTY' | 'WINS';
/** How tied final totals are settled (ZIP-Q-9). */
export type TiePolicy = 'SHARED' | 'TIEBREAK_ROUND_WINS_THEN_SHARED';
/** Who deals: the engine shuffles and deals, or the cards are dealt physically at the table (Part C.3). */
export type Dealing = 'ENGINE' | 'TABLE';

/** A fully resolved configuration, stored in the game state. */
export interface ZipZapConfig {
  /** Player ids in seat order: 2–6, unique, non-empty (ZIP-1). */
  readonly players: readonly string[];
  /** `RANDOM` (default) or the explicit solid suits to remove: 2 for 2 players, 1 for 3, none for 4–6 (ZIP-3). */
  readonly removedSuits: 'RANDOM' | readonly SolidSuit[];
  /** ZIP-Q-3. Default `ORACLE`. */
  readonly stuckDetection: StuckDetection;
  /** ORACLE: how long the runtime waits before sending `announce-stuck` (the engine has no clock). Default 1500. */
  readonly stuckAnnounceDelayMs: number;
  /** TIMEOUT: how long without a play before the runtime sends `declare-stuck`. Default 5000. */
  readonly stuckTimeoutMs: number;
  /** Two plays on the same top within this many ms go to a human (`resolve-tie`). 0 = strict order (ZIP-45). */
  readonly tieWindowMs: number;
  /**
   * Late lines (docs/timing.md §3.5): a play whose interval says it landed before plays already applied takes
   * them back and is put in its place when it landed at most this many ms (landing time) before the newest
   * applied play; further back it is refused with `LATE_PLAY` for the referee. Default 500.
   */
  readonly reorderLookBackMs: number;
  /** ZIP-Q-2. Default `REDEAL`. */
  readonly reserveExhausted: ReserveExhausted;
  /** ZIP-51 / ZIP-55. Default `PENALTY`. */
  readonly scoringMode: ScoringMode;
  /** ZIP-Q-9. Default `SHARED`. */
  readonly tiePolicy: TiePolicy;
  /** ZIP-46: illegal plays carry no penalty; `NONE` is the only value. */
  readonly invalidPlayPenalty: 'NONE';
  /** Overrides the number of rounds (ZIP-53); null = N for 4–6 players, 2N for 2–3. */
  readonly rounds: number | null;
  /** Default `ENGINE`. */
  readonly dealing: Dealing;
}

/** Defaults for everything but `players`. */
export const DEFAULT_CONFIG: Omit<ZipZapConfig, 'players'> = {
  removedSuits: 'RANDOM',
  stuckDetection: 'ORACLE',
  stuckAnnounceDelayMs: 1500,
  stuckTimeoutMs: 5000,
  tieWindowMs: 0,
  reorderLookBackMs: 500,
  reserveExhausted: 'REDEAL',
  scoringMode: 'PENALTY',
  tiePolicy: 'SHARED',
  invalidPlayPenalty: 'NONE',
  rounds: null,
  dealing: 'ENGINE',
};

/** How many solid suits ZIP-3 removes for `n` players. */
export function removedSuitCount(n: number): number {
  return n === 2 ? 2 : n === 3 ? 1 : 0;
}

/** Number cards dealt to each player (ZIP-4). */
export function dealCount(n: number): number {
  return n <= 4 ? 12 : n === 5 ? 9 : 8;
}

/** Rounds in a game (ZIP-53): N for 4–6 players, 2N for 2–3, unless overridden. */
export function roundsFor(config: ZipZapConfig): number {
  const n = config.players.length;
  return config.rounds ?? (n >= 4 ? n : 2 * n);
}

type Obj = Record<string, unknown>;

function oneOf<T extends string>(value: unknown, options: readonly T[]): value is T {
  return typeof value === 'string' && (options as readonly string[]).includes(value);
}

function checkMs(raw: Obj, key: string, errors: string[]): void {
  const v = raw[key];
  if (v !== undefined && !(typeof v === 'number' && Number.isInteger(v) && v >= 0)) {
    errors.push(`${key}: must be a whole number of ms ≥ 0`);
  }
}

function checkPlayers(players: unknown, errors: string[]): void {
  if (!Array.isArray(players)) {
    errors.push('players: required, a list of 2–6 player ids');
    return;
  }
  if (players.length < 2 || players.length > 6) errors.push(`players: 2–6 players (ZIP-1), got ${players.length}`);
  if (!players.every((p) => typeof p === 'string' && p !== '')) errors.push('players: every id must be a non-empty string');
  if (new Set(players).size !== players.length) errors.push('players: ids must be unique');
}

function checkRemovedSuits(v: unknown, n: number, errors: string[]): void {
  if (v === undefined || v === 'RANDOM') return;
  if (!Array.isArray(v) || !v.every((s) => oneOf(s, SOLID_SUITS))) {
    errors.push('removedSuits: "RANDOM" or a list of solid suits (RED, BLUE, YELLOW, GREEN); WILD is never removed');
    return;
  }
  if (new Set(v).size !== v.length) errors.push('removedSuits: suits must be unique');
  const want = removedSuitCount(n);
  if (v.length !== want) errors.push(`removedSuits: ${n} players remove exactly ${want} solid suit(s) (ZIP-3), got ${v.length}`);
}

const KNOWN_KEYS = new Set(['players', ...Object.keys(DEFAULT_CONFIG)]);

/**
 * Validates a partial configuration and fills in the defaults. Reports every problem at once (design
 * principle 9); returns the list of problems instead of a config when there is any.
 */
export function resolveConfig(raw: unknown): ZipZapConfig | { readonly errors: readonly string[] } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { errors: ['config: must be an object'] };
  const c = raw as Obj;
  const errors: string[] = [];
  for (const key of Object.keys(c)) if (!KNOWN_KEYS.has(key)) errors.push(`${key}: unknown option`);
  checkPlayers(c.players, errors);
  const n = Array.isArray(c.players) ? c.players.length : 0;
  checkRemovedSuits(c.removedSuits, n, errors);
  const enums: [string, readonly string[]][] = [
    ['stuckDetection', ['ORACLE', 'TIMEOUT', 'HUMAN']],
    ['reserveExhausted', ['REDEAL', 'OPEN_START']],
    ['scoringMode', ['PENALTY', 'WINS']],
    ['tiePolicy', ['SHARED', 'TIEBREAK_ROUND_WINS_THEN_SHARED']],
    ['invalidPlayPenalty', ['NONE']],
    ['dealing', ['ENGINE', 'TABLE']],
  ];
  for (const [key, options] of enums) {
    if (c[key] !== undefined && !oneOf(c[key], options)) errors.push(`${key}: one of ${options.join(', ')}`);
  }
  for (const key of ['stuckAnnounceDelayMs', 'stuckTimeoutMs', 'tieWindowMs', 'reorderLookBackMs']) checkMs(c, key, errors);
  if (c.rounds !== undefined && c.rounds !== null && !(typeof c.rounds === 'number' && Number.isInteger(c.rounds) && c.rounds >= 1)) {
    errors.push('rounds: null or a whole number ≥ 1');
  }
  if (errors.length > 0) return { errors };
  return { ...DEFAULT_CONFIG, ...c } as ZipZapConfig;
}

/**
 * Engine configuration (rules-spec B.10). Defaults are the proposed resolutions of B.11; the alternatives are
 * options. `resolveConfig` checks an untrusted (JSON) configuration once and reports every error at once.
 */
import type { Checked } from '../../kernel/result.ts';
import { parseBoardSpec, isColour, COLOURS, type BoardSpec, type Colour } from './board-spec.ts';
import { BOARD_PRESETS, DEFAULT_BOARD, type BoardPreset } from './board-presets.ts';
import type { Variant } from './board.ts';

/** ZAPP-Q-3: the three readings of "START pieces just setting off cannot be banished". */
export type StartImmunityReading = 'PIECES_ON_START' | 'LAUNCHING_PIECE_CANNOT_BANISH' | 'JUST_ENTERED_PIECE_SAFE';

/** A fully resolved configuration, stored in the state. */
export interface ZappConfig {
  /** 2–4 unique player ids, in seat order. */
  readonly players: readonly string[];
  /** Colour of each player (ZAPP-4); by default red, green, blue, yellow in seat order. */
  readonly colours: Readonly<Record<string, Colour>>;
  /** BASIC, or PRO with carrying fields (B.8). */
  readonly variant: Variant;
  /** The board, validated (B.2.5). Shared by reference, never copied. */
  readonly board: BoardSpec;
  /** Barrels a player may hold at once (ZAPP-22, ZAPP-Q-4). */
  readonly maxBarrelsInHand: 1 | 2;
  /** Whether a successful player must move (ZAPP-Q-5); `false` allows `pass`. */
  readonly moveMandatory: boolean;
  /** AUTO: the engine banishes; CLAIM: only what the mover claims in time (ZAPP-57). */
  readonly banishMode: 'AUTO' | 'CLAIM';
  /** ZAPP-Q-3 reading. */
  readonly startImmunityReading: StartImmunityReading;
  /** Whether an own carried piece enters the city with the mover when the move does not say (ZAPP-67). */
  readonly ownCarriedIntoCityDefault: boolean;
  /** ROTATE: only the seat whose turn it is may roll (ZAPP-11); ANY: anybody. */
  readonly rollerPolicy: 'ROTATE' | 'ANY';
  /** ZAPP-Q-12: after this many ms in SELECT (measured with the actions' `at`), reveal is allowed and unplaced players fail. */
  readonly selectTimeoutMs: number | null;
  /** `legalActions` lists every carry/intoCity combination of a move up to this many; beyond it a sample (see docs). */
  readonly maxCarryCombinations: number;
}

/** The configuration as a caller writes it: every key optional but `players`; `board` may name a preset. */
export type ZappSettings = Omit<ZappConfig, 'board' | 'colours'> & {
  readonly board: BoardSpec | BoardPreset;
  readonly colours: Readonly<Record<string, Colour>>;
};

const DEFAULTS = {
  variant: 'BASIC',
  maxBarrelsInHand: 2,
  moveMandatory: true,
  banishMode: 'AUTO',
  startImmunityReading: 'PIECES_ON_START',
  ownCarriedIntoCityDefault: true,
  rollerPolicy: 'ROTATE',
  selectTimeoutMs: null,
  maxCarryCombinations: 64,
} as const;

function oneOf<T extends string | number | boolean>(
  value: unknown, options: readonly T[], fallback: T, key: string, errors: string[],
): T {
  if (value === undefined) return fallback;
  if ((options as readonly unknown[]).includes(value)) return value as T;
  errors.push(`config.${key}: must be one of ${options.map((o) => JSON.stringify(o)).join(', ')}; got ${JSON.stringify(value)}`);
  return fallback;
}

function resolveBoard(value: unknown, errors: string[]): BoardSpec {
  if (value === undefined) return DEFAULT_BOARD;
  if (typeof value === 'string') {
    if (value in BOARD_PRESETS) return BOARD_PRESETS[value as BoardPreset];
    errors.push(`config.board: unknown preset ${JSON.stringify(value)} (presets: ${Object.keys(BOARD_PRESETS).join(', ')})`);
    return DEFAULT_BOARD;
  }
  const parsed = parseBoardSpec(value);
  if (parsed.ok) return parsed.board;
  for (const e of parsed.errors) errors.push(`config.board${e.slice(1)}`);
  return DEFAULT_BOARD;
}

function resolveColours(players: readonly string[], value: unknown, errors: string[]): Record<string, Colour> {
  const colours: Record<string, Colour> = {};
  if (value === undefined) {
    players.forEach((p, i) => {
      colours[p] = COLOURS[i] ?? 'RED';
    });
    return colours;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    errors.push('config.colours: must map each player id to RED, GREEN, BLUE or YELLOW');
    return colours;
  }
  const raw = value as Record<string, unknown>;
  const used = new Set<Colour>();
  for (const p of players) {
    const c = raw[p];
    if (!isColour(c)) errors.push(`config.colours.${p}: must be RED, GREEN, BLUE or YELLOW; got ${JSON.stringify(c)}`);
    else if (used.has(c)) errors.push(`config.colours.${p}: ${c} is taken by another player`);
    else {
      used.add(c);
      colours[p] = c;
    }
  }
  for (const key of Object.keys(raw)) if (!players.includes(key)) errors.push(`config.colours.${key}: not a player`);
  return colours;
}

/** Validates an untrusted configuration and fills in the defaults (B.10). */
export function resolveConfig(input: unknown): Checked<{ config: ZappConfig }> {
  const errors: string[] = [];
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { ok: false, errors: ['config: must be an object'] };
  const raw = input as Record<string, unknown>;
  const players = raw.players;
  let ids: string[] = [];
  if (!Array.isArray(players) || players.length < 2 || players.length > 4) {
    errors.push('config.players: must list 2 to 4 player ids');
  } else if (!players.every((p): p is string => typeof p === 'string' && p.length > 0 && !p.includes('.'))) {
    errors.push('config.players: every id must be a non-empty string without dots');
  } else if (new Set(players).size !== players.length) {
    errors.push('config.players: ids must be unique');
  } else ids = players;
  const timeout = raw.selectTimeoutMs ?? null;
  if (timeout !== null && !(typeof timeout === 'number' && Number.isInteger(timeout) && timeout > 0)) {
    errors.push('config.selectTimeoutMs: must be a positive integer or null');
  }
  const cap = raw.maxCarryCombinations ?? DEFAULTS.maxCarryCombinations;
  if (!(typeof cap === 'number' && Number.isInteger(cap) && cap >= 2)) errors.push('config.maxCarryCombinations: must be an integer ≥ 2');
  const config: ZappConfig = {
    players: ids,
    colours: resolveColours(ids, raw.colours, errors),
    variant: oneOf(raw.variant, ['BASIC', 'PRO'] as const, DEFAULTS.variant, 'variant', errors),
    board: resolveBoard(raw.board, errors),
    maxBarrelsInHand: oneOf(raw.maxBarrelsInHand, [1, 2] as const, DEFAULTS.maxBarrelsInHand, 'maxBarrelsInHand', errors),
    moveMandatory: oneOf(raw.moveMandatory, [true, false], DEFAULTS.moveMandatory, 'moveMandatory', errors),
    banishMode: oneOf(raw.banishMode, ['AUTO', 'CLAIM'] as const, DEFAULTS.banishMode, 'banishMode', errors),
    startImmunityReading: oneOf(raw.startImmunityReading,
      ['PIECES_ON_START', 'LAUNCHING_PIECE_CANNOT_BANISH', 'JUST_ENTERED_PIECE_SAFE'] as const, DEFAULTS.startImmunityReading,
      'startImmunityReading', errors),
    ownCarriedIntoCityDefault: oneOf(raw.ownCarriedIntoCityDefault, [true, false], DEFAULTS.ownCarriedIntoCityDefault,
      'ownCarriedIntoCityDefault', errors),
    rollerPolicy: oneOf(raw.rollerPolicy, ['ROTATE', 'ANY'] as const, DEFAULTS.rollerPolicy, 'rollerPolicy', errors),
    selectTimeoutMs: typeof timeout === 'number' ? timeout : null,
    maxCarryCombinations: typeof cap === 'number' ? cap : DEFAULTS.maxCarryCombinations,
  };
  const known = new Set(['players', 'colours', 'variant', 'board', 'maxBarrelsInHand', 'moveMandatory', 'banishMode',
    'startImmunityReading', 'ownCarriedIntoCityDefault', 'rollerPolicy', 'selectTimeoutMs', 'maxCarryCombinations']);
  for (const key of Object.keys(raw)) if (!known.has(key)) errors.push(`config.${key}: unknown option`);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, config };
}

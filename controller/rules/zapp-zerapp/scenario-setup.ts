/**
 * `fromScenario(setup)`: a state from a compact, possibly mid-game description (format in
 * docs/rules-engine.md (Zapp Zerapp), "Scenario setup"). Every inconsistency is reported at once as BAD_SETUP.
 */
import { applied } from '../common/outcome.ts';
import type { Loc } from './board.ts';
import { resolveConfig } from './config.ts';
import { fail, type ZappOutcome } from './rejections.ts';
import { isSuccess } from './reveal.ts';
import { initialState } from './setup.ts';
import { piecesInCity, rollerOfRound, type BarrelLoc, type ClaimWindow, type Phase, type ZappState } from './state.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isBarrel = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 13;
const isDie = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 6;

function parseLoc(v: unknown, n: number): Loc | undefined {
  if (v === 'S' || v === 'START') return 'START';
  if (v === 'C' || v === 'CITY') return 'CITY';
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < n ? v : undefined;
}

function parseDice(raw: Obj, errors: string[]): { dice: ZappState['dice']; magic: number | null } {
  let dice: ZappState['dice'] = null;
  if (raw.dice !== undefined) {
    const d = raw.dice;
    if (Array.isArray(d) && d.length === 2 && isDie(d[0]) && isDie(d[1])) dice = { d1: d[0], d2: d[1] };
    else errors.push('dice: must be [d1, d2] with values 1..6');
  }
  let magic = dice ? dice.d1 + dice.d2 : null;
  if (raw.magic !== undefined) {
    const m = raw.magic;
    if (typeof m !== 'number' || !Number.isInteger(m) || m < 2 || m > 12) errors.push('magic: must be an integer 2..12');
    else if (magic !== null && magic !== m) errors.push(`magic: ${m} does not match the dice (${magic})`);
    else {
      magic = m;
      // Only the sum matters to the rules; show plausible dice.
      dice ??= { d1: Math.min(6, m - 1), d2: m - Math.min(6, m - 1) };
    }
  }
  return { dice, magic };
}

function parseBarrels(raw: Obj, ids: readonly string[], max: number, errors: string[]): Record<string, BarrelLoc> {
  const barrels: Record<string, BarrelLoc> = {};
  for (let v = 1; v <= 13; v++) barrels[v] = { at: 'MOUNTAIN' };
  const claim = (v: unknown, loc: BarrelLoc, path: string): void => {
    if (!isBarrel(v)) errors.push(`${path}: must be a barrel 1..13`);
    else if (barrels[v]?.at !== 'MOUNTAIN') errors.push(`${path}: barrel ${v} is used twice`);
    else barrels[v] = loc;
  };
  if (raw.barrels !== undefined && !isObj(raw.barrels)) errors.push('barrels: must map player → placed barrel');
  for (const [p, v] of Object.entries(isObj(raw.barrels) ? raw.barrels : {})) {
    if (!ids.includes(p)) errors.push(`barrels.${p}: not a player`);
    else claim(v, { at: 'PLACED', player: p }, `barrels.${p}`);
  }
  if (raw.held !== undefined && !isObj(raw.held)) errors.push('held: must map player → list of held barrels');
  for (const [p, list] of Object.entries(isObj(raw.held) ? raw.held : {})) {
    if (!ids.includes(p)) errors.push(`held.${p}: not a player`);
    else if (!Array.isArray(list) || list.length > max) errors.push(`held.${p}: must be a list of at most ${max} barrels`);
    else {
      list.forEach((v, i) => {
        claim(v, { at: 'HELD', player: p }, `held.${p}[${i}]`);
      });
    }
  }
  return barrels;
}

function parsePieces(raw: Obj, base: ZappState, errors: string[]): Record<string, Loc> {
  const n = base.config.board.trackLength;
  const pieces: Record<string, Loc> = { ...base.pieces };
  if (raw.pieces !== undefined && !isObj(raw.pieces)) errors.push('pieces: must map piece id → field, "S" or "C"');
  for (const [id, v] of Object.entries(isObj(raw.pieces) ? raw.pieces : {})) {
    const loc = parseLoc(v, n);
    if (!(id in base.pieces)) errors.push(`pieces.${id}: no such piece in this game (pieces: ${Object.keys(base.pieces).join(', ')})`);
    else if (loc === undefined) errors.push(`pieces.${id}: must be a field 0..${n - 1}, "S" or "C"`);
    else pieces[id] = loc;
  }
  for (const p of base.players) if (piecesInCity({ ...base, pieces }, p.colour) === 3) errors.push(`pieces: ${p.id} already has 3 pieces in the city`);
  return pieces;
}

function placedOf(barrels: Readonly<Record<string, BarrelLoc>>, player: string): number | null {
  for (let v = 1; v <= 13; v++) {
    const loc = barrels[v];
    if (loc?.at === 'PLACED' && loc.player === player) return v;
  }
  return null;
}

/** Which barrels may be where in each phase (ZAPP-24, ZAPP-26). */
function checkBarrelsForPhase(phase: Phase, barrels: Readonly<Record<string, BarrelLoc>>, errors: string[]): void {
  const locs = Object.values(barrels);
  if (phase === 'ROLL' && locs.some((b) => b.at !== 'MOUNTAIN')) errors.push('phase ROLL: no barrels may be held or placed');
  if (phase === 'MOVE' && locs.some((b) => b.at === 'HELD')) errors.push('phase MOVE: nobody holds barrels after the reveal');
  if (phase !== 'SELECT') return;
  for (const b of locs) {
    if (b.at === 'HELD' && placedOf(barrels, b.player) !== null) errors.push(`held.${b.player}: a player who has placed holds nothing (ZAPP-24)`);
  }
}

/** Phase MOVE: the reveal as it happened, the queue, and the barrels of failed or finished movers back home. */
function revealFromSetup(raw: Obj, state: ZappState, magic: number, errors: string[]): ZappState {
  const results = state.config.players.map((p) => {
    const barrel = placedOf(state.barrels, p);
    return { player: p, barrel, success: isSuccess(barrel, magic) };
  });
  const moveOrder = results.filter((x) => x.success).sort((a, b) => (b.barrel ?? 0) - (a.barrel ?? 0)).map((x) => x.player);
  let queue = moveOrder;
  const q = raw.moveQueue;
  if (q !== undefined) {
    const ok = Array.isArray(q) && q.length > 0 && q.every((p, i) => typeof p === 'string'
      && moveOrder.includes(p) && (i === 0 || moveOrder.indexOf(p) > moveOrder.indexOf(q[i - 1] as string)));
    if (ok) queue = q as string[];
    else errors.push(`moveQueue: must be a non-empty ordered sub-list of the successful players ${JSON.stringify(moveOrder)}`);
  }
  if (queue.length === 0) errors.push('phase MOVE: nobody succeeded, so nobody can move');
  // Failed barrels and those of players who already moved are back on the mountain (ZAPP-28, ZAPP-32).
  const barrels: Record<string, BarrelLoc> = { ...state.barrels };
  for (let v = 1; v <= 13; v++) {
    const loc = barrels[v];
    if (loc?.at === 'PLACED' && !queue.includes(loc.player)) barrels[v] = { at: 'MOUNTAIN' };
  }
  return { ...state, barrels, reveal: { magic, results, moveOrder }, moveQueue: queue };
}

function parseClaim(raw: Obj, state: ZappState, errors: string[]): ClaimWindow | null {
  const c = raw.claim;
  if (c === undefined) return null;
  if (state.config.banishMode !== 'CLAIM') {
    errors.push('claim: only with banishMode CLAIM');
    return null;
  }
  if (!isObj(c) || typeof c.player !== 'string' || !state.config.players.includes(c.player) || !Array.isArray(c.pieces)
    || !c.pieces.every((p): p is string => typeof p === 'string' && typeof state.pieces[p] === 'number')) {
    errors.push('claim: must be {player, pieces} with pieces on the track');
    return null;
  }
  return { player: c.player, pieces: c.pieces };
}

const SETUP_KEYS = new Set(['players', 'colours', 'variant', 'config', 'seed', 'phase', 'round', 'roller', 'dice', 'magic', 'barrels',
  'held', 'revealed', 'moveQueue', 'pieces', 'claim']);

/** Builds a state from a scenario `setup`. */
export function fromScenario(setup: unknown): ZappOutcome {
  if (!isObj(setup)) return fail('BAD_SETUP', 'setup must be an object');
  const cfgRaw = setup.config ?? {};
  if (!isObj(cfgRaw)) return fail('BAD_SETUP', 'setup.config must be an object');
  const cfgIn: Obj = { ...cfgRaw, players: setup.players };
  if (setup.colours !== undefined) cfgIn.colours = setup.colours;
  if (setup.variant !== undefined) cfgIn.variant = setup.variant;
  const resolved = resolveConfig(cfgIn);
  if (!resolved.ok) return fail('BAD_SETUP', resolved.errors.join('; '));
  const { config } = resolved;
  const seed = setup.seed ?? 1;
  if (typeof seed !== 'number' && typeof seed !== 'string') return fail('BAD_SETUP', 'seed must be a number or a string');
  const base = initialState(config, seed);
  const errors: string[] = [];
  for (const key of Object.keys(setup)) if (!SETUP_KEYS.has(key)) errors.push(`${key}: unknown setup key`);

  const pieces = parsePieces(setup, base, errors);
  const rawPhase = setup.phase ?? 'ROLL';
  const phase: Phase = rawPhase === 'SELECT' || rawPhase === 'MOVE' ? rawPhase : 'ROLL';
  if (rawPhase !== phase) errors.push('phase: must be ROLL, SELECT or MOVE');
  const round = setup.round ?? 1;
  const r = typeof round === 'number' && Number.isInteger(round) && round >= 1 ? round : 1;
  if (round !== r) errors.push('round: must be a positive integer');
  const roller = setup.roller ?? rollerOfRound(base.players, r);
  if (typeof roller !== 'string' || !config.players.includes(roller)) errors.push('roller: must be a player');
  const { dice, magic } = parseDice(setup, errors);
  if (phase !== 'ROLL' && magic === null) errors.push('phase SELECT and MOVE need dice or magic');
  if (phase === 'MOVE' && setup.revealed === false) errors.push('phase MOVE comes after the reveal; revealed must be true');
  const barrels = parseBarrels(setup, config.players, config.maxBarrelsInHand, errors);
  checkBarrelsForPhase(phase, barrels, errors);

  let state: ZappState = { ...base, pieces, barrels, phase, round: r, roundsCompleted: r - 1,
    roller: typeof roller === 'string' ? roller : base.roller, dice, magic };
  if (phase === 'MOVE' && magic !== null) state = revealFromSetup(setup, state, magic, errors);
  state = { ...state, claim: parseClaim(setup, state, errors) };
  if (errors.length > 0) return fail('BAD_SETUP', errors.join('; '));
  return applied(state, []);
}

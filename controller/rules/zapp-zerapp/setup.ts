/**
 * A new game (B.4): every barrel on the mountain (ZAPP-3), every piece of every colour in play on its START
 * (ZAPP-4), round 1, the first seat to roll.
 */
import { applied } from '../common/outcome.ts';
import { seedRng } from '../../kernel/random.ts';
import { COLOURS } from './board-spec.ts';
import type { Loc } from './board.ts';
import { resolveConfig, type ZappConfig } from './config.ts';
import { fail, type ZappOutcome } from './rejections.ts';
import { pieceIdsOf, rollerOfRound, type BarrelLoc, type PlayerState, type ZappState } from './state.ts';

/**
 * The initial state for a resolved configuration. Barrels need no shuffle (ZAPP-3): they look alike, and
 * which one a player takes is the player's action.
 */
export function initialState(config: ZappConfig, seed: number | string): ZappState {
  const players: PlayerState[] = config.players.map((id, seat) => ({ id, seat, colour: config.colours[id] ?? 'RED' }));
  const pieces: Record<string, Loc> = {};
  // Canonical colour order, so that pieces on one field are always listed (and judged) in the same order.
  for (const c of COLOURS) if (players.some((p) => p.colour === c)) for (const id of pieceIdsOf(c)) pieces[id] = 'START';
  const barrels: Record<string, BarrelLoc> = {};
  for (let v = 1; v <= 13; v++) barrels[v] = { at: 'MOUNTAIN' };
  return {
    game: 'zapp-zerapp',
    config,
    players,
    pieces,
    barrels,
    rng: seedRng(seed),
    phase: 'ROLL',
    round: 1,
    roundsCompleted: 0,
    roller: rollerOfRound(players, 1),
    dice: null,
    magic: null,
    selectStartedAt: null,
    reveal: null,
    moveQueue: [],
    claim: null,
    violations: [],
    winner: null,
  };
}

/** `setup(config, seed)`: validates the configuration (every error at once) and starts a game. */
export function setupGame(config: unknown, seed: number | string): ZappOutcome {
  const resolved = resolveConfig(config);
  if (!resolved.ok) return fail('BAD_CONFIG', resolved.errors.join('; '));
  const state = initialState(resolved.config, seed);
  return applied(state, [{
    type: 'GAME_STARTED',
    players: state.players.map((p) => ({ id: p.id, colour: p.colour })),
    variant: state.config.variant,
    board: state.config.board.id,
  }]);
}

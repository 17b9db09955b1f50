/**
 * `view(state, viewer)` (design principle 2). The public view is what may be published: barrels are
 * identical from the outside, so before the reveal it shows only whether a player has placed and how many
 * barrels are on the mountain or in hands, never a number. A player view adds that player's own barrels;
 * the omniscient view (tests, scenarios, sealed logs) adds every barrel and the configuration.
 */
import type { Viewer } from '../common/viewer.ts';
import type { Colour, Provenance } from './board-spec.ts';
import type { Variant } from './board.ts';
import type { ZappConfig } from './config.ts';
import { describeMoves, type MoveOption } from './move-options.ts';
import { placedBarrel } from './round.ts';
import {
  currentMover, piecesInCity, type BarrelLoc, type ClaimWindow, type RevealState, type Violation, type ZappState,
} from './state.ts';

/** Barrel numbers a viewer may know before the reveal. */
export interface SecretBarrels {
  /** Player → values of the barrels in their hands. */
  readonly held: Readonly<Record<string, readonly number[]>>;
  /** Player → value of their placed barrel. */
  readonly placed: Readonly<Record<string, number>>;
}

/**
 * What a viewer sees. `secret`, `barrels` and `config` are absent from the public view. The round's fields
 * (`game`, `pieces`, `phase`, `round`, `roundsCompleted`, `roller` under ROTATE, `dice`, `magic`) are the state's.
 */
export interface ZappView
  extends Pick<ZappState, 'game' | 'pieces' | 'phase' | 'round' | 'roundsCompleted' | 'roller' | 'dice' | 'magic'> {
  readonly viewer: Viewer['role'];
  readonly variant: Variant;
  readonly board: { readonly id: string; readonly provenance: Provenance; readonly trackLength: number };
  readonly players: readonly { readonly id: string; readonly colour: Colour; readonly seat: number; readonly inCity: number }[];
  /** Barrels on the mountain (a count: barrels look alike). */
  readonly mountainCount: number;
  /** Player → whether they have placed a barrel. Never the value. */
  readonly placed: Readonly<Record<string, boolean>>;
  /** Player → how many barrels they hold. */
  readonly holding: Readonly<Record<string, number>>;
  /** After the reveal: every barrel, the successes and the move order. */
  readonly reveal: RevealState | null;
  readonly currentMover: string | null;
  /** The current mover's barrel (revealed). */
  readonly currentBarrel: number | null;
  readonly moveQueue: readonly string[];
  /** The current mover's legal moves with their consequences. */
  readonly moves: readonly MoveOption[];
  readonly claim: ClaimWindow | null;
  readonly violations: readonly Violation[];
  readonly winner: string | null;
  /** Player view: that player's barrels; omniscient: everybody's. */
  readonly secret?: SecretBarrels;
  /** Omniscient only: every barrel's location, keyed "1".."13". */
  readonly barrels?: Readonly<Record<string, BarrelLoc>>;
  /** Omniscient only: the configuration without the board. */
  readonly config?: Omit<ZappConfig, 'board'>;
}

function secrets(state: ZappState, only: string | null): SecretBarrels {
  const held: Record<string, number[]> = {};
  const placed: Record<string, number> = {};
  for (const p of state.players) if (only === null || p.id === only) held[p.id] = [];
  for (let v = 1; v <= 13; v++) {
    const loc = state.barrels[v];
    if (!loc || loc.at === 'MOUNTAIN' || (only !== null && loc.player !== only)) continue;
    if (loc.at === 'HELD') held[loc.player]?.push(v);
    else placed[loc.player] = v;
  }
  return { held, placed };
}

/** Builds what `viewer` may see. Pure; plain JSON. */
export function view(state: ZappState, viewer: Viewer): ZappView {
  const placed: Record<string, boolean> = {};
  const holding: Record<string, number> = {};
  for (const p of state.players) {
    placed[p.id] = false;
    holding[p.id] = 0;
  }
  let mountainCount = 0;
  for (let v = 1; v <= 13; v++) {
    const loc = state.barrels[v];
    if (!loc || loc.at === 'MOUNTAIN') mountainCount++;
    else if (loc.at === 'HELD') holding[loc.player] = (holding[loc.player] ?? 0) + 1;
    else placed[loc.player] = true;
  }
  const mover = currentMover(state);
  const { board } = state.config;
  const base: ZappView = {
    game: 'zapp-zerapp',
    viewer: viewer.role,
    variant: state.config.variant,
    board: { id: board.id, provenance: board.provenance, trackLength: board.trackLength },
    players: state.players.map((p) => ({ id: p.id, colour: p.colour, seat: p.seat, inCity: piecesInCity(state, p.colour) })),
    pieces: state.pieces,
    phase: state.phase,
    round: state.round,
    roundsCompleted: state.roundsCompleted,
    roller: state.roller,
    dice: state.dice,
    magic: state.magic,
    mountainCount,
    placed,
    holding,
    reveal: state.reveal,
    currentMover: mover,
    // Only a revealed, successful barrel can belong to the current mover, so this never leaks a secret.
    currentBarrel: mover === null ? null : placedBarrel(state, mover),
    moveQueue: state.moveQueue,
    moves: mover === null ? [] : describeMoves(state, mover),
    claim: state.claim,
    violations: state.violations,
    winner: state.winner,
  };
  switch (viewer.role) {
    case 'public':
      return base;
    case 'player':
      return { ...base, secret: secrets(state, viewer.player) };
    case 'omniscient': {
      const { board: _board, ...config } = state.config;
      return { ...base, secret: secrets(state, null), barrels: state.barrels, config };
    }
  }
}

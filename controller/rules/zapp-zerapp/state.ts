/**
 * The game state (rules-spec B.3). Plain JSON: no Maps, Sets or classes, so it can be logged, diffed and
 * restored. Every update builds a new object and shares the untouched parts with the old one.
 */
import type { Rng } from '../../kernel/random.ts';
import type { Colour } from './board-spec.ts';
import type { Loc } from './board.ts';
import type { ZappConfig } from './config.ts';

/** Barrel values 1..13 (ZAPP-1). */
export const BARREL_VALUES: readonly number[] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];

/** Where a barrel is: on the mountain, in a player's hands, or placed (committed) in front of a player. */
export type BarrelLoc =
  | { readonly at: 'MOUNTAIN' }
  | { readonly at: 'HELD'; readonly player: string }
  | { readonly at: 'PLACED'; readonly player: string };

/** ROLL → SELECT → (reveal) → MOVE → ROLL …; DONE once someone has won (ZAPP-80). */
export type Phase = 'ROLL' | 'SELECT' | 'MOVE' | 'DONE';

/** A seat at the table. */
export interface PlayerState {
  readonly id: string;
  readonly colour: Colour;
  /** 0-based seat index (the order of `config.players`). */
  readonly seat: number;
}

/** One player's result at the reveal (ZAPP-28). `barrel` is null when a select timeout left them without one. */
export interface RevealEntry {
  readonly player: string;
  readonly barrel: number | null;
  readonly success: boolean;
}

/** The result of the reveal: every player's barrel and the move order (ZAPP-30). */
export interface RevealState {
  readonly magic: number;
  readonly results: readonly RevealEntry[];
  /** Successful players in descending barrel order. */
  readonly moveOrder: readonly string[];
}

/** banishMode CLAIM (ZAPP-57): pieces the last mover may still claim, until the next mover acts or the next roll. */
export interface ClaimWindow {
  readonly player: string;
  readonly pieces: readonly string[];
}

/** Conduct violations a referee or the sensors observed (ZAPP-Q-11). They are recorded, not punished. */
export type ViolationKind =
  | 'PEEKING' | 'TOO_MANY_BARRELS_HELD' | 'SNATCHING' | 'TWO_BARRELS_PLACED' | 'LIFTED_AFTER_COMMIT' | 'HOARDING' | 'OTHER';

/** All violation kinds, with the rule each breaks. */
export const VIOLATION_KINDS: Readonly<Record<ViolationKind, string>> = {
  PEEKING: 'looked at a barrel underside before the reveal (ZAPP-21)',
  TOO_MANY_BARRELS_HELD: 'held more barrels than allowed (ZAPP-22)',
  SNATCHING: 'snatched a barrel from the hands of another player (ZAPP-23)',
  TWO_BARRELS_PLACED: 'stood more than one barrel in front of themselves (ZAPP-24)',
  LIFTED_AFTER_COMMIT: 'a committed barrel left its pad before the reveal (ZAPP-24, ZAPP-25)',
  HOARDING: 'kept unchosen barrels out of reach (ZAPP-26)',
  OTHER: 'anything else a referee noted',
};

/** A recorded violation. */
export interface Violation {
  readonly round: number;
  readonly player: string;
  readonly kind: ViolationKind;
  readonly detail: string | null;
  readonly at: number | null;
}

/** The whole game. */
export interface ZappState {
  readonly game: 'zapp-zerapp';
  readonly config: ZappConfig;
  readonly players: readonly PlayerState[];
  /** Piece id (`RED1`..`YELLOW3`, only for colours in play, ZAPP-4) → location. */
  readonly pieces: Readonly<Record<string, Loc>>;
  /** Barrel value as a string key `"1"`..`"13"` → location. */
  readonly barrels: Readonly<Record<string, BarrelLoc>>;
  /** The seeded generator for `roll` (design principle 1). */
  readonly rng: Rng;
  readonly phase: Phase;
  /** Current round, 1-based. */
  readonly round: number;
  /** Rounds completed. */
  readonly roundsCompleted: number;
  /** Who rolls this round under ROTATE (ZAPP-11): seat (round − 1) mod players. */
  readonly roller: string;
  /** Dice as last rolled; they stay showing until the next roll (ZAPP-10). */
  readonly dice: { readonly d1: number; readonly d2: number } | null;
  /** d1 + d2 of this round, null before the first roll. */
  readonly magic: number | null;
  /** `at` of the roll that opened SELECT, for `selectTimeoutMs`. */
  readonly selectStartedAt: number | null;
  /** This round's reveal, null before it. */
  readonly reveal: RevealState | null;
  /** Players still to move this round; the first is the current mover. */
  readonly moveQueue: readonly string[];
  readonly claim: ClaimWindow | null;
  readonly violations: readonly Violation[];
  readonly winner: string | null;
}

/** Piece ids of one colour: `RED1`, `RED2`, `RED3`. */
export function pieceIdsOf(colour: Colour): readonly [string, string, string] {
  return [`${colour}1`, `${colour}2`, `${colour}3`];
}

/** The colour of a piece id (`GREEN2` → GREEN). Assumes a valid id. */
export function pieceColour(id: string): Colour {
  return id.slice(0, -1) as Colour;
}

/** The player with this id, if any. */
export function findPlayer(state: ZappState, id: string): PlayerState | undefined {
  return state.players.find((p) => p.id === id);
}

/** The player playing `colour`, if any (unused colours have none, ZAPP-4). */
export function playerOfColour(state: ZappState, colour: Colour): PlayerState | undefined {
  return state.players.find((p) => p.colour === colour);
}

/** The current mover in MOVE, else null. */
export function currentMover(state: ZappState): string | null {
  return state.phase === 'MOVE' ? state.moveQueue[0] ?? null : null;
}

/** Pieces of `colour` in the city (ZAPP-80 needs three). */
export function piecesInCity(state: ZappState, colour: Colour): number {
  let n = 0;
  for (const id of pieceIdsOf(colour)) if (state.pieces[id] === 'CITY') n++;
  return n;
}

/** The roller of a round under ROTATE: seats take turns (ZAPP-11). */
export function rollerOfRound(players: readonly PlayerState[], round: number): string {
  return players[(round - 1) % players.length]?.id ?? '';
}

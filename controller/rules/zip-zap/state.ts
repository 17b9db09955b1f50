/**
 * The Zip-Zap game state (A.2): plain JSON, never mutated. Each action returns a new state that shares every
 * untouched array and object with the old one, so an action costs a few small copies, not a deep clone.
 *
 * Where cards are: every one of the 56 ids is in exactly one of `hands[p]`, `pile`, `reserve`, `unseen` or
 * `outOfPlay` (checked by `checkInvariants`). `unseen` is only used when cards were dealt at the table and
 * some hands were never registered: it holds the cards that are in an unknown hand or in the reserve.
 */
import type { Rng } from '../../kernel/random.ts';
import type { SolidSuit, Suit } from './cards.ts';
import type { ZipZapConfig } from './config.ts';
import type { ZipZapEvent } from './events.ts';
import type { Outcome } from '../common/outcome.ts';

/** Why play is paused (ZIP-30..32). */
export type PauseCause = 'TEN' | 'STUCK' | 'ZAP';

/** What may happen now. */
export type Mode =
  /** TABLE dealing: waiting for `register-hand` from every player, or `skip-registration`. */
  | { readonly kind: 'DEALING' }
  /** Waiting for the start flip (`flip`) of ZIP-10, or another flip after a blocked start (ZIP-11). */
  | { readonly kind: 'START' }
  /** Anyone may follow the top card (ZIP-12). */
  | { readonly kind: 'RACE' }
  /** Only `controller` may play, one card (ZIP-33). */
  | { readonly kind: 'PAUSED'; readonly controller: string; readonly cause: PauseCause }
  /** Reserve exhausted with `OPEN_START` (ZIP-Q-2): the first number card anyone plays starts the race. */
  | { readonly kind: 'OPEN_START' }
  /**
   * The round has ended (ZIP-50). `pending` lists players whose unknown hands still need `score-hand`;
   * `points` holds the points scored so far this round.
   */
  | {
    readonly kind: 'ROUND_OVER';
    readonly winner: string;
    readonly pending: readonly string[];
    readonly points: Readonly<Record<string, number>>;
  }
  /** The last round has been scored (ZIP-53/54). */
  | { readonly kind: 'GAME_OVER' };

/** How a card reached the pile. */
export type PlayKind =
  /** Flipped from the reserve (ZIP-10/11); `by` is null. */
  | 'START_FLIP'
  /** Followed the top in RACE (ZIP-23). */
  | 'FOLLOW'
  /** The controller's one card in a pause (ZIP-33). */
  | 'RESTART'
  /** The first card after an OPEN_START (ZIP-Q-2). */
  | 'OPEN'
  /** A ZAP (ZIP-41). */
  | 'ZAP'
  /** Played before a scenario's starting point; who played it is not recorded (`by` null). */
  | 'EARLIER';

/** One card on the discard pile (A.2 PlayRecord); the last one is the top. */
export interface PlayRecord {
  readonly card: string;
  /** The player, or null for a flipped card (and for `EARLIER` cards). */
  readonly by: string | null;
  readonly kind: PlayKind;
  /** When it landed (controller ms), when known. */
  readonly at?: number;
}

/** What dated a play's landing: the pad's slap sensor (µs), the reader's poll window (ms), the ZAP button. */
export type TimedBy = 'slap' | 'tag' | 'button';

/**
 * When a card landed, as the sensors know it (Part C.3): it landed in `[atEarliest, atLatest]` (controller
 * ms), `at` being the best single estimate inside. Without the two bounds the play is taken as landing
 * exactly at `at` (a scenario, a referee's entry).
 */
export interface LandingInterval {
  readonly at?: number;
  readonly atEarliest?: number;
  readonly atLatest?: number;
  readonly timedBy?: TimedBy;
}

/**
 * The latest play that can no longer be taken back (late-plays.ts): its landing interval, and whose it was (a
 * player's own plays are ordered by their best estimates, never tied, so a player's later play is judged against
 * their own settled one by `at`).
 */
export interface SettledPlay extends LandingInterval {
  readonly by?: string;
}

/** A card landing on the pile: a number card, or a ZAP (`zap: true` or the ZAP's card id). */
export interface PlaySpec extends LandingInterval {
  readonly player: string;
  readonly card?: string;
  readonly zap?: boolean;
}

/** A play refused inside a batch (`plays`, `resolve-tie`): the card went back to the hand (ZIP-45/46). */
export interface RejectedPlay {
  readonly player: string;
  /** The card, or null for a ZAP given as `zap: true`. Hidden from the public view (it is back in a hand). */
  readonly card: string | null;
  readonly code: string;
  readonly message: string;
  readonly at?: number;
}

/**
 * Plays by different players on the same top card whose landing intervals overlap (or lie within
 * `tieWindowMs` of each other): the sensors cannot tell which landed first, so a human says (`resolve-tie`).
 */
export interface TiePending {
  /** Plays that each followed the same top card, in timestamp order. */
  readonly contenders: readonly PlaySpec[];
  /** Plays that arrived while the tie was pending; applied after it, in timestamp order. */
  readonly queued: readonly PlaySpec[];
}

/**
 * An applied timed play that may still be taken back — by a tie (ties.ts) or by a late line whose interval says
 * it landed earlier (late-plays.ts) — with the state just before it (whose own `recent` is empty).
 */
export interface UndoPoint {
  readonly before: ZipZapState;
  readonly play: PlaySpec;
  /**
   * The play was refused inside a batch (PLAY_REJECTED): it is kept so that a late line that lands before it, or
   * that it could follow (a sequence, ZIP-Q-7), has it judged again in landing order.
   */
  readonly refused?: true;
}

/** The whole game. */
export interface ZipZapState {
  readonly game: 'zip-zap';
  readonly config: ZipZapConfig;
  /** Player ids in seat order. */
  readonly players: readonly string[];
  /** Suits in play (ZIP-3), canonical order, WILD last. */
  readonly suits: readonly Suit[];
  /** Solid suits removed for the whole game (ZIP-Q-10). */
  readonly removedSuits: readonly SolidSuit[];
  readonly roundsTotal: number;
  /** The current round, 1-based. A misdeal does not advance it (ZIP-Q-2). */
  readonly round: number;
  /** Misdeals so far in the game (REDEAL). */
  readonly misdeals: number;
  readonly rng: Rng;
  /** Each player's ZAP id this round (ZIP-2; the ZAP's `zapOwner` read the other way round). */
  readonly zapOf: Readonly<Record<string, string>>;
  /** Known hand cards. Empty for a hand that is not known (`handKnown` false). */
  readonly hands: Readonly<Record<string, readonly string[]>>;
  /** Cards in each hand, known or not. */
  readonly handCounts: Readonly<Record<string, number>>;
  /** Whether the engine knows each hand (always, with ENGINE dealing). */
  readonly handKnown: Readonly<Record<string, boolean>>;
  /** The face-down reserve, next flip first. Empty while its cards are unknown (they are in `unseen`). */
  readonly reserve: readonly string[];
  /** Cards in the reserve, known or not. */
  readonly reserveCount: number;
  /** TABLE without registration: cards in unknown hands or in an unknown reserve. */
  readonly unseen: readonly string[];
  /** Removed suits and the ZAPs of absent seats (ZIP-2, ZIP-3). */
  readonly outOfPlay: readonly string[];
  /** The discard pile, bottom first; the last record is the top. */
  readonly pile: readonly PlayRecord[];
  readonly mode: Mode;
  /** ORACLE knowledge: nobody can follow the played top card. Never shown publicly before `announce-stuck`. */
  readonly stuck: boolean;
  /** Per-round scores of completed rounds (ZIP-51/55), in round order. */
  readonly roundScores: readonly Readonly<Record<string, number>>[];
  /** The winner of each completed round. */
  readonly roundWinners: readonly string[];
  /** Sum of `roundScores` per player. */
  readonly totals: Readonly<Record<string, number>>;
  /** Plays refused inside batches this round (most recent last, at most 20). */
  readonly rejected: readonly RejectedPlay[];
  /** The latest `at` seen on an applied action, or null. */
  readonly lastAt: number | null;
  readonly tie: TiePending | null;
  /**
   * The timed plays applied since the last other action, in landing order, each with the state just before it:
   * what a tie or a late line may take back. Plays that landed more than `reorderLookBackMs` before the newest
   * are dropped (the newest always stays); any other action empties it (late-plays.ts).
   */
  readonly recent: readonly UndoPoint[];
  /**
   * The latest-landing play or start flip that can no longer be taken back (dropped from `recent`), as its
   * landing interval; null when none. A later play must have landed certainly after it (late-plays.ts).
   */
  readonly settled: SettledPlay | null;
}

/** The top of the pile, if any. */
export function topOf(state: ZipZapState): PlayRecord | undefined {
  return state.pile[state.pile.length - 1];
}

/** The hand of `player` (empty if unknown). */
export function handOf(state: ZipZapState, player: string): readonly string[] {
  return state.hands[player] ?? [];
}

/** True when every hand is known, so the engine can compute who can follow (ORACLE, ZIP-Q-3). */
export function allHandsKnown(state: ZipZapState): boolean {
  for (const p of state.players) if (state.handKnown[p] !== true) return false;
  return true;
}

/** Whether `player` still holds their ZAP (ZIP-40). */
export function holdsZap(state: ZipZapState, player: string): boolean {
  const zap = state.zapOf[player];
  if (zap === undefined) return false;
  return state.handKnown[player] === true ? handOf(state, player).includes(zap) : state.unseen.includes(zap);
}

/** Sets one player's entry of a record, sharing nothing mutable. */
export function withEntry<T>(record: Readonly<Record<string, T>>, key: string, value: T): Record<string, T> {
  return { ...record, [key]: value };
}

/** What an action handler returns: the new state and its events, or a rejection (code from the catalogue). */
export type ZipOutcome = Outcome<ZipZapState, ZipZapEvent>;

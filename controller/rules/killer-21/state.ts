/**
 * The Killer-21 game state (docs/rules/killer-21.md §3): plain JSON, never mutated. Each action returns a new
 * state that shares every untouched array and object with the old one.
 *
 * Where cards are: every card id of the composition is in exactly one of `hands[p]`, `deck`, `pile` or, when
 * the cards were dealt at the table (`dealing: TABLE`), `hidden.cards` (checked by `checkInvariants`). A zero
 * that landed late or is waiting for a ruling is still in its hand.
 */
import type { Outcome } from '../common/outcome.ts';
import type { Rng } from '../../kernel/random.ts';
import type { Killer21Config } from './config.ts';
import type { Killer21Event, LossReason } from './events.ts';

/** 1 = clockwise (seat order upwards, "to the left" at the table), -1 = counter-clockwise (K21-6). */
export type Direction = 1 | -1;

/** What may happen now. */
export type Phase =
  /**
   * `dealing: TABLE`: the cards were dealt at the table; players may register their hands (lay them on their
   * pads) before `turn`, who plays first, starts (C-K.3, K21-90..92).
   */
  | 'DEALING'
  /** `turn` plays a card or says "I can't" (K21-10). */
  | 'TURN'
  /** The Killer's window is open or waiting for rulings (K21-30..37). */
  | 'KILLER'
  /** A player went out; waiting for `next-round` (K21-53). */
  | 'ROUND_OVER'
  /**
   * The game is decided but for a tie-break on the red points of hands the engine has not seen (K21-72,
   * K21-80 with `dealing: TABLE`): the tied players register their hands (K21-97).
   */
  | 'SCORING'
  /** One player (or a shared group) is left (K21-71, K21-72, K21-80). */
  | 'GAME_OVER';

/** One card on the face-up pile; the last one is the top. */
export interface PileRecord {
  readonly card: string;
  /** Who put it down; null for cards a scenario placed there ("played earlier"). */
  readonly by: string | null;
  /** A card played on a turn, or a zero put down in answer to the Killer. */
  readonly kind: 'PLAY' | 'ZERO';
  readonly at?: number;
}

/** Where one player stands in a Killer window. */
export type AnswerStatus =
  /** Has not answered yet. */
  | 'PENDING'
  /** A red 0 landed in time; it is on the pile. */
  | 'ZERO'
  /** A red 0 landed after the deadline; it is back in the hand (K21-37). */
  | 'LATE'
  /** A red 0 straddles the deadline; still in the hand until a referee rules (K21-34). */
  | 'TIE'
  /** The ZAP button: "I have no red 0" (K21-35). */
  | 'CONCEDED'
  /** The window closed before the player answered. */
  | 'MISSED';

/** One player's answer to the Killer. */
export interface Answer {
  readonly status: AnswerStatus;
  /** The zero, for ZERO, LATE and TIE. Hidden publicly unless it is on the pile. */
  readonly card?: string;
  readonly at?: number;
  readonly uncertaintyMs?: number;
}

/** The open Killer window (K21-30..37). */
export interface KillerWindow {
  /** Who played the Killer; play continues after them (K21-36). */
  readonly by: string;
  /** When the Killer landed, or null when the action carried no time (then the window is untimed). */
  readonly at: number | null;
  /** Half width of the Killer's landing interval `at ± uncertaintyMs` (ms; 0 when the play gave none). */
  readonly uncertaintyMs?: number;
  /** `at + killerWindowMs`, or null. */
  readonly deadline: number | null;
  /** Who must answer, in seat order (K21-31). */
  readonly required: readonly string[];
  readonly answers: Readonly<Record<string, Answer>>;
  /** No more zeros are accepted; the window waits only for rulings on tied zeros. */
  readonly closed: boolean;
}

/**
 * What a table-dealt game (`dealing: TABLE`, C-K.3) does not know: the cards nobody has seen since they were
 * dealt or shuffled, which are somewhere in the players' hands or the face-down deck. The engine knows only
 * how many of them each hand holds and how many the deck holds.
 */
export interface HiddenCards {
  /** The unseen cards, in canonical order (`allCards`): in no known hand, not in `deck`, not on the pile. */
  readonly cards: readonly string[];
  /** How many unseen cards each player holds besides the known ones in `hands[p]`. */
  readonly inHand: Readonly<Record<string, number>>;
  /** How many unseen cards are in the face-down deck. */
  readonly deck: number;
}

/** The tie-break that waits for hands (K21-97): who is tied, why, and what is known of their red points. */
export interface Scoring {
  readonly reason: 'ALL_OUT' | 'BLITZ';
  /** The tied players, in seat order. */
  readonly candidates: readonly string[];
  /** Red points known so far (the known part of each hand, plus registered cards). */
  readonly points: Readonly<Record<string, number>>;
  /** Unseen cards each candidate still has to register. */
  readonly pending: Readonly<Record<string, number>>;
  /** Cards registered during the tie-break (none may be claimed twice). */
  readonly registered: readonly string[];
}

/** One lost life, for the dashboard's history. */
export interface LifeLoss {
  readonly player: string;
  readonly reason: LossReason;
  readonly round: number;
}

/** The whole game. */
export interface Killer21State {
  readonly game: 'killer-21';
  readonly config: Killer21Config;
  /** Player ids in seat order (clockwise). */
  readonly players: readonly string[];
  readonly rng: Rng;
  /** The current round, 1-based. */
  readonly round: number;
  readonly dealer: string;
  /**
   * Who is on turn; null outside TURN, KILLER and DEALING (in KILLER it is the Killer's player, in DEALING the
   * player who plays first).
   */
  readonly turn: string | null;
  readonly direction: Direction;
  /** The running total, 0..21 (K21-11, K21-62). */
  readonly total: number;
  readonly phase: Phase;
  /** Lives left; 0 = out (K21-70). */
  readonly lives: Readonly<Record<string, number>>;
  readonly hands: Readonly<Record<string, readonly string[]>>;
  /** The face-down deck, top first. */
  readonly deck: readonly string[];
  /** The face-up pile, bottom first; the last record is the top. */
  readonly pile: readonly PileRecord[];
  readonly killer: KillerWindow | null;
  /** Who went out in each completed round (more than one after a Killer, K21-52). */
  readonly roundWinners: readonly (readonly string[])[];
  /** Players who are out, in the order they left. */
  readonly out: readonly string[];
  /** Set when the game is over. */
  readonly winners: readonly string[];
  /** The latest lives lost (at most `LOSS_HISTORY`), oldest first. */
  readonly losses: readonly LifeLoss[];
  /** How often the deck has been rebuilt from the pile this game (K21-60). */
  readonly reshuffles: number;
  /**
   * `dealing: TABLE`: the cards the engine has not seen. Absent or null when the engine deals (it then knows
   * every card; states saved before table dealing existed have no such field).
   */
  readonly hidden?: HiddenCards | null;
  /** The tie-break waiting for hands, in SCORING; absent or null otherwise. */
  readonly scoring?: Scoring | null;
}

/** How many lost lives the state remembers for the dashboard. */
export const LOSS_HISTORY = 20;

/** Whether `player` still has lives. */
export function isActive(state: Pick<Killer21State, 'lives'>, player: string): boolean {
  return (state.lives[player] ?? 0) > 0;
}

/** Players with lives, in seat order. */
export function activePlayers(state: Pick<Killer21State, 'players' | 'lives'>): string[] {
  return state.players.filter((p) => (state.lives[p] ?? 0) > 0);
}

/** The cards of `player`'s hand the engine knows (empty for a player who is out). */
export function handOf(state: Pick<Killer21State, 'hands'>, player: string): readonly string[] {
  return state.hands[player] ?? [];
}

/** The cards a table-dealt game has not seen; null when the engine dealt (also for states saved before). */
export function hiddenCards(state: Pick<Killer21State, 'hidden'>): HiddenCards | null {
  return state.hidden ?? null;
}

/** How many of `player`'s cards the engine has not seen (always 0 when the engine dealt). */
export function hiddenIn(state: Pick<Killer21State, 'hidden'>, player: string): number {
  return state.hidden?.inHand[player] ?? 0;
}

/** How many cards `player` holds, seen or not. */
export function handCount(state: Pick<Killer21State, 'hands' | 'hidden'>, player: string): number {
  return (state.hands[player]?.length ?? 0) + hiddenIn(state, player);
}

/** How many cards the face-down deck holds, seen or not. */
export function deckCount(state: Pick<Killer21State, 'deck' | 'hidden'>): number {
  return state.deck.length + (state.hidden?.deck ?? 0);
}

/**
 * A state under construction by one action: a fresh shallow copy that the action's own helpers may assign
 * to before returning it. Only ever made by `draft` from a state the action was given, so the input is never
 * mutated; it saves one copy of the whole state per helper on the hot path.
 */
export type Draft = { -readonly [K in keyof Killer21State]: Killer21State[K] };

/** A fresh copy of `state` to build the action's result in. */
export function draft(state: Killer21State): Draft {
  return { ...state };
}

/** `record` with `key` set to `value`, as a new object (the old one is shared by earlier states). */
export function withEntry<T>(record: Readonly<Record<string, T>>, key: string, value: T): Record<string, T> {
  const next = { ...record };
  next[key] = value;
  return next;
}

/** What an action handler returns: the new state and its events, or a rejection (code from the catalogue). */
export type K21Outcome = Outcome<Killer21State, Killer21Event>;

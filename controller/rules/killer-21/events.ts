/**
 * What happened, in order. Killer-21 events carry no hidden information, so all of them may be published
 * as they are (design principle 2): a drawn card is reported as a count, a zero that stays in a hand (late,
 * or waiting for a ruling) without its card id, and only cards that reached the face-up pile are named.
 */
import type { Hits } from './config.ts';
import type { Direction } from './state.ts';

/** Why a life was lost. */
export type LossReason =
  /** The player had no playable card (K21-40). */
  | 'BUST'
  /** The Life card (K21-26). */
  | 'LIFE_CARD'
  /** No red 0 in time for the Killer (K21-36). */
  | 'KILLER'
  /** Another player went out (K21-50). */
  | 'SHED_OUT';

/** How a Killer window ended. */
export type WindowEnd =
  /** Its deadline passed (`close-window` from the runtime's timer). */
  | 'DEADLINE'
  /** Every player who had to answer had answered or conceded. */
  | 'ALL_ANSWERED'
  /** A `close-window` without a time: a person closed it. */
  | 'REFEREE';

/** Every Killer-21 event. */
export type Killer21Event =
  /** `setup`. */
  | { readonly type: 'GAME_STARTED'; readonly players: readonly string[]; readonly lives: number; readonly variant: string }
  /** A round was dealt (K21-4, K21-53). */
  | {
    readonly type: 'ROUND_DEALT'; readonly round: number; readonly dealer: string; readonly first: string;
    readonly handCounts: Readonly<Record<string, number>>; readonly deckCount: number;
  }
  /** A card was played on the player's turn (K21-10). `total` is the running total after it. */
  | { readonly type: 'CARD_PLAYED'; readonly player: string; readonly card: string; readonly total: number; readonly at?: number }
  /** Draw 1 / Draw 2: a player took cards from the deck (K21-20, K21-21). Count only: the cards are secret. */
  | { readonly type: 'CARDS_DRAWN'; readonly player: string; readonly count: number }
  /** Fewer cards than asked were left even after a reshuffle (K21-61). */
  | { readonly type: 'DRAW_SHORT'; readonly player: string; readonly missing: number }
  /** The deck ran out: everything under the pile's top card became the new deck (K21-60). */
  | { readonly type: 'DECK_RESHUFFLED'; readonly cards: number }
  /** Skip: this player misses their turn (K21-23). */
  | { readonly type: 'TURN_SKIPPED'; readonly player: string }
  /** Reverse (K21-24). With two players the direction cannot change, and Reverse hands the turn on (K21-25). */
  | { readonly type: 'DIRECTION_CHANGED'; readonly direction: Direction }
  | { readonly type: 'DIRECTION_KEPT'; readonly reason: 'TWO_PLAYERS' }
  /** The turn moved to this player. */
  | { readonly type: 'TURN_STARTED'; readonly player: string; readonly total: number }
  /**
   * The player could not play without passing 21 (K21-40). `trusted`: a table-dealt hand the engine could not
   * check, so it took the player's word (K21-95).
   */
  | {
    readonly type: 'BUSTED'; readonly player: string; readonly total: number; readonly voluntary: boolean; readonly auto: boolean;
    readonly trusted?: true;
  }
  /** The running total went back to 0 (K21-36, K21-42). */
  | { readonly type: 'TOTAL_RESET'; readonly reason: 'BUST' | 'KILLER' }
  /** One life lost; `lives` is what the player has left (K21-44). */
  | { readonly type: 'LIFE_LOST'; readonly player: string; readonly reason: LossReason; readonly lives: number }
  /** The Killer opened its window (K21-30..32). `deadline` is null when the Killer carried no time. */
  | {
    readonly type: 'KILLER_WINDOW_OPENED'; readonly by: string; readonly at: number | null; readonly deadline: number | null;
    readonly windowMs: number; readonly hits: Hits; readonly required: readonly string[];
  }
  /** A red 0 landed in time (K21-33); the card is on the pile. */
  | { readonly type: 'ZERO_IN_TIME'; readonly player: string; readonly card: string; readonly at?: number; readonly uncertaintyMs?: number }
  /** A red 0 landed after the deadline: it does not count and goes back to the hand (K21-37). */
  | { readonly type: 'ZERO_LATE'; readonly player: string; readonly at: number; readonly uncertaintyMs: number; readonly lateByMs: number }
  /**
   * A red 0 whose landing interval straddles the deadline (`boundary` DEADLINE), or overlaps the Killer's own
   * landing so that it may have come before it (`boundary` KILLER): a referee must rule (K21-34).
   */
  | {
    readonly type: 'ZERO_TIED'; readonly player: string; readonly at: number; readonly uncertaintyMs: number; readonly deadline: number;
    readonly boundary: 'KILLER' | 'DEADLINE';
  }
  /** A referee ruled on a tied zero (K21-34). */
  | { readonly type: 'RESPONSE_RULED'; readonly player: string; readonly inTime: boolean }
  /** The ZAP button in a Killer window: "I have no red 0" (K21-35). */
  | { readonly type: 'ANSWER_CONCEDED'; readonly player: string }
  /** No more zeros are accepted; `missing` are the players who had not answered (K21-36). */
  | { readonly type: 'KILLER_WINDOW_CLOSED'; readonly reason: WindowEnd; readonly missing: readonly string[] }
  /** The window is settled: these players lose a life (K21-36). */
  | { readonly type: 'KILLER_SETTLED'; readonly withoutZero: readonly string[]; readonly withZero: readonly string[] }
  /** A player lost their last life and left; their cards went back into the deck (K21-70). */
  | { readonly type: 'PLAYER_OUT'; readonly player: string; readonly returned: number }
  /** Somebody's hand emptied: the round is theirs (K21-50, K21-52). */
  | { readonly type: 'ROUND_WON'; readonly round: number; readonly winners: readonly string[] }
  /** `dealing: TABLE`: a player's hand was read from their pad (K21-91). Count only: the cards are secret. */
  | { readonly type: 'HAND_REGISTERED'; readonly player: string; readonly count: number }
  /** `dealing: TABLE`: play starts with these hands unseen (K21-92). */
  | { readonly type: 'REGISTRATION_SKIPPED'; readonly players: readonly string[] }
  /**
   * The tie-break needs red points of hands the engine has not seen (K21-97): `pending` says how many unseen
   * cards each tied player has to register.
   */
  | {
    readonly type: 'TIE_BREAK_PENDING'; readonly reason: 'ALL_OUT' | 'BLITZ'; readonly candidates: readonly string[];
    readonly pending: Readonly<Record<string, number>>;
  }
  /** A referee ended the tie-break without the hands: the tied players share the win (K21-97). */
  | { readonly type: 'TIE_BREAK_SKIPPED'; readonly candidates: readonly string[] }
  /**
   * The game is over (K21-71, K21-72, K21-80). `points`: the tied players' red points when a tie-break on
   * hands decided it.
   */
  | {
    readonly type: 'GAME_OVER'; readonly winners: readonly string[]; readonly lives: Readonly<Record<string, number>>;
    readonly reason: GameEnd; readonly points?: Readonly<Record<string, number>>;
  };

/** Why the game ended. */
export type GameEnd =
  /** One player is left with lives (K21-71). */
  | 'LAST_PLAYER'
  /** Everyone left lost their last life in one moment (K21-72). */
  | 'ALL_OUT'
  /** Blitz: someone lost their last life (K21-80). */
  | 'BLITZ';

/** The event type names. */
export const EVENT_TYPES: readonly Killer21Event['type'][] = [
  'GAME_STARTED', 'ROUND_DEALT', 'CARD_PLAYED', 'CARDS_DRAWN', 'DRAW_SHORT', 'DECK_RESHUFFLED', 'TURN_SKIPPED',
  'DIRECTION_CHANGED', 'DIRECTION_KEPT', 'TURN_STARTED', 'BUSTED', 'TOTAL_RESET', 'LIFE_LOST', 'KILLER_WINDOW_OPENED',
  'ZERO_IN_TIME', 'ZERO_LATE', 'ZERO_TIED', 'RESPONSE_RULED', 'ANSWER_CONCEDED', 'KILLER_WINDOW_CLOSED',
  'KILLER_SETTLED', 'PLAYER_OUT', 'ROUND_WON', 'HAND_REGISTERED', 'REGISTRATION_SKIPPED', 'TIE_BREAK_PENDING',
  'TIE_BREAK_SKIPPED', 'GAME_OVER',
];

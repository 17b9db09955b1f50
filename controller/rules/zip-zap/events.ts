/**
 * What happened, in order. Most events are public; a few carry hidden information and must pass through
 * `toPublicEvent` before they leave the process (design principle 2): ORACLE stuck knowledge is dropped
 * (it must not be given away before `announce-stuck`, ZIP-Q-3, Part C.1), and the card ids of plays that went
 * back to a hand are removed. A tie's contenders keep their cards: they lie face up on the pile until the ruling.
 */
import { publicPlayRefusal } from './public-refusal.ts';
import type { PauseCause, PlayKind, TimedBy } from './state.ts';

/** A contender of a tie as events and views show it. */
export interface TieContender {
  readonly player: string;
  /** Best estimate of the landing (controller ms). */
  readonly at?: number;
  /** The landing interval (controller ms), when the sensors gave one. */
  readonly atEarliest?: number;
  readonly atLatest?: number;
  readonly timedBy?: TimedBy;
}

/** Every Zip-Zap event. */
export type ZipZapEvent =
  /** A round was dealt (ZIP-4..6). */
  | { readonly type: 'ROUND_DEALT'; readonly round: number; readonly handCounts: Readonly<Record<string, number>>; readonly reserveCount: number }
  /** A card was flipped from the reserve (ZIP-10/11). */
  | { readonly type: 'CARD_FLIPPED'; readonly card: string; readonly reflip: boolean }
  /** TABLE dealing: the flipped card blocks the start; flip another (ZIP-11). */
  | { readonly type: 'REFLIP_NEEDED'; readonly top: string }
  /** The reserve ran out during start flips; everything is dealt again, the round is not counted (ZIP-Q-2). */
  | { readonly type: 'MISDEAL'; readonly round: number }
  /** The reserve ran out; the first number card anyone plays starts the race (ZIP-Q-2 option). */
  | { readonly type: 'OPEN_START' }
  /**
   * A number card landed (ZIP-23, ZIP-33). `outOfOrder` when its `at` is older than an applied play's that could
   * not be taken back, their intervals overlapping (late-plays.ts; a play certainly before it is refused).
   */
  | {
    readonly type: 'CARD_PLAYED'; readonly player: string; readonly card: string; readonly kind: PlayKind;
    readonly at?: number; readonly outOfOrder?: boolean;
  }
  /** A ZAP landed (ZIP-41..43). */
  | { readonly type: 'ZAP_PLAYED'; readonly player: string; readonly card: string; readonly at?: number; readonly outOfOrder?: boolean }
  /** Play paused (ZIP-30..32). */
  | { readonly type: 'PAUSE_STARTED'; readonly controller: string; readonly cause: PauseCause }
  /** The race is on again (ZIP-34). */
  | { readonly type: 'RACE_RESUMED' }
  /** ORACLE: nobody can follow the top card. **Not public**; the runtime sends `announce-stuck` after the delay. */
  | { readonly type: 'STUCK_DETECTED'; readonly top: string; readonly controller: string }
  /** The stuck pause was announced (ORACLE) or declared (TIMEOUT/HUMAN) (ZIP-32). */
  | { readonly type: 'STUCK_ANNOUNCED'; readonly controller: string; readonly declaredBy?: string }
  /** Warning: stuck was declared although these players could have followed (ZIP-Q-3). **Not public.** */
  | { readonly type: 'STUCK_WARNING'; readonly couldPlay: readonly string[] }
  /**
   * A play inside a batch was refused; the card went back to the hand (ZIP-45/46). Published through the one
   * public rule (common/spectator.ts): the card is named only with a public reason about it, with `reason`.
   */
  | {
    readonly type: 'PLAY_REJECTED'; readonly player: string; readonly card: string | null; readonly code: string; readonly message: string;
    readonly reason?: string; readonly at?: number;
  }
  /**
   * Plays by different players on the same top whose landing intervals overlap (or lie within `tieWindowMs`):
   * the earlier one was taken back until a human decides. With the figures a referee needs (ties.ts): each
   * contender's best estimate, interval and what dated it; how far apart the estimates are, and how far apart
   * they would have to be for an order. The cards are public: face up on the pile, each held and valid.
   */
  | {
    readonly type: 'TIE_PENDING';
    readonly contenders: readonly (TieContender & { readonly card: string | null })[];
    readonly separationMs: number;
    readonly combinedUncertaintyMs: number;
    readonly tieWindowMs: number;
  }
  /**
   * A late line (late-plays.ts): `player`'s play, whose landing interval lies before plays already applied, was
   * put in its place. The plays in `takenBack` (applied earlier, landed later) were taken back and are applied
   * again after it, each judged on the top at its moment: the events that follow say how each came out.
   */
  | {
    readonly type: 'PLAYS_REORDERED'; readonly player: string; readonly at: number;
    readonly takenBack: readonly { readonly player: string; readonly at: number }[];
  }
  /** A play that arrived while a tie was pending; applied after `resolve-tie`. */
  | { readonly type: 'PLAY_QUEUED'; readonly player: string; readonly at?: number }
  /** A human said whose play landed first. */
  | { readonly type: 'TIE_RESOLVED'; readonly first: string }
  /** TABLE dealing: a hand was registered (cards stripped publicly). */
  | { readonly type: 'HAND_REGISTERED'; readonly player: string; readonly count: number; readonly cards: readonly string[] }
  /** TABLE dealing: these hands stay unknown; stuck detection falls back to HUMAN. */
  | { readonly type: 'REGISTRATION_SKIPPED'; readonly players: readonly string[] }
  /** Someone emptied their hand (ZIP-50). */
  | { readonly type: 'ROUND_WON'; readonly round: number; readonly winner: string }
  /** An unknown hand was scored at round end (ZIP-51). */
  | { readonly type: 'HAND_SCORED'; readonly player: string; readonly points: number }
  /** The round's scores are final (ZIP-51 / ZIP-55). */
  | { readonly type: 'ROUND_SCORED'; readonly round: number; readonly scores: Readonly<Record<string, number>> }
  /** The last round is scored (ZIP-53/54, ZIP-Q-9). */
  | { readonly type: 'GAME_OVER'; readonly winners: readonly string[]; readonly scores: Readonly<Record<string, number>> };

/** The event types that carry hidden information and never leave the process as they are. */
export const PRIVATE_EVENT_TYPES: readonly ZipZapEvent['type'][] = ['STUCK_DETECTED', 'STUCK_WARNING'];

/**
 * The public form of an event: null when the event must not be published at all, otherwise the event
 * without card ids that are (back) in a hand.
 */
export function toPublicEvent(event: ZipZapEvent): ZipZapEvent | null {
  switch (event.type) {
    case 'STUCK_DETECTED':
    case 'STUCK_WARNING':
      return null;
    case 'PLAY_REJECTED':
      // The one public rule decides (common/spectator.ts): a reason that depends on a hand is HIDDEN_REASON
      // and the card unnamed, as for a refused request; a reason that follows from the card and the face-up
      // pile (does not follow) keeps its code and names the card.
      return { ...event, ...publicPlayRefusal(event.card, event.code, event.message) };
    case 'HAND_REGISTERED':
      return { ...event, cards: [] };
    case 'ROUND_DEALT':
    case 'CARD_FLIPPED':
    case 'REFLIP_NEEDED':
    case 'MISDEAL':
    case 'OPEN_START':
    case 'CARD_PLAYED':
    case 'ZAP_PLAYED':
    case 'PAUSE_STARTED':
    case 'RACE_RESUMED':
    case 'STUCK_ANNOUNCED':
    case 'PLAY_QUEUED':
    case 'PLAYS_REORDERED':
    case 'TIE_RESOLVED':
    case 'TIE_PENDING': // the contenders' cards lie face up, each held and valid (ties.ts): a spectator sees them
    case 'REGISTRATION_SKIPPED':
    case 'ROUND_WON':
    case 'HAND_SCORED':
    case 'ROUND_SCORED':
    case 'GAME_OVER':
      return event;
  }
}

/**
 * What each viewer may see (design principle 2). The public view carries counts, never hand cards: no card
 * id that is in a hand (or back in one after a refused play) appears in it, and it never says "stuck" before
 * the pause is announced (ZIP-Q-3, Part C.1). A player's view adds their own hand; the omniscient view (tests,
 * scenarios, sealed logs) adds everything. Scenario `state` paths address the omniscient view.
 */
import type { Viewer } from '../common/viewer.ts';
import type { SolidSuit, Suit } from './cards.ts';
import type { ZipZapConfig } from './config.ts';
import { publicPlayRefusal } from './public-refusal.ts';
import { resultOf } from './scoring.ts';
import type { TieContender } from './events.ts';
import type { Mode, PlayRecord, RejectedPlay, TiePending, ZipZapState } from './state.ts';
import { contenderFigures, tieFigures, type TieFigures } from './ties.ts';

/** How many cards under the top the public view shows. */
const RECENT = 6;

/** One player as everybody sees them. */
export interface PublicPlayer {
  readonly id: string;
  readonly handCount: number;
  readonly zapUsed: boolean;
  /** Points (or wins) per completed round. */
  readonly roundScores: readonly number[];
  readonly total: number;
  readonly roundWins: number;
}

/** What may be published. */
export interface ZipZapPublicView {
  readonly game: 'zip-zap';
  readonly round: number;
  readonly roundsTotal: number;
  readonly mode: Mode;
  readonly top: PlayRecord | null;
  /** The last few cards of the pile, top last. */
  readonly recent: readonly PlayRecord[];
  readonly pileSize: number;
  readonly players: readonly PublicPlayer[];
  readonly handCounts: Readonly<Record<string, number>>;
  readonly suits: readonly Suit[];
  readonly removedSuits: readonly SolidSuit[];
  readonly reserveCount: number;
  /** Refused batch plays this round, without their cards (the card is back in the hand). */
  readonly rejected: readonly Omit<RejectedPlay, 'card'>[];
  /**
   * A pending tie: who contends with which card (public: both lie face up on the pile while the referee
   * rules), when and how precisely each landing is known, the figures (ties.ts `TieFigures`), and how many plays
   * wait behind it.
   */
  readonly tie: (TieFigures & {
    readonly contenders: readonly (TieContender & { readonly card: string | null })[];
    readonly queued: number;
  }) | null;
  readonly roundWinners: readonly string[];
  readonly totals: Readonly<Record<string, number>>;
  readonly misdeals: number;
  readonly scoringMode: ZipZapConfig['scoringMode'];
  readonly over: boolean;
  readonly winners: readonly string[];
}

/** The public view plus the viewer's own hand and refused cards. */
export interface ZipZapPlayerView extends ZipZapPublicView {
  readonly you: string;
  readonly hand: readonly string[] | null;
  readonly yourRejected: readonly RejectedPlay[];
}

/** Everything (never published). */
export interface ZipZapOmniscientView extends Omit<ZipZapPublicView, 'rejected' | 'tie'> {
  readonly hands: Readonly<Record<string, readonly string[]>>;
  readonly handKnown: Readonly<Record<string, boolean>>;
  readonly zapOf: Readonly<Record<string, string>>;
  /** Next flip first. */
  readonly reserve: readonly string[];
  readonly unseen: readonly string[];
  readonly outOfPlay: readonly string[];
  readonly pile: readonly PlayRecord[];
  readonly stuck: boolean;
  readonly rejected: readonly RejectedPlay[];
  readonly tie: TiePending | null;
  readonly roundScores: readonly Readonly<Record<string, number>>[];
  readonly lastAt: number | null;
  readonly config: ZipZapConfig;
}

/** Any Zip-Zap view. */
export type ZipZapView = ZipZapPublicView | ZipZapPlayerView | ZipZapOmniscientView;

function zapUsed(state: ZipZapState, player: string): boolean {
  return state.pile.some((r) => r.kind === 'ZAP' && r.by === player);
}

function publicView(state: ZipZapState): ZipZapPublicView {
  const result = resultOf(state);
  const pile = state.pile;
  const tie = state.tie;
  return {
    game: 'zip-zap',
    round: state.round,
    roundsTotal: state.roundsTotal,
    mode: state.mode,
    top: pile[pile.length - 1] ?? null,
    recent: pile.slice(-RECENT),
    pileSize: pile.length,
    players: state.players.map((id) => ({
      id,
      handCount: state.handCounts[id] ?? 0,
      zapUsed: zapUsed(state, id),
      roundScores: state.roundScores.map((r) => r[id] ?? 0),
      total: state.totals[id] ?? 0,
      roundWins: state.roundWinners.filter((w) => w === id).length,
    })),
    handCounts: state.handCounts,
    suits: state.suits,
    removedSuits: state.removedSuits,
    reserveCount: state.reserveCount,
    // As the PLAY_REJECTED event is published (common/spectator.ts).
    rejected: state.rejected.map(({ card, message, ...rest }) => ({ ...rest, ...publicPlayRefusal(card, rest.code, message) })),
    tie: tie === null ? null : {
      // Face up on the pile, each held and valid (see toPublicEvent's TIE_PENDING): public, like the event.
      contenders: tie.contenders.map((c) => ({ ...contenderFigures(c), card: c.card ?? null })),
      ...tieFigures(state, tie.contenders),
      queued: tie.queued.length,
    },
    roundWinners: state.roundWinners,
    totals: state.totals,
    misdeals: state.misdeals,
    scoringMode: state.config.scoringMode,
    over: result.over,
    winners: result.winners,
  };
}

/** What `viewer` may see of `state`. Pure; the result is plain JSON. */
export function viewOf(state: ZipZapState, viewer: Viewer): ZipZapView {
  const pub = publicView(state);
  switch (viewer.role) {
    case 'public':
      return pub;
    case 'player':
      return {
        ...pub,
        you: viewer.player,
        hand: state.handKnown[viewer.player] === true ? state.hands[viewer.player] ?? [] : null,
        yourRejected: state.rejected.filter((r) => r.player === viewer.player),
      };
    case 'omniscient':
      return {
        ...pub,
        hands: state.hands,
        handKnown: state.handKnown,
        zapOf: state.zapOf,
        reserve: state.reserve,
        unseen: state.unseen,
        outOfPlay: state.outOfPlay,
        pile: state.pile,
        stuck: state.stuck,
        rejected: state.rejected,
        tie: state.tie,
        roundScores: state.roundScores,
        lastAt: state.lastAt,
        config: state.config,
      };
  }
}

/**
 * What each viewer may see (design principle 2). The public view carries counts, never a card in a hand or
 * in the face-down deck: the running total, the direction, whose turn it is, lives and hand sizes per seat,
 * the face-up pile's top cards and the Killer window with its deadline and who has answered (without the
 * card of a zero that is still in a hand). A player's view adds their own hand; the omniscient view (tests,
 * scenarios, sealed logs) adds everything. Scenario `state` paths address the omniscient view.
 */
import type { Viewer } from '../common/viewer.ts';
import type { Dealing, Killer21Config, Variant } from './config.ts';
import { LIMIT } from './playable.ts';
import {
  deckCount, handCount, hiddenIn, type AnswerStatus, type Direction, type HiddenCards, type Killer21State, type KillerWindow,
  type LifeLoss, type Phase, type PileRecord, type Scoring,
} from './state.ts';
import { unregistered } from './table-deal.ts';

/** How many cards under the top the public view shows. */
const RECENT = 6;

/** One seat as everybody sees it. */
export interface PublicPlayer {
  readonly id: string;
  readonly seat: number;
  readonly lives: number;
  readonly out: boolean;
  readonly handCount: number;
  /** `dealing: TABLE`: how many of those cards the table has not seen (0 when the engine dealt). */
  readonly unseenCount: number;
  readonly dealer: boolean;
  readonly onTurn: boolean;
}

/** One answer to the Killer as everybody sees it: no card id (a late or tied zero is still in the hand). */
export interface PublicAnswer {
  readonly status: AnswerStatus;
  readonly at?: number;
  readonly uncertaintyMs?: number;
}

/** The Killer window as everybody sees it: statuses and times, no card ids. */
export interface PublicKillerWindow {
  readonly by: string;
  readonly at: number | null;
  readonly deadline: number | null;
  readonly windowMs: number;
  readonly required: readonly string[];
  readonly answers: Readonly<Record<string, PublicAnswer>>;
  readonly closed: boolean;
}

/** The tie-break waiting for hands (K21-97), without the points (they come with GAME_OVER). */
export interface PublicScoring {
  readonly reason: Scoring['reason'];
  readonly candidates: readonly string[];
  /** Unseen cards each tied player still has to register. */
  readonly pending: Readonly<Record<string, number>>;
}

/** What may be published. */
export interface Killer21PublicView {
  readonly game: 'killer-21';
  readonly variant: Variant;
  /** Who dealt: the engine, or people at the table (C-K.3). */
  readonly dealing: Dealing;
  /** DEALING: the players whose dealt hand is not registered yet, in seat order. */
  readonly registering: readonly string[];
  readonly scoring: PublicScoring | null;
  readonly phase: Phase;
  readonly round: number;
  readonly total: number;
  readonly limit: number;
  readonly direction: 'CLOCKWISE' | 'COUNTERCLOCKWISE';
  readonly turn: string | null;
  readonly dealer: string;
  readonly players: readonly PublicPlayer[];
  readonly lives: Readonly<Record<string, number>>;
  readonly handCounts: Readonly<Record<string, number>>;
  readonly deckCount: number;
  readonly pileCount: number;
  readonly top: PileRecord | null;
  /** The last few cards of the pile, top last. */
  readonly recent: readonly PileRecord[];
  readonly killer: PublicKillerWindow | null;
  readonly roundWinners: readonly (readonly string[])[];
  readonly out: readonly string[];
  readonly losses: readonly LifeLoss[];
  readonly over: boolean;
  readonly winners: readonly string[];
}

/** The public view plus the viewer's own hand. */
export interface Killer21PlayerView extends Killer21PublicView {
  readonly you: string;
  /** The cards of the hand the engine knows (with `dealing: TABLE`, `unseenCount` more may be in it). */
  readonly hand: readonly string[];
}

/** Everything (never published). */
export interface Killer21OmniscientView extends Omit<Killer21PublicView, 'killer'> {
  readonly hands: Readonly<Record<string, readonly string[]>>;
  /** Top first. */
  readonly deck: readonly string[];
  readonly pile: readonly PileRecord[];
  readonly killer: KillerWindow | null;
  readonly reshuffles: number;
  readonly config: Killer21Config;
  readonly hidden: HiddenCards | null;
  readonly scoringState: Scoring | null;
}

/** Any Killer-21 view. */
export type Killer21View = Killer21PublicView | Killer21PlayerView | Killer21OmniscientView;

function directionName(d: Direction): 'CLOCKWISE' | 'COUNTERCLOCKWISE' {
  return d === 1 ? 'CLOCKWISE' : 'COUNTERCLOCKWISE';
}

function publicWindow(w: KillerWindow | null, windowMs: number): PublicKillerWindow | null {
  if (w === null) return null;
  const answers: Record<string, PublicAnswer> = {};
  for (const [p, a] of Object.entries(w.answers)) {
    const at = a.at === undefined ? {} : { at: a.at };
    answers[p] = { status: a.status, ...at, ...(a.uncertaintyMs === undefined ? {} : { uncertaintyMs: a.uncertaintyMs }) };
  }
  return { by: w.by, at: w.at, deadline: w.deadline, windowMs, required: w.required, answers, closed: w.closed };
}

function publicScoring(s: Scoring | null | undefined): PublicScoring | null {
  return s === undefined || s === null ? null : { reason: s.reason, candidates: s.candidates, pending: s.pending };
}

function publicView(state: Killer21State): Killer21PublicView {
  const handCounts: Record<string, number> = {};
  for (const p of state.players) handCounts[p] = handCount(state, p);
  const pile = state.pile;
  return {
    game: 'killer-21',
    variant: state.config.variant,
    // A state saved before table dealing existed has no such option: the engine dealt it.
    dealing: (state.config as Partial<Killer21Config>).dealing ?? 'ENGINE',
    registering: state.phase === 'DEALING' ? unregistered(state) : [],
    scoring: publicScoring(state.scoring),
    phase: state.phase,
    round: state.round,
    total: state.total,
    limit: LIMIT,
    direction: directionName(state.direction),
    turn: state.turn,
    dealer: state.dealer,
    players: state.players.map((id, seat) => ({
      id, seat, lives: state.lives[id] ?? 0, out: (state.lives[id] ?? 0) <= 0, handCount: handCounts[id] ?? 0,
      unseenCount: hiddenIn(state, id), dealer: id === state.dealer, onTurn: id === state.turn,
    })),
    lives: state.lives,
    handCounts,
    deckCount: deckCount(state),
    pileCount: pile.length,
    top: pile[pile.length - 1] ?? null,
    recent: pile.slice(-RECENT),
    killer: publicWindow(state.killer, state.config.killerWindowMs),
    roundWinners: state.roundWinners,
    out: state.out,
    losses: state.losses,
    over: state.phase === 'GAME_OVER',
    winners: state.winners,
  };
}

/** What `viewer` may see of `state`. Pure; the result is plain JSON. */
export function viewOf(state: Killer21State, viewer: Viewer): Killer21View {
  const pub = publicView(state);
  switch (viewer.role) {
    case 'public':
      return pub;
    case 'player':
      return { ...pub, you: viewer.player, hand: state.hands[viewer.player] ?? [] };
    case 'omniscient':
      return {
        ...pub,
        hands: state.hands,
        deck: state.deck,
        pile: state.pile,
        killer: state.killer,
        reshuffles: state.reshuffles,
        config: state.config,
        hidden: state.hidden ?? null,
        scoringState: state.scoring ?? null,
      };
  }
}

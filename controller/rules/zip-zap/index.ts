/**
 * The Zip-Zap rules engine (rules spec Part A). Pure functions over plain JSON; see
 * docs/rules-engine.md (Zip-Zap) for the action vocabulary, the rejection codes, the events and the views.
 */
export { zipZapEngine } from './engine.ts';
export { ZIP_REJECTIONS, type ZipRejectionCode, type ZipRejection } from './rejections.ts';
export { checkInvariants } from './invariants.ts';
export { toPublicEvent, PRIVATE_EVENT_TYPES, type ZipZapEvent } from './events.ts';
export { parseAction, ACTION_TYPES } from './actions.ts';
export type {
  ZipZapAction, PlayAction, ZapAction, PlaysAction, BatchPlay, AnnounceStuckAction, DeclareStuckAction,
  ResolveTieAction, NextRoundAction, FlipAction, RegisterHandAction, SkipRegistrationAction, ScoreHandAction,
} from './actions.ts';
export { DEFAULT_CONFIG, resolveConfig } from './config.ts';
export type { ZipZapConfig, StuckDetection, ReserveExhausted, ScoringMode, TiePolicy, Dealing } from './config.ts';
export type {
  ZipZapState, Mode, PauseCause, PlayKind, PlayRecord, PlaySpec, RejectedPlay, TiePending, UndoPoint, LandingInterval, TimedBy,
} from './state.ts';
export type { TieContender } from './events.ts';
export { tieFigures, type TieFigures } from './ties.ts';
export type { ZipZapView, ZipZapPublicView, ZipZapPlayerView, ZipZapOmniscientView, PublicPlayer } from './view.ts';
export { ALL_CARD_IDS, cardInfo, follows, type CardInfo, type Suit, type SolidSuit } from './cards.ts';

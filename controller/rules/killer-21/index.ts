/**
 * The Killer-21 rules engine ("21" with lives and the Killer card; docs/rules/killer-21.md). Pure functions over
 * plain JSON; see docs/rules-engine.md (Killer-21) for the action vocabulary, the rejection codes, the events
 * and the views.
 */
export { killer21Engine } from './engine.ts';
export { K21_REJECTIONS, type K21RejectionCode, type K21Rejection } from './rejections.ts';
export { checkInvariants } from './invariants.ts';
export { EVENT_TYPES, type Killer21Event, type LossReason, type WindowEnd, type GameEnd } from './events.ts';
export { parseAction, ACTION_TYPES } from './actions.ts';
export type {
  Killer21Action, PlayAction, CannotPlayAction, RespondAction, CloseWindowAction, RuleResponseAction, NextRoundAction,
  RegisterHandAction, SkipRegistrationAction, ActionError,
} from './actions.ts';
export { DEFAULT_CONFIG, resolveConfig } from './config.ts';
export type { Killer21Config, Hits, AfterBust, AllOutPolicy, Variant, Dealing } from './config.ts';
export type {
  Killer21State, Phase, PileRecord, KillerWindow, Answer, AnswerStatus, Direction, LifeLoss, HiddenCards, Scoring,
} from './state.ts';
export { handCount, hiddenIn, deckCount } from './state.ts';
export type {
  Killer21View, Killer21PublicView, Killer21PlayerView, Killer21OmniscientView, PublicPlayer, PublicKillerWindow, PublicScoring,
} from './view.ts';
export {
  allCards, cardInfo, redValue, redPoints, isRedZero, BLUE_KINDS, RED_VALUES, CARD_KINDS, DEFAULT_DECK,
  type CardInfo, type CardKind, type BlueKind, type DeckComposition,
} from './cards.ts';
export { LIMIT, isPlayable, hasPlayable } from './playable.ts';

/**
 * Public surface of the Zapp Zerapp rules engine (rules-spec Part B). See docs/rules-engine.md (Zapp Zerapp).
 */
export { zappZerappEngine, applyAction, gameResult } from './engine.ts';
export { ZAPP_REJECTIONS, type ZappRejectionCode, type ZappOutcome } from './rejections.ts';
export { parseBoardSpec, COLOURS, MAX_MOVE, isColour } from './board-spec.ts';
export type { BoardSpec, BoardParseResult, Colour, FieldSpec, HomeSpec, Provenance } from './board-spec.ts';
export { DEFAULT_BOARD, ALT_A_BOARD, BOARD_PRESETS, type BoardPreset } from './board-presets.ts';
export { lapLength, stepsToCity, pathFrom, isProtected, type Loc, type Variant } from './board.ts';
export { resolveConfig, type ZappConfig, type ZappSettings, type StartImmunityReading } from './config.ts';
export { describeMoves, moveActions, type MoveOption, type CarryOption } from './move-options.ts';
export { checkInvariants } from './invariants.ts';
export { legalActions } from './legal-actions.ts';
export { parseAction, ACTION_TYPES, type ZappAction } from './actions.ts';
export type { ZappEvent, ZappEventType } from './events.ts';
export type { ZappView, SecretBarrels } from './view.ts';
export { fromScenario } from './scenario-setup.ts';
export { VIOLATION_KINDS } from './state.ts';
export type { ZappState, BarrelLoc, Phase, PlayerState, RevealEntry, RevealState, ClaimWindow, Violation, ViolationKind } from './state.ts';
export { placedBarrel } from './round.ts';

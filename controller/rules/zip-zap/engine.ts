/**
 * The Zip-Zap engine: the `GameEngine` functions wired to the rule modules. `apply` is a dispatcher; the
 * rules live in the files named for them.
 */
import { applied, type Outcome } from '../common/outcome.ts';
import { setupFrom } from '../common/seated-config.ts';
import type { Viewer } from '../common/viewer.ts';
import type { GameEngine, GameResult } from '../engine.ts';
import { publicRejection } from './public-refusal.ts';
import { parseAction, type ZipZapAction } from './actions.ts';
import { settleRecent } from './late-plays.ts';
import { resolveConfig, type ZipZapConfig } from './config.ts';
import type { ZipZapEvent } from './events.ts';
import { legalActions } from './legal-actions.ts';
import { playAction, playsAction, resolveTieAction, zapAction } from './plays.ts';
import { refuse, type ZipRejectionCode } from './rejections.ts';
import { newGame, nextRound } from './rounds.ts';
import { fromScenario } from './scenario-setup.ts';
import { resultOf } from './scoring.ts';
import { flipAction } from './start-flip.ts';
import type { ZipZapState, ZipOutcome } from './state.ts';
import { announceStuck, declareStuck } from './stuck.ts';
import { registerHand, scoreHand, skipRegistration } from './table-dealing.ts';
import { viewOf, type ZipZapView } from './view.ts';

type Result = Outcome<ZipZapState, ZipZapEvent, ZipRejectionCode>;

/** Actions that land cards; they may join a pending tie and they keep the undo point of ZIP-45 ties. */
const PLAY_TYPES: ReadonlySet<string> = new Set(['play', 'zap', 'plays', 'resolve-tie']);

function dispatch(state: ZipZapState, action: ZipZapAction): ZipOutcome {
  switch (action.type) {
    case 'play':
      return playAction(state, action);
    case 'zap':
      return zapAction(state, action);
    case 'plays':
      return playsAction(state, action);
    case 'resolve-tie':
      return resolveTieAction(state, action.first);
    case 'announce-stuck':
      return announceStuck(state);
    case 'declare-stuck':
      return declareStuck(state, action.player);
    case 'next-round':
      return nextRound(state);
    case 'flip':
      return flipAction(state, action.card, action.at);
    case 'register-hand':
      return registerHand(state, action.player, action.cards);
    case 'skip-registration':
      return skipRegistration(state);
    case 'score-hand':
      return scoreHand(state, action.player, action.cards);
  }
}

/**
 * A state saved before the look-back existed (a log snapshot with the single `undo` point) starts with an empty
 * look-back: nothing applied before the upgrade can be taken back.
 */
function upgraded(state: ZipZapState): ZipZapState {
  const old = state as Partial<ZipZapState> & { readonly undo?: unknown };
  if (old.recent !== undefined && old.settled !== undefined && old.undo === undefined) return state;
  const { undo: _undo, ...rest } = old;
  return { ...(rest as ZipZapState), recent: old.recent ?? [], settled: old.settled ?? null };
}

function apply(raw: ZipZapState, action: ZipZapAction): Result {
  const state = upgraded(raw);
  if (state.mode.kind === 'GAME_OVER') return refuse('GAME_OVER', 'the game has ended');
  const isPlay = PLAY_TYPES.has(action.type);
  if (state.tie !== null && !isPlay) return refuse('TIE_PENDING', 'plays are tied: resolve-tie first');
  const outcome = dispatch(state, action);
  if (!outcome.ok) return outcome as Result;
  // Any other action ends the chance of a tie with the last play (ties.ts) or of putting a late play before it
  // (late-plays.ts); a start card flipped at a known time cannot be taken back either.
  if (!isPlay) {
    const settled = settleRecent(outcome.state, action.type === 'flip' ? action.at : undefined);
    return settled === outcome.state ? outcome : applied(settled, outcome.events);
  }
  return outcome;
}

/** The Zip-Zap rules engine (Part A of the rules spec). */
export const zipZapEngine: GameEngine<ZipZapState, ZipZapAction, ZipZapEvent, ZipZapView, ZipRejectionCode, ZipZapConfig> = {
  id: 'zip-zap',
  setup: setupFrom(resolveConfig, newGame),
  apply,
  legalActions,
  view(state: ZipZapState, viewer: Viewer): ZipZapView {
    return viewOf(state, viewer);
  },
  result(state: ZipZapState): GameResult {
    return resultOf(state);
  },
  parseAction,
  fromScenario,
  publicRejection,
};

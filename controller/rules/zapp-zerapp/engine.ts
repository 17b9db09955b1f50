/**
 * The Zapp Zerapp engine (rules-spec Part B) behind the shared `GameEngine` interface: one dispatcher over
 * small pure handlers, each in the file named for its concept.
 */
import type { GameEngine, GameResult } from '../engine.ts';
import type { Viewer } from '../common/viewer.ts';
import { publicRejection } from './public-refusal.ts';
import { parseAction, type ZappAction } from './actions.ts';
import { applyClaim } from './banishment.ts';
import { applyPickUp, applyPlace, applyPutBack } from './barrels.ts';
import type { ZappSettings } from './config.ts';
import { applyDice } from './dice.ts';
import type { ZappEvent } from './events.ts';
import { legalActions } from './legal-actions.ts';
import { applyMove, applyPass } from './move-action.ts';
import { fail, type ZappOutcome, type ZappRejectionCode } from './rejections.ts';
import { applyReveal } from './reveal.ts';
import { fromScenario } from './scenario-setup.ts';
import { setupGame } from './setup.ts';
import { piecesInCity, type ZappState } from './state.ts';
import { view, type ZappView } from './view.ts';
import { applyReportViolation } from './violations.ts';

/** `apply`: shape check, then the handler for the action type. A rejection changes nothing. */
export function applyAction(state: ZappState, action: ZappAction): ZappOutcome {
  const parsed = parseAction(action);
  if ('error' in parsed) return fail(parsed.code, parsed.error);
  // Violations may still be recorded after the end (an audit trail); everything else stops at ZAPP-80.
  if (state.phase === 'DONE' && parsed.type !== 'report-violation') return fail('GAME_OVER', `${state.winner ?? 'someone'} has won`);
  switch (parsed.type) {
    case 'roll':
    case 'enter-dice':
      return applyDice(state, parsed);
    case 'pick-up':
      return applyPickUp(state, parsed);
    case 'put-back':
      return applyPutBack(state, parsed);
    case 'place':
      return applyPlace(state, parsed);
    case 'reveal':
      return applyReveal(state, parsed);
    case 'move':
      return applyMove(state, parsed);
    case 'pass':
      return applyPass(state, parsed);
    case 'claim':
      return applyClaim(state, parsed);
    case 'report-violation':
      return applyReportViolation(state, parsed);
  }
}

/** `result`: scores are pieces in the city per player (ZAPP-80). */
export function gameResult(state: ZappState): GameResult {
  const scores: Record<string, number> = {};
  for (const p of state.players) scores[p.id] = piecesInCity(state, p.colour);
  return { over: state.phase === 'DONE', winners: state.winner === null ? [] : [state.winner], scores, rounds: state.roundsCompleted };
}

/** The Zapp Zerapp engine. */
export const zappZerappEngine: GameEngine<ZappState, ZappAction, ZappEvent, ZappView, ZappRejectionCode, ZappSettings> = {
  id: 'zapp-zerapp',
  setup: (config, seed) => setupGame(config, seed),
  apply: applyAction,
  legalActions,
  view: (state: ZappState, viewer: Viewer) => view(state, viewer),
  result: gameResult,
  parseAction,
  fromScenario,
  publicRejection,
};

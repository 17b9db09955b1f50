/**
 * The Killer-21 engine: the `GameEngine` functions wired to the rule modules. `apply` is a dispatcher; the
 * rules live in the files named for them.
 */
import { publicRejection } from './public-refusal.ts';
import { applied, type Outcome } from '../common/outcome.ts';
import { setupFrom } from '../common/seated-config.ts';
import type { Viewer } from '../common/viewer.ts';
import type { GameEngine, GameResult } from '../engine.ts';
import { parseAction, type Killer21Action } from './actions.ts';
import { autoBusts, bustAction } from './bust.ts';
import { resolveConfig, type Killer21Config } from './config.ts';
import type { Killer21Event } from './events.ts';
import { closeWindowAction, concedeAction, respondAction, ruleResponseAction } from './killer.ts';
import { legalActions } from './legal-actions.ts';
import { playAction } from './plays.ts';
import { refuse, type K21RejectionCode } from './rejections.ts';
import { resultOf } from './result.ts';
import { newGame, nextRoundAction } from './rounds.ts';
import { fromScenario } from './scenario-setup.ts';
import { registerHandAction, skipRegistrationAction } from './table-deal.ts';
import type { K21Outcome, Killer21State } from './state.ts';
import { viewOf, type Killer21View } from './view.ts';

type Result = Outcome<Killer21State, Killer21Event, K21RejectionCode>;

function dispatch(state: Killer21State, action: Killer21Action): K21Outcome {
  switch (action.type) {
    case 'play':
      return playAction(state, action);
    case 'cannot-play':
      return state.phase === 'KILLER' ? concedeAction(state, action.player) : bustAction(state, action.player);
    case 'respond':
      return respondAction(state, action);
    case 'close-window':
      return closeWindowAction(state, action);
    case 'rule-response':
      return ruleResponseAction(state, action);
    case 'next-round':
      return nextRoundAction(state);
    case 'register-hand':
      return registerHandAction(state, action.player, action.cards);
    case 'skip-registration':
      return skipRegistrationAction(state);
  }
}

function apply(state: Killer21State, action: Killer21Action): Result {
  // `apply` may be handed an action that never went through `parseAction` (a bot, a test, a replayed log): its
  // shape is checked again, as Zapp Zerapp's is, so that a negative uncertainty cannot make a late zero in time.
  const parsed = parseAction(action);
  if ('error' in parsed) return refuse(parsed.code, parsed.error);
  const outcome = dispatch(state, parsed);
  if (!outcome.ok || !state.config.autoBust) return outcome as Result;
  const events = [...outcome.events];
  return applied(autoBusts(outcome.state, events), events);
}

/** The Killer-21 rules engine (docs/rules/killer-21.md). */
export const killer21Engine: GameEngine<
  Killer21State, Killer21Action, Killer21Event, Killer21View, K21RejectionCode, Killer21Config
> = {
  id: 'killer-21',
  setup: setupFrom(resolveConfig, newGame),
  apply,
  legalActions,
  view(state: Killer21State, viewer: Viewer): Killer21View {
    return viewOf(state, viewer);
  },
  result(state: Killer21State): GameResult {
    return resultOf(state);
  },
  parseAction,
  publicRejection,
  fromScenario,
};

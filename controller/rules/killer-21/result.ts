/** Scores, winners and progress (`GameEngine.result`): the score of a player is the lives they have left. */
import type { GameResult } from '../engine.ts';
import type { Killer21State } from './state.ts';

export function resultOf(state: Killer21State): GameResult {
  return {
    over: state.phase === 'GAME_OVER',
    winners: state.winners,
    scores: state.lives,
    rounds: state.roundWinners.length,
  };
}

/**
 * The checks that come first for every action, in the documented order: the game or round is over, a Killer
 * window is (or is not) open, the player exists, the player is still in.
 */
import { refuse, type K21Rejection } from './rejections.ts';
import type { Killer21State } from './state.ts';

function phaseRejection(state: Killer21State): K21Rejection | null {
  if (state.phase === 'GAME_OVER') return refuse('GAME_OVER', 'the game has ended');
  if (state.phase === 'ROUND_OVER') return refuse('ROUND_OVER', 'the round has ended: next-round deals the next one');
  if (state.phase === 'DEALING') return refuse('REGISTERING', 'the hands dealt at the table are being registered: register them or skip');
  if (state.phase === 'SCORING') return refuse('TIE_BREAK', 'the tied players register their hands for the tie-break');
  return null;
}

function playerRejection(state: Killer21State, player: string): K21Rejection | null {
  if (!state.players.includes(player)) return refuse('NOT_A_PLAYER', `no player ${player} at this table`);
  if ((state.lives[player] ?? 0) <= 0) return refuse('PLAYER_OUT', `${player} has no lives left`);
  return null;
}

/** For a turn action (`play`, `cannot-play` outside a Killer window): K21-10. */
export function turnRejection(state: Killer21State, player: string): K21Rejection | null {
  const phase = phaseRejection(state);
  if (phase !== null) return phase;
  if (state.phase === 'KILLER') return refuse('KILLER_WINDOW_OPEN', 'the Killer window is open: answer it first');
  const who = playerRejection(state, player);
  if (who !== null) return who;
  if (state.turn !== player) return refuse('NOT_YOUR_TURN', `it is ${state.turn ?? 'nobody'}'s turn, not ${player}'s`);
  return null;
}

/** For an action that needs an open Killer window (`respond`, `close-window`, `rule-response`). */
export function windowRejection(state: Killer21State, player: string | null): K21Rejection | null {
  const phase = phaseRejection(state);
  if (phase !== null) return phase;
  if (state.phase !== 'KILLER' || state.killer === null) return refuse('NO_KILLER_WINDOW', 'no Killer has been played');
  return player === null ? null : playerRejection(state, player);
}

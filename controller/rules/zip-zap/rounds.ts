/**
 * Rounds (ZIP-52/53): the first deal of a new game and `next-round`. A round ends by itself when a hand
 * empties (ZIP-50, `scoring.ts`); the next one waits for an explicit `next-round`, so the table can show the
 * scores and gather the cards. After the last round the game ends without one.
 */
import { applied } from '../common/outcome.ts';
import type { ZipZapConfig } from './config.ts';
import type { ZipZapEvent } from './events.ts';
import { refuse } from './rejections.ts';
import { deal, initialState } from './setup.ts';
import { startFlips } from './start-flip.ts';
import type { ZipZapState, ZipOutcome } from './state.ts';

/** Deals the current round; with ENGINE dealing, also flips the start card(s) (ZIP-10/11). */
export function beginRound(state: ZipZapState, events: ZipZapEvent[]): ZipZapState {
  const dealt = deal(state, events);
  return state.config.dealing === 'ENGINE' ? startFlips(dealt, events) : dealt;
}

/** A new game, dealt and ready to play (ENGINE) or waiting for the table's deal (TABLE). */
export function newGame(config: ZipZapConfig, seed: number | string): { state: ZipZapState; events: ZipZapEvent[] } {
  const events: ZipZapEvent[] = [];
  const state = beginRound(initialState(config, seed), events);
  return { state, events };
}

/** `next-round`: gather everything and deal again (ZIP-52), once the round is over and scored. */
export function nextRound(state: ZipZapState): ZipOutcome {
  const mode = state.mode;
  if (mode.kind !== 'ROUND_OVER') return refuse('ROUND_NOT_OVER', `round ${state.round} is still being played`);
  if (mode.pending.length > 0) return refuse('SCORES_PENDING', `score these hands first: ${mode.pending.join(', ')}`);
  const events: ZipZapEvent[] = [];
  return applied(beginRound({ ...state, round: state.round + 1 }, events), events);
}

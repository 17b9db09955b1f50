/**
 * End of round and scoring (A.9): ZIP-50 round end, ZIP-51 penalty points (solid 1, wild 3, ZAP 5),
 * ZIP-55 WINS scoring, ZIP-53/54 game end and ZIP-Q-9 ties.
 */
import type { GameResult } from '../engine.ts';
import { penaltyOf } from './cards.ts';
import type { ZipZapEvent } from './events.ts';
import { handOf, type ZipZapState } from './state.ts';

/** Penalty points of the cards left in a hand (ZIP-51). */
export function handPoints(cards: readonly string[]): number {
  let sum = 0;
  for (const c of cards) sum += penaltyOf(c);
  return sum;
}

/**
 * The winners of a finished game. PENALTY: lowest total (ZIP-54); WINS: highest (ZIP-55). Ties are shared,
 * or, with TIEBREAK_ROUND_WINS_THEN_SHARED under PENALTY, broken by most rounds won (ZIP-Q-9).
 */
export function winnersOf(state: ZipZapState): string[] {
  const total = (p: string): number => state.totals[p] ?? 0;
  const wins = (p: string): number => state.roundWinners.filter((w) => w === p).length;
  const penalty = state.config.scoringMode === 'PENALTY';
  const best = penalty ? Math.min(...state.players.map(total)) : Math.max(...state.players.map(total));
  let winners = state.players.filter((p) => total(p) === best);
  if (penalty && state.config.tiePolicy === 'TIEBREAK_ROUND_WINS_THEN_SHARED' && winners.length > 1) {
    const most = Math.max(...winners.map(wins));
    winners = winners.filter((p) => wins(p) === most);
  }
  return winners;
}

/** Records the round's points in the totals and ends the game after the last round (ZIP-53). */
export function commitRound(
  state: ZipZapState, winner: string, points: Readonly<Record<string, number>>, events: ZipZapEvent[],
): ZipZapState {
  const totals: Record<string, number> = {};
  for (const p of state.players) totals[p] = (state.totals[p] ?? 0) + (points[p] ?? 0);
  const s: ZipZapState = {
    ...state,
    roundScores: [...state.roundScores, points],
    roundWinners: [...state.roundWinners, winner],
    totals,
    mode: { kind: 'ROUND_OVER', winner, pending: [], points },
  };
  events.push({ type: 'ROUND_SCORED', round: state.round, scores: points });
  if (s.roundScores.length < s.roundsTotal) return s;
  const winners = winnersOf(s);
  events.push({ type: 'GAME_OVER', winners, scores: totals });
  return { ...s, mode: { kind: 'GAME_OVER' } };
}

/**
 * ZIP-50: `winner` has just emptied their hand. Known hands are scored at once; unknown hands (TABLE
 * without registration) wait for `score-hand`. Under WINS scoring card values do not matter (ZIP-55).
 */
export function endRound(state: ZipZapState, winner: string, events: ZipZapEvent[]): ZipZapState {
  events.push({ type: 'ROUND_WON', round: state.round, winner });
  const wins = state.config.scoringMode === 'WINS';
  const points: Record<string, number> = {};
  const pending: string[] = [];
  for (const p of state.players) {
    if (wins) points[p] = p === winner ? 1 : 0;
    else if (p === winner || (state.handCounts[p] ?? 0) === 0) points[p] = 0;
    else if (state.handKnown[p] === true) points[p] = handPoints(handOf(state, p));
    else pending.push(p);
  }
  const s: ZipZapState = { ...state, stuck: false, handKnown: { ...state.handKnown, [winner]: true } };
  if (pending.length > 0) return { ...s, mode: { kind: 'ROUND_OVER', winner, pending, points } };
  return commitRound(s, winner, points, events);
}

/** The engine's `result`: totals as scores, winners once the game is over. */
export function resultOf(state: ZipZapState): GameResult {
  const over = state.mode.kind === 'GAME_OVER';
  return { over, winners: over ? winnersOf(state) : [], scores: state.totals, rounds: state.roundScores.length };
}

/**
 * How the game ends (K21-71, K21-72, K21-80), and the tie-break on the red points left in hand. When the engine
 * dealt, it knows every hand and decides at once. When the cards were dealt at the table and a tied player holds
 * cards the engine has not seen, it cannot: the game waits in SCORING for those hands (K21-97, tie-break.ts).
 */
import { redPoints } from './cards.ts';
import type { GameEnd, Killer21Event } from './events.ts';
import { handOf, hiddenIn, type Draft, type Killer21State, type Scoring } from './state.ts';

/** The game is decided, or it waits for the tied players' unseen cards. */
export type Decision =
  | { readonly kind: 'DECIDED'; readonly winners: readonly string[]; readonly reason: GameEnd }
  | { readonly kind: 'PENDING'; readonly scoring: Scoring };

/** The candidates with the lowest points. */
export function lowest(candidates: readonly string[], points: Readonly<Record<string, number>>): string[] {
  const best = Math.min(...candidates.map((p) => points[p] ?? 0));
  return candidates.filter((p) => (points[p] ?? 0) === best);
}

/** The lowest sum of red cards in hand wins among `candidates` (K21-72 `HAND_POINTS`, K21-80). */
export function breakTie(state: Killer21State, candidates: readonly string[], reason: 'ALL_OUT' | 'BLITZ'): Decision {
  const points: Record<string, number> = {};
  for (const p of candidates) points[p] = redPoints(handOf(state, p));
  const pending: Record<string, number> = {};
  for (const p of candidates) if (hiddenIn(state, p) > 0) pending[p] = hiddenIn(state, p);
  if (candidates.length <= 1 || Object.keys(pending).length === 0) {
    return { kind: 'DECIDED', winners: lowest(candidates, points), reason };
  }
  // The tied players' known cards are theirs: none of them may be registered again as an unseen card.
  const registered = candidates.flatMap((p) => handOf(state, p));
  return { kind: 'PENDING', scoring: { reason, candidates: [...candidates], points, pending, registered } };
}

/** Ends the game on the action's draft. */
export function endGame(
  d: Draft, winners: readonly string[], reason: GameEnd, events: Killer21Event[], points?: Readonly<Record<string, number>>,
): Draft {
  events.push({ type: 'GAME_OVER', winners, lives: d.lives, reason, ...(points === undefined ? {} : { points }) });
  d.phase = 'GAME_OVER';
  d.turn = null;
  d.killer = null;
  d.winners = [...winners];
  d.scoring = null;
  return d;
}

/** Waits for the tied players' hands (K21-97). */
export function awaitHands(d: Draft, scoring: Scoring, events: Killer21Event[]): Draft {
  events.push({ type: 'TIE_BREAK_PENDING', reason: scoring.reason, candidates: scoring.candidates, pending: scoring.pending });
  d.phase = 'SCORING';
  d.turn = null;
  d.killer = null;
  d.scoring = scoring;
  return d;
}

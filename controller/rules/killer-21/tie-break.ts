/**
 * The tie-break on hands the engine has not seen (K21-97): in SCORING each tied player with unseen cards lays
 * their hand on their pad (`register-hand` with exactly that many cards, all unseen and not claimed by another
 * tied player). Once every hand is in, the lowest red points win. A referee may end it without the hands
 * (`skip-registration`): then the tied players share the win, and the events say so.
 */
import { applied } from '../common/outcome.ts';
import { redPoints } from './cards.ts';
import type { Killer21Event } from './events.ts';
import { endGame, lowest } from './game-end.ts';
import { refuse } from './rejections.ts';
import { draft, type K21Outcome, type Killer21State, type Scoring } from './state.ts';
import { handRejection } from './table-deal.ts';

/** `register-hand` in SCORING. */
export function registerForTieBreak(state: Killer21State, player: string, cards: readonly string[]): K21Outcome {
  const scoring = state.scoring as Scoring;
  if (!scoring.candidates.includes(player)) return refuse('HAND_ALREADY_KNOWN', `${player} is not in the tie-break`);
  const count = scoring.pending[player];
  if (count === undefined) return refuse('HAND_ALREADY_KNOWN', `${player}'s hand is already counted`);
  const bad = handRejection(state, player, cards, count, scoring.registered);
  if (bad !== null) return bad;
  const pending = Object.fromEntries(Object.entries(scoring.pending).filter(([p]) => p !== player));
  const points = { ...scoring.points, [player]: (scoring.points[player] ?? 0) + redPoints(cards) };
  const events: Killer21Event[] = [{ type: 'HAND_REGISTERED', player, count: cards.length }];
  const d = draft(state);
  if (Object.keys(pending).length > 0) {
    d.scoring = { ...scoring, pending, points, registered: [...scoring.registered, ...cards] };
    return applied(d, events);
  }
  return applied(endGame(d, lowest(scoring.candidates, points), scoring.reason, events, points), events);
}

/** `skip-registration` in SCORING: the tied players share the win. */
export function skipTieBreak(state: Killer21State): K21Outcome {
  const scoring = state.scoring as Scoring;
  const events: Killer21Event[] = [{ type: 'TIE_BREAK_SKIPPED', candidates: scoring.candidates }];
  return applied(endGame(draft(state), scoring.candidates, scoring.reason, events), events);
}

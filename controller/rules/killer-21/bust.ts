/**
 * Busting (K21-40..43): a player none of whose cards can be played — every card a red one that would pass
 * 21 — does not play, loses a life, the running total resets to 0 and the others keep their hands. On the
 * table the player says so with the ZAP button ("I can't"); `autoBust` lets the engine do it at once. With cards
 * dealt at the table the engine checks what it can and otherwise takes the player's word (K21-95).
 */
import { applied } from '../common/outcome.ts';
import type { Killer21Event } from './events.ts';
import { turnRejection } from './guards.ts';
import { settle, type Continuation } from './moment.ts';
import { refuse } from './rejections.ts';
import { draft, type K21Outcome, type Killer21State } from './state.ts';
import { surelyCanPlay, surelyCannotPlay } from './unseen.ts';

/** `cannot-play` on the player's own turn; `auto` when the engine busts them (`autoBust`). */
export function bustAction(state: Killer21State, player: string, auto = false): K21Outcome {
  const bad = turnRejection(state, player);
  if (bad !== null) return bad;
  const voluntary = surelyCanPlay(state, player);
  if (voluntary && !state.config.allowVoluntaryBust) {
    return refuse('CAN_PLAY', `${player} holds a card that can be played on ${state.total}`);
  }
  // Unseen cards that might be playable: the engine cannot tell, so it takes the player's word (K21-95).
  const trusted = !voluntary && !surelyCannotPlay(state, player);
  const events: Killer21Event[] = [
    { type: 'BUSTED', player, total: state.total, voluntary, auto, ...(trusted ? { trusted } : {}) },
    { type: 'TOTAL_RESET', reason: 'BUST' },
  ];
  const how: Continuation = state.config.afterBust === 'SAME_PLAYER'
    ? { kind: 'SAME', player } : { kind: 'NEXT', from: player, steps: 1 };
  const d = draft(state);
  d.total = 0;
  return applied(settle(d, [{ player, reason: 'BUST' }], [], how, events), events);
}

/** `autoBust`: while the player on turn has no playable card, bust them (at most twice: a bust resets to 0). */
export function autoBusts(state: Killer21State, events: Killer21Event[]): Killer21State {
  let s = state;
  while (s.config.autoBust && s.phase === 'TURN' && s.turn !== null && surelyCannotPlay(s, s.turn)) {
    const outcome = bustAction(s, s.turn, true);
    if (!outcome.ok) return s;
    events.push(...outcome.events);
    s = outcome.state;
  }
  return s;
}

/**
 * The ZAP card (A.7). ZIP-41: legal for P iff P still holds their ZAP, the top card is a number card, and
 * P played it. That test has no time limit (ZIP-Q-4), so it holds in the race and in P's own TEN or STUCK
 * pause; every illegal case of ZIP-44 follows from it.
 */
import { cardInfo } from './cards.ts';
import { refuse, type ZipRejection } from './rejections.ts';
import { holdsZap, topOf, type ZipZapState } from './state.ts';

/** Why `player` may not play their ZAP now, or null when they may. Phase checks are the caller's. */
export function zapRejection(state: ZipZapState, player: string): ZipRejection | null {
  const mode = state.mode;
  if (mode.kind === 'PAUSED' && mode.controller !== player) {
    return refuse('NOT_CONTROLLER', `play is paused; only ${mode.controller} may play (ZIP-33)`);
  }
  if (mode.kind === 'OPEN_START') return refuse('ZAP_CANNOT_OPEN', 'the open start needs a number card (ZIP-Q-2)');
  if (!holdsZap(state, player)) return refuse('ZAP_ALREADY_USED', `${player} has already played their ZAP this round (ZIP-40)`);
  const top = topOf(state);
  if (top === undefined) return refuse('ZAP_NOT_ON_OWN_CARD', 'the pile is empty');
  if (cardInfo(top.card)?.kind === 'ZAP') return refuse('ZAP_NOT_ON_OWN_CARD', `a ZAP (${top.card}) is on top (ZIP-44)`);
  if (top.by === null) return refuse('ZAP_NOT_ON_OWN_CARD', `${top.card} was flipped, not played by ${player} (ZIP-44)`);
  if (top.by !== player) return refuse('ZAP_NOT_ON_OWN_CARD', `${top.card} on top was played by ${top.by}, not ${player} (ZIP-41)`);
  return null;
}

/**
 * Zip-Zap's table behaviour (card-pads.ts decisions, lamps, the ORACLE's announce delay) behind TableGame.
 */
import type { ZipZapState } from '../../rules/zip-zap/index.ts';
import type { RuntimeAction } from '../intents.ts';
import { zipLamps } from './lamps.ts';
import { cardEventIntents, type ZipTableContext } from './card-pads.ts';
import { playersOf, type TableGame } from '../games/table-game.ts';

export function zipTable(ctx: ZipTableContext): TableGame {
  return {
    id: 'zip-zap',
    onSensor: (raw, padsAfter, event) => cardEventIntents(raw as ZipZapState, padsAfter, event, ctx),
    // The engine orders the batch by the landing times and sends plays on one top card whose intervals
    // overlap to the referee (TIE_PENDING with the figures): arrival order decides nothing (principle 4).
    batch: (plays, at): RuntimeAction => ({ type: 'plays', plays, at }),
    followUps: () => [],
    requestRefusal: () => null,
    lamps: (raw) => zipLamps(raw as ZipZapState),
    // ZIP-45/46: a refused card goes back to the hand.
    flashFor: (events) => playersOf(events, 'PLAY_REJECTED'),
    timer(raw) {
      const state = raw as ZipZapState;
      // ZIP-Q-3: the engine knows at once; announcing it only after a delay keeps the table from giving away
      // that nobody holds a follow.
      if (!state.stuck || state.config.stuckDetection !== 'ORACLE') return null;
      return { delayMs: state.config.stuckAnnounceDelayMs, action: { type: 'announce-stuck' } };
    },
  };
}

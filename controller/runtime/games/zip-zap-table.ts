/**
 * Zip-Zap's table behaviour (card-pads.ts decisions, lamps, the ORACLE's announce delay) behind TableGame.
 */
import type { ZipZapState } from '../../rules/zip-zap/index.ts';
import { zipLamps } from '../lamps.ts';
import { cardEventIntents, type ZipTableContext } from '../zip-zap/card-pads.ts';
import type { TableGame } from './table-game.ts';

export function zipTable(ctx: ZipTableContext): TableGame {
  return {
    id: 'zip-zap',
    onSensor: (raw, padsAfter, event) => cardEventIntents(raw as ZipZapState, padsAfter, event, ctx),
    followUps: () => [],
    requestRefusal: () => null,
    lamps: (raw) => zipLamps(raw as ZipZapState),
    stuckAnnounceDelay(raw) {
      const state = raw as ZipZapState;
      // ZIP-Q-3: the engine knows at once; announcing it only after a delay keeps the table from giving away
      // that nobody holds a follow.
      return state.stuck && state.config.stuckDetection === 'ORACLE' ? state.config.stuckAnnounceDelayMs : null;
    },
  };
}

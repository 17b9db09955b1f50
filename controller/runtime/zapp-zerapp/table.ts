/**
 * Zapp Zerapp's table behaviour (barrel-pads.ts decisions, lamps) behind the TableGame interface.
 */
import type { SensorEvent } from '../../hardware/interface.ts';
import { reject } from '../../kernel/result.ts';
import { describeMoves, type ZappState } from '../../rules/zapp-zerapp/index.ts';
import { zappLamps } from './lamps.ts';
import { padsClear, type Pads } from '../pads/pad-state.ts';
import {
  barrelEventIntents, buttonIntents, placementIntents, revealIntents, type ZappTableContext,
} from './barrel-pads.ts';
import type { TableGame } from '../games/table-game.ts';

/** The only legal move of a player as a `move` action, or null when there is a choice to make. */
export function onlyMove(state: ZappState, player: string): Record<string, unknown> | null {
  const moves = describeMoves(state, player);
  const [move] = moves;
  if (moves.length !== 1 || !move || move.carryable.length > 0) return null;
  return { player, piece: move.piece };
}

export function zappTable(ctx: ZappTableContext): TableGame {
  const stations = Object.keys(ctx.seatOfStation);
  return {
    id: 'zapp-zerapp',
    onSensor(raw, padsAfter, event: SensorEvent) {
      const state = raw as ZappState;
      if (event.kind === 'button-pressed') {
        const player = ctx.seatOfStation[event.station];
        if (player === undefined) return [];
        return buttonIntents(state, player, padsClear(padsAfter, stations), event.time.hostUs / 1000, onlyMove);
      }
      return barrelEventIntents(state, padsAfter, event, ctx);
    },
    followUps(raw, pads: Pads, at) {
      const state = raw as ZappState;
      const placements = placementIntents(state, pads, ctx, at);
      return placements.length > 0 ? placements : revealIntents(state, at);
    },
    requestRefusal(raw, pads, action) {
      const state = raw as ZappState;
      // The same check the seat button makes (buttonIntents): a barrel left on a pad would count at the roll.
      if ((action.type === 'roll' || action.type === 'enter-dice') && state.phase === 'ROLL' && !padsClear(pads, stations)) {
        return reject('PADS_NOT_CLEAR', 'put every barrel back on the mountain before the next roll');
      }
      return null;
    },
    lamps: (raw) => zappLamps(raw as ZappState),
    timer: () => null,
    flashFor: () => [],
  };
}

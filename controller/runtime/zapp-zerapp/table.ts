/**
 * Zapp Zerapp's table behaviour (barrel-pads.ts decisions, lamps) behind the TableGame interface.
 */
import type { SensorEvent } from '../../hardware/interface.ts';
import { reject } from '../../kernel/result.ts';
import { describeMoves, type ZappState } from '../../rules/zapp-zerapp/index.ts';
import { zappLamps } from './lamps.ts';
import { occupiedPads, type Pads } from '../pads/pad-state.ts';
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
  // Whose pad still holds a barrel, in words (null when every pad is clear): the refusal says where to look.
  const notClear = (pads: Pads): string | null => {
    const left = occupiedPads(pads, stations).map((s) => `${ctx.seatOfStation[s] ?? s}'s pad (${s})`);
    if (left.length === 0) return null;
    return `put every barrel back on the mountain before the next roll: a barrel still lies on ${left.join(' and ')}`;
  };
  return {
    id: 'zapp-zerapp',
    onSensor(raw, padsAfter, event: SensorEvent) {
      const state = raw as ZappState;
      if (event.kind === 'button-pressed') {
        const player = ctx.seatOfStation[event.station];
        if (player === undefined) return [];
        return buttonIntents(state, player, notClear(padsAfter), event.time.hostUs / 1000, onlyMove);
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
      const left = notClear(pads);
      if ((action.type === 'roll' || action.type === 'enter-dice') && state.phase === 'ROLL' && left !== null) {
        return reject('PADS_NOT_CLEAR', left);
      }
      return null;
    },
    lamps: (raw) => zappLamps(raw as ZappState),
    timer: () => null,
    flashFor: () => [],
  };
}

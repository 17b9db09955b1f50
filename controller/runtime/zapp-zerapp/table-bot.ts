/**
 * A Zapp Zerapp bot seated at a simulated table. It plays through the table's hardware like a person would:
 * it stands a barrel on its pad, lifts it again when the barrel goes back to the mountain, presses its button to
 * roll, and picks a move (through the runtime, as a person picks one on the dashboard).
 */
import { describeMoves, placedBarrel, type ZappState } from '../../rules/zapp-zerapp/index.ts';
import type { BotContext, BotSeat } from '../games/bot-context.ts';

export function zappBotStep(state: ZappState, seat: BotSeat, ctx: BotContext): void {
  const onPad = ctx.padItem(seat.station);
  if (onPad?.kind === 'barrel') {
    const loc = state.barrels[String(onPad.value)];
    // Back on the mountain after the reveal or the move: put it back. (During SELECT a barrel still shows as on
    // the mountain until its weight has settled on the pad, so it stays; unless someone else placed it.)
    const returned = state.phase !== 'SELECT' && loc?.at === 'MOUNTAIN';
    const taken = loc?.at === 'PLACED' && loc.player !== seat.player;
    if (returned || taken) {
      ctx.lift(seat.station, onPad);
      return;
    }
  }
  switch (state.phase) {
    case 'ROLL':
      if (state.roller === seat.player && ctx.allPadsClear()) ctx.press(seat.station);
      return;
    case 'SELECT': {
      if (placedBarrel(state, seat.player) !== null || onPad !== undefined) return;
      const free = Object.entries(state.barrels)
        .filter(([value, loc]) => loc.at === 'MOUNTAIN' && !ctx.isOnAnyPad(Number(value)))
        .map(([value]) => Number(value));
      // People aim near the magic number; the bot mostly picks a barrel it hopes is not too high.
      const hopeful = free.filter((v) => v <= (state.magic ?? 13));
      const pool = hopeful.length > 0 && ctx.chance(0.8) ? hopeful : free;
      const value = ctx.pick(pool);
      if (value !== undefined) ctx.place(seat.station, { kind: 'barrel', value });
      return;
    }
    case 'MOVE': {
      if (state.moveQueue[0] !== seat.player) return;
      const moves = describeMoves(state, seat.player);
      const move = ctx.pick(moves);
      if (!move) return;
      if (moves.length === 1 && move.carryable.length === 0) {
        ctx.press(seat.station);
        return;
      }
      const carry = Object.fromEntries(move.carryable.map((c) => [c.piece, ctx.chance(0.5)]));
      ctx.act({ type: 'move', player: seat.player, piece: move.piece, ...(move.carryable.length > 0 ? { carry } : {}) });
      return;
    }
    case 'DONE':
      return;
  }
}

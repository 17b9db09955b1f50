/**
 * A Zip-Zap bot seated at a simulated table: it taps the cards of its (engine-dealt) hand on its pad when they
 * follow, restarts when it has control, presses its button to ZAP, and deals the next round.
 */
import type { ZipZapState } from '../../rules/zip-zap/index.ts';
import type { BotContext, BotSeat } from './bot-context.ts';

type LegalAction = Readonly<Record<string, unknown>>;

export function zipBotStep(state: ZipZapState, seat: BotSeat, ctx: BotContext, legal: readonly LegalAction[]): void {
  const mine = legal.filter((a) => a.player === seat.player);
  switch (state.mode.kind) {
    case 'RACE':
    case 'PAUSED':
    case 'OPEN_START': {
      const zap = mine.find((a) => a.type === 'zap');
      if (zap && ctx.chance(0.3)) {
        ctx.press(seat.station);
        return;
      }
      const plays = mine.filter((a) => a.type === 'play' && typeof a.card === 'string' && !a.card.startsWith('Z'));
      const play = ctx.pick(plays);
      if (play && typeof play.card === 'string') ctx.tap(seat.station, { kind: 'card', card: play.card });
      return;
    }
    case 'ROUND_OVER':
      // One press deals the next round (any seat's button does; the first bot in seat order takes it).
      if (state.players.find((p) => ctx.isBot(p)) === seat.player) ctx.press(seat.station);
      return;
    case 'GAME_OVER':
    case 'DEALING':
    case 'START':
      return;
  }
}

/**
 * A Zip-Zap bot seated at a simulated table: it taps the cards of its (engine-dealt) hand on its pad when they
 * follow — or on the pile, where the table has a pile station (its owner is known from the dealt hand) —
 * restarts when it has control, presses its button to ZAP, and deals the next round. A tie that no referee
 * has resolved after a while is resolved by the first bot (a demo with nobody at the dashboard goes on).
 */
import type { ZipZapState } from '../../rules/zip-zap/index.ts';
import type { BotContext, BotSeat } from '../games/bot-context.ts';

type LegalAction = Readonly<Record<string, unknown>>;

/** How long a tie waits for a person at the dashboard before a bot stands in (simulated ms). */
const TIE_REFEREE_PATIENCE_MS = 8000;

export function zipBotStep(state: ZipZapState, seat: BotSeat, ctx: BotContext, legal: readonly LegalAction[]): void {
  const mine = legal.filter((a) => a.player === seat.player);
  if (state.tie !== null) {
    const first = state.players.find((p) => ctx.isBot(p)) === seat.player;
    if (first && ctx.tieWaitedMs >= TIE_REFEREE_PATIENCE_MS) {
      const rulings = legal.filter((a) => a.type === 'resolve-tie');
      const ruling = ctx.pick(rulings);
      if (ruling) ctx.act({ ...ruling, type: 'resolve-tie' });
    }
    return;
  }
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
      if (play === undefined || typeof play.card !== 'string') return;
      // On the pile the card's owner comes from the registered (here: engine-dealt) hand.
      const pile = ctx.pileStation;
      const onPile = pile !== undefined && state.handKnown[seat.player] && ctx.chance(0.5);
      ctx.tap(onPile ? pile : seat.station, { kind: 'card', card: play.card });
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

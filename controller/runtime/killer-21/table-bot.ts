/**
 * A Killer-21 bot seated at a simulated table. It plays through the table's hardware like a person would: on
 * its turn it taps a playable card on the pile station (or its own pad without one), presses its ZAP button
 * when it cannot play, races for the Killer with a red 0 on its own pad (or concedes with the button), takes a
 * chip off its pad for every life lost, and deals the next round. A tied zero that no referee has ruled on
 * after a while is ruled by the first bot (a demo with nobody at the dashboard goes on).
 */
import type { BotContext, BotSeat } from '../games/bot-context.ts';
import type { Killer21State } from '../../rules/killer-21/index.ts';
import { cardsToRegister } from './registration.ts';
import { CHIP_COUNT, type Item } from '../registry/items.ts';

type LegalAction = Readonly<Record<string, unknown>>;

/** How long a tied zero waits for a person at the dashboard before a bot stands in (simulated ms). */
const TIE_REFEREE_PATIENCE_MS = 8000;

/** Chips on the bot's pad to match its lives: puts chips down at the start, takes one off per life lost. */
function tendChips(state: Killer21State, seat: BotSeat, ctx: BotContext): boolean {
  const chips = (ctx.itemsOn?.(seat.station) ?? []).filter((i): i is Extract<Item, { kind: 'chip' }> => i.kind === 'chip');
  const lives = state.lives[seat.player] ?? 0;
  const extra = chips.at(-1);
  if (chips.length > lives && extra !== undefined) {
    ctx.lift(seat.station, extra);
    return true;
  }
  if (chips.length < lives && state.round === 1 && state.losses.length === 0) {
    // Each seat has its own chips: seat k (0-based) takes chips k·lives+1 …; numbered apart so two pads never share one.
    const chip = (ctx.seatIndex?.(seat.player) ?? 0) * state.config.lives + chips.length + 1;
    if (chip > CHIP_COUNT) return false; // more lives than the box has chips: the bot plays without them
    ctx.place(seat.station, { kind: 'chip', chip });
    return true;
  }
  return false;
}

export function k21BotStep(state: Killer21State, seat: BotSeat, ctx: BotContext, legal: readonly LegalAction[]): void {
  if (tendChips(state, seat, ctx)) return;
  const mine = legal.filter((a) => a.player === seat.player);
  const firstBot = state.players.find((p) => ctx.isBot(p) && (state.lives[p] ?? 0) > 0) === seat.player;
  switch (state.phase) {
    case 'TURN': {
      if (state.turn !== seat.player) return;
      const play = ctx.pick(mine.filter((a) => a.type === 'play'));
      if (play === undefined || typeof play.card !== 'string') {
        ctx.press(seat.station);
        return;
      }
      ctx.tap(ctx.pileStation ?? seat.station, { kind: 'k21', card: play.card });
      return;
    }
    case 'KILLER': {
      const ruling = legal.filter((a) => a.type === 'rule-response');
      if (ruling.length > 0 && firstBot && ctx.tieWaitedMs >= TIE_REFEREE_PATIENCE_MS) {
        const chosen = ctx.pick(ruling);
        if (chosen) ctx.act({ ...chosen, type: 'rule-response' });
        return;
      }
      if (!mine.some((a) => a.type === 'cannot-play')) return;
      const zero = mine.find((a) => a.type === 'respond');
      // People are not always quick: a zero is sometimes slapped down late, or the button forgotten.
      if (!ctx.chance(0.7)) return;
      if (zero !== undefined && typeof zero.card === 'string') ctx.tap(seat.station, { kind: 'k21', card: zero.card });
      else ctx.press(seat.station);
      return;
    }
    case 'ROUND_OVER':
      if (firstBot) ctx.press(seat.station);
      return;
    case 'DEALING':
    case 'SCORING':
      // Bots have no physical hands to lay down: once no person is left to lay theirs (a person plays from the
      // simulator panel: "Lay on own pad"), the first bot plays on without the bots' hands, as a referee would
      // (`skip-registration`); the bots then play unseen cards, which the engine checks by the counts. A bot
      // never skips a person's registration: that is the referee's call.
      if (firstBot && !state.players.some((p) => !ctx.isBot(p) && cardsToRegister(state, p) > 0)) {
        ctx.act({ type: 'skip-registration' });
      }
      return;
    case 'GAME_OVER':
      return;
  }
}

/**
 * Killer-21's table half (runtime/games/table-plugin.ts): cards from the pile station or the seat pads, the
 * Killer race by landing intervals, lives from chips, the ZAP button as "I can't", the table bot.
 */
import type { Killer21State } from '../../rules/killer-21/index.ts';
import type { TablePlugin } from '../games/table-plugin.ts';
import { killer21Table } from './table.ts';
import { k21BotStep } from './table-bot.ts';

export const killer21TablePlugin: TablePlugin = {
  id: 'killer-21',
  table: killer21Table,
  // Cards on a seat pad are secret (a refused card or a late zero goes back to the hand); the pile station shows
  // the cards the public pile holds.
  padSecret: () => true,
  faceUp: (state) => (state as Killer21State).pile.map((r) => r.card),
  bot: (state, seat, ctx, legal) => {
    k21BotStep(state as Killer21State, seat, ctx, legal);
  },
  refereePending: (state) => {
    const w = (state as Killer21State).killer;
    return w !== null && Object.values(w.answers).some((a) => a.status === 'TIE');
  },
};

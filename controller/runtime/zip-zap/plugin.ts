/**
 * Zip-Zap's table half (runtime/games/table-plugin.ts): cards on the pads and the pile, the race, the table bot.
 */
import type { ZipZapState } from '../../rules/zip-zap/index.ts';
import type { TablePlugin } from '../games/table-plugin.ts';
import { zipTable } from './table.ts';
import { zipBotStep } from './table-bot.ts';

export const zipZapTablePlugin: TablePlugin = {
  id: 'zip-zap',
  table: (ctx) => zipTable({
    seatOfStation: ctx.seatOfStation, registry: ctx.registry,
    ...(ctx.pileStation === undefined ? {} : { pileStation: ctx.pileStation }),
  }),
  // Cards on a seat pad are secret (a refused card goes back to its owner's hand; a hand being registered or
  // scored is secret); the pile station shows the cards the public pile holds.
  padSecret: () => true,
  faceUp: (state) => (state as ZipZapState).pile.map((r) => r.card),
  bot: (state, seat, ctx, legal) => {
    zipBotStep(state as ZipZapState, seat, ctx, legal);
  },
  refereePending: (state) => (state as ZipZapState).tie !== null,
};

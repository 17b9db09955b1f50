/**
 * Zapp Zerapp's table half (runtime/games/table-plugin.ts): barrels on the pads, the reveal, the table bot.
 */
import type { ZappState } from '../../rules/zapp-zerapp/index.ts';
import type { TablePlugin } from '../games/table-plugin.ts';
import { zappPadSecret } from './pad-secret.ts';
import { zappTable } from './table.ts';
import { zappBotStep } from './table-bot.ts';

/** A settled weight below this is an empty pad, with no calibration to go by (g). */
const MIN_BARREL_GRAMS = 10;

export const zappZerappTablePlugin: TablePlugin = {
  id: 'zapp-zerapp',
  table: (ctx) => zappTable({
    seatOfStation: ctx.seatOfStation, registry: ctx.registry, minBarrelGrams: MIN_BARREL_GRAMS,
    ...(ctx.weights === undefined ? {} : { weights: ctx.weights }),
  }),
  padSecret: zappPadSecret,
  // No pile: every station is a seat.
  faceUp: () => [],
  bot: (state, seat, ctx) => {
    zappBotStep(state as ZappState, seat, ctx);
  },
  refereePending: () => false,
};

/**
 * Zapp Zerapp in the dashboard: its page, overview line, simulator seats and referee controls, and the new-game
 * form's variants and seat colours, registered in `../registry.ts` under the engine's id.
 */
import { COLOUR_NAME, COLOURS } from '../../board-svg.ts';
import type { ZappView } from '../../types.ts';
import type { GameUi } from '../game-ui.ts';
import { zappOverviewLine } from './overview.ts';
import { ZAPP_ZERAPP, ZappZerappPage } from './page.ts';
import { ZappRefereeControls } from './referee-controls.ts';
import { describeZappEvent } from './events.ts';
import { ZAPP_REFUSALS } from './refusals.ts';
import { ZappSimulatorSeats } from './simulator-seats.ts';

export const zappZerappUi: GameUi = {
  id: ZAPP_ZERAPP,
  title: 'Zapp Zerapp',
  page: (ctx) => new ZappZerappPage(ctx),
  overview: (view, nameOf) => zappOverviewLine(view as ZappView, nameOf),
  describeEvent: describeZappEvent,
  refusals: ZAPP_REFUSALS,
  simulator: (kit) => new ZappSimulatorSeats(kit),
  referee: (kit) => new ZappRefereeControls(kit),
  newGame: {
    key: 'variant',
    variants: [{ value: 'BASIC', label: 'basic' }, { value: 'PRO', label: 'pro' }],
    colours: COLOURS.map((c) => ({ value: c, label: COLOUR_NAME[c] })),
    running: (view) => {
      const v = view as ZappView;
      return { variant: v.variant, players: v.players.map((p) => p.id) };
    },
  },
};

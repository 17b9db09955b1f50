/**
 * Zip-Zap in the dashboard: its page, overview line, simulator seats and referee controls, and the new-game
 * form's scoring modes, registered in `../registry.ts` under the engine's id.
 */
import type { ZipZapPublicView } from '../../types.ts';
import type { GameUi } from '../game-ui.ts';
import { zipOverviewLine } from './overview.ts';
import { ZIP_ZAP, ZipZapPage } from './page.ts';
import { describeZipEvent } from './events.ts';
import { ZipRefereeControls } from './referee-controls.ts';
import { ZIP_REFUSALS } from './refusals.ts';
import { ZipSimulatorSeats } from './simulator-seats.ts';

export const zipZapUi: GameUi = {
  id: ZIP_ZAP,
  title: 'Zip-Zap',
  page: (ctx) => new ZipZapPage(ctx),
  overview: (view, nameOf) => zipOverviewLine(view as ZipZapPublicView, nameOf),
  describeEvent: describeZipEvent,
  refusals: ZIP_REFUSALS,
  simulator: (kit) => new ZipSimulatorSeats(kit),
  referee: (kit) => new ZipRefereeControls(kit),
  newGame: {
    key: 'scoringMode',
    variants: [{ value: 'PENALTY', label: 'penalty points' }, { value: 'WINS', label: 'round wins' }],
    running: (view) => {
      const v = view as ZipZapPublicView;
      return { variant: v.scoringMode, players: v.players.map((p) => p.id) };
    },
  },
};

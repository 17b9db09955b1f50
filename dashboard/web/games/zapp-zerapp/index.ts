/**
 * Zapp Zerapp in the dashboard: its summary (`summary.ts`: overview line, mini board, new-game form) with its
 * page, simulator seats and referee controls, registered in `../registry.ts` (loaded when a page needs them).
 */
import type { GameUi } from '../game-ui.ts';
import { ZappZerappPage } from './page.ts';
import { ZappRefereeControls } from './referee-controls.ts';
import { describeZappEvent } from './events.ts';
import { ZAPP_REFUSALS } from './refusals.ts';
import { ZappSimulatorSeats } from './simulator-seats.ts';
import { zappZerappSummary } from './summary.ts';
import { zappRecordUi } from './record.ts';

export const zappZerappUi: GameUi = {
  ...zappZerappSummary,
  page: (ctx) => new ZappZerappPage(ctx),
  describeEvent: describeZappEvent,
  refusals: ZAPP_REFUSALS,
  simulator: (kit) => new ZappSimulatorSeats(kit),
  referee: (kit) => new ZappRefereeControls(kit),
  record: zappRecordUi,
};

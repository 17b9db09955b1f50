/**
 * Zip-Zap in the dashboard: its summary (`summary.ts`: overview line, mini board, new-game form) with its page,
 * simulator seats and referee controls, registered in `../registry.ts` (loaded when a page needs them).
 */
import type { GameUi } from '../game-ui.ts';
import { ZipZapPage } from './page.ts';
import { describeZipEvent } from './events.ts';
import { ZipRefereeControls } from './referee-controls.ts';
import { ZIP_REFUSALS } from './refusals.ts';
import { ZipSimulatorSeats } from './simulator-seats.ts';
import { zipZapSummary } from './summary.ts';
import { zipRecordUi } from './record.ts';

export const zipZapUi: GameUi = {
  ...zipZapSummary,
  page: (ctx) => new ZipZapPage(ctx),
  describeEvent: describeZipEvent,
  refusals: ZIP_REFUSALS,
  simulator: (kit) => new ZipSimulatorSeats(kit),
  referee: (kit) => new ZipRefereeControls(kit),
  record: zipRecordUi,
};

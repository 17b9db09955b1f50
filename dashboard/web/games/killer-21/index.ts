/**
 * Killer-21 in the dashboard: its summary (`summary.ts`: overview line, mini board, new-game form) with its page,
 * simulator panel, referee controls and event sentences, registered in `../registry.ts` (loaded when a page
 * needs them).
 */
import type { GameUi } from '../game-ui.ts';
import { Killer21Page } from './page.ts';
import { Killer21RefereeControls } from './referee-controls.ts';
import { K21_REFUSALS } from './refusals.ts';
import { Killer21SimulatorPanel } from './simulator-panel.ts';
import { killer21Summary } from './summary.ts';
import { describeK21Event } from './text.ts';
import './killer-21.css';
import { k21RecordUi } from './record.ts';

export const killer21Ui: GameUi = {
  ...killer21Summary,
  page: (ctx) => new Killer21Page(ctx),
  describeEvent: describeK21Event,
  refusals: K21_REFUSALS,
  simulator: (kit) => new Killer21SimulatorPanel(kit),
  referee: (kit) => new Killer21RefereeControls(kit),
  record: k21RecordUi,
};

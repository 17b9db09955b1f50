/**
 * Killer-21 in the dashboard: its page, overview line, simulator panel and referee controls, registered in
 * `../registry.ts` under the engine's id.
 */
import type { GameUi } from '../game-ui.ts';
import { Killer21Page } from './page.ts';
import { Killer21RefereeControls } from './referee-controls.ts';
import { K21_REFUSALS } from './refusals.ts';
import { Killer21SimulatorPanel } from './simulator-panel.ts';
import { describeK21Event, overviewLine, type Killer21PublicView } from './text.ts';
import './killer-21.css';

export const killer21Ui: GameUi = {
  id: 'killer-21',
  title: 'Killer-21',
  page: (ctx) => new Killer21Page(ctx),
  overview: (view, nameOf) => overviewLine(view as Killer21PublicView, nameOf),
  describeEvent: describeK21Event,
  refusals: K21_REFUSALS,
  simulator: (kit) => new Killer21SimulatorPanel(kit),
  referee: (kit) => new Killer21RefereeControls(kit),
  newGame: { key: 'variant', variants: [{ value: 'STANDARD', label: 'standard' }, { value: 'BLITZ', label: 'Blitz' }] },
};

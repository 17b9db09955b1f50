/**
 * What the dashboard knows of Killer-21 before its code is loaded (`GameSummary`): its id, title, overview line,
 * mini board and the new-game form's variants. Light: the page, simulator panel and referee controls are in
 * `index.ts`, a chunk of its own.
 */
import type { GameSummary } from '../game-ui.ts';
import { killer21MiniBoard } from './mini-board.ts';
import { overviewLine, type Killer21PublicView } from './text.ts';

export const killer21Summary: GameSummary = {
  id: 'killer-21',
  title: 'Killer-21',
  overview: (view, nameOf) => overviewLine(view as Killer21PublicView, nameOf),
  miniBoard: (view, nameOf) => killer21MiniBoard(view as Killer21PublicView, nameOf),
  newGame: { key: 'variant', variants: [{ value: 'STANDARD', label: 'standard' }, { value: 'BLITZ', label: 'Blitz' }] },
};

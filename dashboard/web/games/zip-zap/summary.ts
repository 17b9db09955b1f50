/**
 * What the dashboard knows of Zip-Zap before its code is loaded (`GameSummary`): its id, title, overview line,
 * mini board and the new-game form's scoring modes. Light: the page, simulator seats and referee controls are
 * in `index.ts`, a chunk of its own.
 */
import type { ZipZapPublicView } from '../../types.ts';
import type { GameSummary } from '../game-ui.ts';
import { zipMiniBoard } from './mini-board.ts';
import { zipOverviewLine } from './overview.ts';

/** The engine's id of Zip-Zap (`state.game`). */
export const ZIP_ZAP = 'zip-zap';

export const zipZapSummary: GameSummary = {
  id: ZIP_ZAP,
  title: 'Zip-Zap',
  overview: (view, nameOf) => zipOverviewLine(view as ZipZapPublicView, nameOf),
  miniBoard: (view) => zipMiniBoard(view as ZipZapPublicView),
  newGame: {
    key: 'scoringMode',
    variants: [{ value: 'PENALTY', label: 'penalty points' }, { value: 'WINS', label: 'round wins' }],
    running: (view) => {
      const v = view as ZipZapPublicView;
      return { variant: v.scoringMode, players: v.players.map((p) => p.id) };
    },
  },
};

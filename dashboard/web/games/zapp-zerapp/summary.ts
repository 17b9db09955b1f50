/**
 * What the dashboard knows of Zapp Zerapp before its code is loaded (`GameSummary`): its id, title, overview
 * line and mini board, and the new-game form's variants and seat colours. Light: the overview loads this, not the
 * page, simulator seats and referee controls (`index.ts`, a chunk of its own).
 */
import { COLOUR_NAME, COLOURS } from '../../board-svg.ts';
import type { ZappView } from '../../types.ts';
import type { GameSummary } from '../game-ui.ts';
import { zappMiniBoard } from './mini-board.ts';
import { zappOverviewLine } from './overview.ts';

/** The engine's id of Zapp Zerapp (`state.game`). */
export const ZAPP_ZERAPP = 'zapp-zerapp';

export const zappZerappSummary: GameSummary = {
  id: ZAPP_ZERAPP,
  title: 'Zapp Zerapp',
  overview: (view, nameOf) => zappOverviewLine(view as ZappView, nameOf),
  miniBoard: (view, nameOf) => zappMiniBoard(view as ZappView, nameOf),
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

/**
 * The game-page registry: every game the dashboard can show, by the engine's game id. The router, the overview,
 * the simulator page and the referee page look a game up here instead of naming it; a game's parts live in its
 * own folder (`games/killer-21/`). Zapp Zerapp and Zip-Zap are registered with their pages where they are
 * (`pages/`); their overview, simulator and referee parts are still in those pages' own code (absent here).
 */
import { ZappZerappPage } from './zapp-zerapp/page.ts';
import { ZipZapPage } from './zip-zap/page.ts';
import type { GameUi } from './game-ui.ts';
import { killer21Ui } from './killer-21/index.ts';

const GAMES: readonly GameUi[] = [
  {
    id: 'zapp-zerapp', title: 'Zapp Zerapp', page: (ctx) => new ZappZerappPage(ctx),
    newGame: { key: 'variant', variants: [{ value: 'BASIC', label: 'basic' }, { value: 'PRO', label: 'pro' }] },
  },
  {
    id: 'zip-zap', title: 'Zip-Zap', page: (ctx) => new ZipZapPage(ctx),
    newGame: { key: 'scoringMode', variants: [{ value: 'PENALTY', label: 'penalty points' }, { value: 'WINS', label: 'round wins' }] },
  },
  killer21Ui,
];

const BY_ID = new Map(GAMES.map((g) => [g.id, g]));

/** The game's dashboard parts, or undefined for a game this dashboard does not know. */
export function gameUi(id: string): GameUi | undefined {
  return BY_ID.get(id);
}

/** Every registered game, in the order the new-game form lists them. */
export function gameUis(): readonly GameUi[] {
  return GAMES;
}

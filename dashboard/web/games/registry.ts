/**
 * The game registry of the dashboard: every game it can show, by the engine's game id. The router, the overview,
 * the simulator page and the referee page look a game up here instead of naming it; each game's parts live in its
 * own folder (`games/<id>/`, its `GameUi` in `index.ts`). Adding a game is one line here
 * (docs/adding-a-game.md); test/dashboard/game-registry.test.ts checks that every game of the controller has one.
 */
import type { GameUi } from './game-ui.ts';
import { killer21Ui } from './killer-21/index.ts';
import { zappZerappUi } from './zapp-zerapp/index.ts';
import { zipZapUi } from './zip-zap/index.ts';

/** In the order the new-game form lists them. */
const GAMES: readonly GameUi[] = [zappZerappUi, zipZapUi, killer21Ui];

const BY_ID = new Map(GAMES.map((g) => [g.id, g]));

/** The game's dashboard parts, or undefined for a game this dashboard does not know. */
export function gameUi(id: string): GameUi | undefined {
  return BY_ID.get(id);
}

/** Every registered game, in the order the new-game form lists them. */
export function gameUis(): readonly GameUi[] {
  return GAMES;
}

/**
 * The game registry of the dashboard: every game it can show, by the engine's game id. The router, the overview,
 * the simulator page and the referee page look a game up here instead of naming it; each game's parts live in its
 * own folder (`games/<id>/`). Adding a game is one line here (docs/adding-a-game.md): its summary
 * (`summary.ts`: overview line, mini board, new-game form; light, always in) and the `import()` of its `GameUi`
 * (`index.ts`: page, simulator seats, referee controls; a chunk of its own, downloaded when a page needs it).
 * test/dashboard/game-registry.test.ts checks that every game of the controller has one.
 *
 * The router loads what a page needs before mounting it (`routes.ts`, `games`: the table's current game, or
 * all of them), so `gameUi(id)` answers synchronously there; a game started while a page is open is loaded then,
 * and the page redrawn (`loadGameUi`, `onGameLoaded`).
 */
import type { GameSummary, GameUi } from './game-ui.ts';
import { killer21Summary } from './killer-21/summary.ts';
import { zappZerappSummary } from './zapp-zerapp/summary.ts';
import { zipZapSummary } from './zip-zap/summary.ts';

interface Registered {
  readonly summary: GameSummary;
  readonly load: () => Promise<GameUi>;
}

/** In the order the new-game form lists them. */
const GAMES: readonly Registered[] = [
  { summary: zappZerappSummary, load: async () => import('./zapp-zerapp/index.ts').then((m) => m.zappZerappUi) },
  { summary: zipZapSummary, load: async () => import('./zip-zap/index.ts').then((m) => m.zipZapUi) },
  { summary: killer21Summary, load: async () => import('./killer-21/index.ts').then((m) => m.killer21Ui) },
];

const BY_ID = new Map(GAMES.map((g) => [g.summary.id, g]));
const loaded = new Map<string, GameUi>();
const loading = new Map<string, Promise<GameUi | undefined>>();
const listeners = new Set<() => void>();

/** The game's summary (overview line, mini board, new-game form), or undefined for a game this dashboard does not know. */
export function gameSummary(id: string): GameSummary | undefined {
  return BY_ID.get(id)?.summary;
}

/** Every registered game's summary, in the order the new-game form lists them. */
export function gameUis(): readonly GameSummary[] {
  return GAMES.map((g) => g.summary);
}

/** The game's whole dashboard part once loaded (`loadGameUi`); undefined before, or for a game this dashboard does not know. */
export function gameUi(id: string): GameUi | undefined {
  return loaded.get(id);
}

/** Loads the game's parts (once; later calls share the first). Undefined for a game this dashboard does not know. */
export async function loadGameUi(id: string): Promise<GameUi | undefined> {
  const known = loaded.get(id);
  if (known !== undefined) return known;
  const entry = BY_ID.get(id);
  if (entry === undefined) return undefined;
  let pending = loading.get(id);
  if (pending === undefined) {
    pending = entry.load().then((ui) => {
      loaded.set(id, ui);
      for (const l of listeners) l();
      return ui;
    }, (error: unknown) => {
      // A failed download (the network) may be tried again by the next page.
      loading.delete(id);
      console.error('game code failed to load', error);
      return undefined;
    });
    loading.set(id, pending);
  }
  return pending;
}

/** Every registered game's parts (the referee and simulator pages: a new game may be any of them). */
export async function loadAllGameUis(): Promise<void> {
  await Promise.all(GAMES.map(async (g) => loadGameUi(g.summary.id)));
}

/** Called after a game's parts arrive (the router redraws the page). */
export function onGameLoaded(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

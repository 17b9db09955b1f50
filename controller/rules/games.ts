/**
 * The game registry: the one list of game definitions (game-definition.ts). The configuration, MQTT,
 * persistence, scenarios, replay, simulate and demo look a game up here by id; the table half of each game is
 * registered beside it in runtime/games/tables.ts. Adding a game = its folders plus one line here and one
 * there (docs/adding-a-game.md).
 */
import type { AnyEngine, GameId } from './engine.ts';
import type { GameDefinition } from './game-definition.ts';
import { killer21Game } from './killer-21/game.ts';
import { zappZerappGame } from './zapp-zerapp/game.ts';
import { zipZapGame } from './zip-zap/game.ts';

export type { AnyEngine } from './engine.ts';

/** Every game, in the order tools list them. */
export const GAMES: readonly GameDefinition[] = [zipZapGame, zappZerappGame, killer21Game];

/** Every game id, in registry order. */
export const GAME_IDS: readonly GameId[] = GAMES.map((g) => g.id);

const BY_ID: ReadonlyMap<string, GameDefinition> = new Map(GAMES.map((g) => [g.id, g]));

export function isGameId(value: unknown): value is GameId {
  return typeof value === 'string' && BY_ID.has(value);
}

/** The definition of a registered game; throws for an id that is not one (check with `isGameId` first). */
export function getGame(id: GameId): GameDefinition {
  const game = BY_ID.get(id);
  if (game === undefined) throw new Error(`unknown game "${id}" (games: ${GAME_IDS.join(', ')})`);
  return game;
}

/** The definition, or undefined for a value that is not a game id (a buzzer table's mode). */
export function findGame(id: unknown): GameDefinition | undefined {
  return typeof id === 'string' ? BY_ID.get(id) : undefined;
}

export function getEngine(id: GameId): AnyEngine {
  return getGame(id).engine;
}

/** The events that may be published, with secrets removed (design principle 2), by the game's own filter. */
export function toPublicEvents(id: GameId, events: readonly unknown[]): unknown[] {
  const game = getGame(id);
  const out: unknown[] = [];
  for (const e of events) {
    const isEvent = typeof e === 'object' && e !== null && typeof (e as { type?: unknown }).type === 'string';
    const visible = isEvent ? game.publicEvent(e as { type: string }) : null;
    if (visible !== null) out.push(visible);
  }
  return out;
}

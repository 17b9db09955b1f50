/**
 * The registry of rules engines, so that tools (simulate, replay, scenarios, the table runtime) can pick a game
 * by its id.
 */
import type { BaseAction, GameEngine, GameId } from './engine.ts';
import { zappZerappEngine } from './zapp-zerapp/index.ts';
import { zipZapEngine } from './zip-zap/index.ts';

/** An engine with its types erased, for code that handles either game. */
export type AnyEngine = GameEngine<unknown, BaseAction, unknown, unknown, string, unknown>;

const ENGINES: Readonly<Record<GameId, AnyEngine>> = {
  'zip-zap': zipZapEngine,
  'zapp-zerapp': zappZerappEngine,
};

export function getEngine(id: GameId): AnyEngine {
  return ENGINES[id];
}

export function isGameId(value: unknown): value is GameId {
  return value === 'zip-zap' || value === 'zapp-zerapp';
}

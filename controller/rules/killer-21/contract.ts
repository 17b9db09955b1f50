/**
 * The engine contract for a game that is not (yet) in the `GameId` union of `../engine.ts`.
 *
 * `GameEngine.id` is typed `GameId` ('zip-zap' | 'zapp-zerapp'). Adding 'killer-21' there would break the
 * exhaustive switches on `GameId` across the app, which phase B of issue 12 replaces with a plug-in registry
 * (boardgame.io's game object as the model). Until then this engine implements the very same contract with
 * only `id` widened to its own literal. Phase B's registry refactor removes this alias: the engine becomes a
 * plain `GameEngine`.
 */
import type { BaseAction, GameEngine } from '../engine.ts';

/** `GameEngine` with `id` set to the engine's own id instead of a member of `GameId`. */
export type PluggableEngine<Id extends string, S, A extends BaseAction, E, V, C extends string, Cfg> =
  Omit<GameEngine<S, A, E, V, C, Cfg>, 'id'> & { readonly id: Id };

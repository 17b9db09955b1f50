/**
 * The one place where the Killer-21 engine is handed to code typed for registered engines (`AnyEngine`: the
 * bot game loop, the scenario runner, replay). `AnyEngine.id` is a `GameId`, which does not include
 * 'killer-21' yet; everything else is checked by the compiler. Phase B's plug-in registry removes this file:
 * the engine is then registered like the others and `getEngine('killer-21')` returns it.
 */
import type { GameId } from '../engine.ts';
import type { AnyEngine } from '../games.ts';
import { killer21Engine } from './engine.ts';

const erased: Omit<AnyEngine, 'id'> = killer21Engine;

/** The Killer-21 engine with its types erased, for the shared tools. */
export const killer21AsAnyEngine: AnyEngine = {
  ...erased,
  // The only cast: 'killer-21' is not a GameId until phase B (see contract.ts).
  id: killer21Engine.id as string as GameId,
};

/**
 * The two places a game whose configuration lists its players meets its `resolveConfig`: the table's
 * configuration check (`GameDefinition.checkRules`) and the engine's `setup`. Shared so that every such game
 * refuses a bad configuration the same way: `BAD_CONFIG` with every complaint, and no state.
 */
import { applied, reject, type Outcome } from './outcome.ts';

/** A game's `resolveConfig`: the full configuration, or every complaint about the input (`key: message`). */
export type ResolveConfig<C extends object> = (raw: unknown) => C | { readonly errors: readonly string[] };

/** `GameDefinition.checkRules` for such a game: the resolver's complaints about `rules` played by these seats. */
export function checkSeatedRules<C extends object>(resolve: ResolveConfig<C>) {
  return (rules: Readonly<Record<string, unknown>>, seats: readonly { readonly id: string }[]): readonly string[] => {
    const resolved = resolve({ ...rules, players: seats.map((s) => s.id) });
    return 'errors' in resolved ? resolved.errors : [];
  };
}

/**
 * `GameEngine.setup` for such a game: the resolved configuration's first state and events, or `BAD_CONFIG`
 * with every complaint joined by `; `.
 */
export function setupFrom<C extends object, S, E>(
  resolve: ResolveConfig<C>, newGame: (config: C, seed: number | string) => { state: S; events: readonly E[] },
) {
  return (config: unknown, seed: number | string): Outcome<S, E, 'BAD_CONFIG'> => {
    const resolved = resolve(config);
    if ('errors' in resolved) return reject('BAD_CONFIG', resolved.errors.join('; '));
    const { state, events } = newGame(resolved, seed);
    return applied(state, events);
  };
}

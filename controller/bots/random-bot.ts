/**
 * A bot that plays any game by choosing uniformly among the engine's legal actions with a seeded generator.
 * Uniform choice over legal actions is enough to exercise every rule path, and it never plays an illegal
 * action, so every rejection in a simulation is a bug.
 */
import { nextInt, type Rng } from '../kernel/random.ts';
import type { BaseAction } from '../rules/engine.ts';

/** Picks one of `actions` (non-empty). Returns the action and the next generator state. */
export function pickRandom<A extends BaseAction>(rng: Rng, actions: readonly A[]): [A, Rng] {
  const [i, next] = nextInt(rng, actions.length);
  return [actions[i] as A, next];
}

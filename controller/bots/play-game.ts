/**
 * Plays complete games with random bots: the engine of `zaptable simulate`, of the property tests and of the
 * demo table. Time is simulated: each action happens a random 50–800 ms after the one before, and carries
 * that time as `at`, so real-time games (Zip-Zap) see increasing timestamps.
 */
import { nextInt, seedRng, type Rng } from '../kernel/random.ts';
import type { BaseAction, GameResult } from '../rules/engine.ts';
import type { AnyEngine } from '../rules/games.ts';
import { pickRandom } from './random-bot.ts';

export interface PlayedGame {
  readonly config: Record<string, unknown> & { readonly players: readonly string[] };
  readonly seed: number | string;
  /** Every applied action, in order: an action log that `zaptable replay` reproduces exactly. */
  readonly actions: readonly BaseAction[];
  /** How many actions were applied (also when the log was not kept). */
  readonly actionCount: number;
  readonly finalState: unknown;
  readonly result: GameResult;
}

export interface PlayOptions {
  /** Stop a game that has not ended after this many actions (a bug guard; counts as an error). */
  readonly maxActions?: number;
  /** Called after every applied action with the new state (property tests check invariants here). */
  readonly onState?: (state: unknown, action: BaseAction, index: number) => void;
  /** Keep the action log (costs memory on long simulations). Default true. */
  readonly recordActions?: boolean;
}

export class SimulationError extends Error {
  constructor(message: string, readonly seed: number | string, readonly actions: readonly BaseAction[]) {
    super(message);
    this.name = 'SimulationError';
  }
}

/**
 * Plays one game to the end. The bot's choices come from a generator seeded with `bot:<seed>`, the game's
 * own randomness from `seed`, so the same seed always gives the same game.
 */
export function playGame(
  engine: AnyEngine,
  config: Record<string, unknown> & { readonly players: readonly string[] },
  seed: number | string,
  options: PlayOptions = {},
): PlayedGame {
  const maxActions = options.maxActions ?? 100_000;
  const record = options.recordActions ?? true;
  const setup = engine.setup(config, seed);
  if (!setup.ok) throw new SimulationError(`setup rejected: ${setup.code}: ${setup.message}`, seed, []);
  let state = setup.state;
  let rng: Rng = seedRng(`bot:${String(seed)}`);
  let clock = 0;
  const actions: BaseAction[] = [];
  for (let i = 0; i < maxActions; i++) {
    if (engine.result(state).over) {
      return { config, seed, actions, actionCount: i, finalState: state, result: engine.result(state) };
    }
    const legal = engine.legalActions(state);
    if (legal.length === 0) throw new SimulationError('no legal action but the game is not over', seed, actions);
    let chosen: BaseAction;
    [chosen, rng] = pickRandom(rng, legal);
    let delay: number;
    [delay, rng] = nextInt(rng, 750);
    clock += 50 + delay;
    const action = chosen.at === undefined ? { ...chosen, at: clock } : chosen;
    const outcome = engine.apply(state, action);
    if (!outcome.ok) {
      throw new SimulationError(`legal action rejected: ${outcome.code}: ${outcome.message} (${JSON.stringify(action)})`, seed, actions);
    }
    state = outcome.state;
    if (record) actions.push(action);
    options.onState?.(state, action, i);
  }
  throw new SimulationError(`game not over after ${maxActions} actions`, seed, actions);
}

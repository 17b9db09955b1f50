/**
 * The shape every rules engine has, so that the simulator, the scenario runner, replay and the table runtime
 * drive every game the same way. An engine is a set of pure functions over plain JSON data. Which engines exist
 * is the game plug-in registry's business (controller/rules/games.ts, docs/adding-a-game.md), not this file's.
 */
import type { PublicRefusal } from './common/spectator.ts';
import type { Outcome, Rejection } from './common/outcome.ts';
import type { Viewer } from './common/viewer.ts';

/**
 * A game's id (`zapp-zerapp`, `zip-zap`, `killer-21`): lowercase, digits and `-`. Which ids exist is the
 * registry's list (`isGameId` in controller/rules/games.ts checks a value against it).
 */
export type GameId = string;

/** Every action is a JSON object with a `type`; `at` (controller time in ms) is optional unless a game needs it. */
export interface BaseAction {
  readonly type: string;
  /** When the action happened, in ms on the controller's clock (mapped device time for sensor events). */
  readonly at?: number;
}

/** The final (or current) standing of a game, for statistics and history. */
export interface GameResult {
  /** Whether the game has ended. */
  readonly over: boolean;
  /** Winning player ids (more than one on a shared win). Empty while the game runs. */
  readonly winners: readonly string[];
  /** Per-player score as the game defines it (penalty points, round wins, pieces in the city). */
  readonly scores: Readonly<Record<string, number>>;
  /** Rounds completed so far. */
  readonly rounds: number;
}

export interface GameEngine<S, A extends BaseAction, E, V, C extends string, Cfg> {
  readonly id: GameId;
  /**
   * Creates a new game from a (partial) configuration and a seed. Returns a rejection with code
   * `BAD_CONFIG` (or a more specific code) when the configuration is invalid.
   */
  setup(config: Partial<Cfg> & { readonly players: readonly string[] }, seed: number | string): Outcome<S, E, C>;
  /** Applies one action. Pure: the input state is never mutated; a rejection changes nothing. */
  apply(state: S, action: A): Outcome<S, E, C>;
  /**
   * The actions that would be accepted now (for bots, the dashboard's move list and tests). Actions that
   * carry a free choice of timestamp are returned without `at`. Empty only when the game is over.
   */
  legalActions(state: S): A[];
  /** What `viewer` may see. Pure; the result is plain JSON. */
  view(state: S, viewer: Viewer): V;
  /** Scores, winners and progress. */
  result(state: S): GameResult;
  /**
   * Checks that an unknown JSON value is a well-formed action of this game (not that it is legal). A refusal
   * carries a code from the game's catalogue (`BAD_ACTION`, or `UNKNOWN_FIELD` for a field the type does not
   * have), so a scenario or a request can expect it like any other rejection.
   */
  parseAction(value: unknown): A | ActionShapeError;
  /**
   * A refusal of `action` as it may leave the process (a response, a public event): unchanged when it depends
   * on public facts only, `HIDDEN_REASON` with a neutral message when it could tell a hidden fact (a hand, an
   * unrevealed barrel). Pure.
   */
  publicRejection(action: unknown, rejection: Rejection): PublicRefusal;
  /**
   * Builds a state from a compact scenario description (a game that may start mid-way, see
   * docs/rules-engine.md). Rejects with `BAD_SETUP` when the description is inconsistent.
   */
  fromScenario(setup: unknown): Outcome<S, E, C | 'BAD_SETUP'>;
}

/** What every game's `parseAction` returns for a malformed action: the message and a catalogue code. */
export interface ActionShapeError {
  readonly error: string;
  readonly code: 'BAD_ACTION' | 'UNKNOWN_FIELD';
}

/** An engine with its types erased, for code that handles every game. */
export type AnyEngine = GameEngine<unknown, BaseAction, unknown, unknown, string, unknown>;

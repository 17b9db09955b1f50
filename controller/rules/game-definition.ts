/**
 * A game's definition: what every layer needs to know about a game besides its table hardware, in one object
 * (boardgame.io's game object is the model). It is pure data and pure functions over the game's own engine,
 * so the configuration, the MQTT transport, persistence, scenarios and the tools can all use it. The table
 * half of a plug-in (sensor events → actions, lamps, timers, the table bot) is `TablePlugin` in
 * runtime/games/table-plugin.ts. The registry of definitions is games.ts; how to add a game:
 * docs/adding-a-game.md.
 */
import type { AnyEngine, GameId } from './engine.ts';

/** A seat as the configuration gives it to the game. */
export interface DefinitionSeat {
  readonly id: string;
  readonly colour?: string;
}

export interface GameDefinition {
  readonly id: GameId;
  /** The game's name for people (CLI, dashboard). */
  readonly title: string;
  readonly engine: AnyEngine;
  /** How many seats the game takes at a table (the engine's own player limits). */
  readonly seats: readonly [min: number, max: number];

  // ---------------------------------------------------------------- configuration (`tables[].rules`, table keys)
  /** The options a table's `rules:` may set (for "did you mean" and environment overrides). */
  readonly rulesKeys: readonly string[];
  /** Keys of the engine configuration that come from `seats` and must not be written in `rules`. */
  readonly rulesFromSeats: readonly string[];
  /** The engine configuration of a table: its `rules` plus what comes from the seats (players are added later). */
  engineRules(rules: Readonly<Record<string, unknown>>, seats: readonly DefinitionSeat[]): Record<string, unknown>;
  /** The engine's complaints about a table's `rules` (its `resolveConfig` messages, `key: message`); none when valid. */
  checkRules(rules: Readonly<Record<string, unknown>>, seats: readonly DefinitionSeat[]): readonly string[];
  /**
   * Valid `rules` that depart from the printed game (`key: what the house rule changes`), shown by `zaptable
   * config check` and at start as notes, so a house rule is always a choice someone can see. Optional.
   */
  houseRules?(rules: Readonly<Record<string, unknown>>): readonly string[];
  /** Table keys besides `seats` and `rules` that this game reads (`pileStation`, `chips`); other games refuse them. */
  readonly tableKeys: readonly string[];
  /** Seat colours the game itself uses (Zapp Zerapp's four homes): filled in seat order, each once, and checked. */
  readonly seatColours?: readonly string[];

  // ---------------------------------------------------------------- publishing
  /** The public form of one engine event, or null when it must not be published at all (principle 2). */
  publicEvent(event: { readonly type: string }): object | null;
  /** MQTT requests that belong to this game only (a table playing another game answers NOT_AVAILABLE). */
  readonly requests: readonly string[];
  /**
   * The cards of `player`'s hand the engine knows, for the simulator panel's "Show hand" (`simulated-hand`), and
   * whether that is the whole hand (false when the cards were dealt at the table and not all registered).
   * Absent for a game without hands.
   */
  knownHand?(state: unknown, player: string): { readonly cards: readonly string[]; readonly complete: boolean };

  // ---------------------------------------------------------------- tools
  /** `zaptable simulate`: seat ids (up to the maximum), variants (name → engine options), the default variant. */
  readonly simulation: {
    readonly playerIds: readonly string[];
    readonly variants: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
    readonly defaultVariant: string;
  };
  /** `zaptable demo`: the game the demo plays, and how it is described. */
  readonly demo: {
    readonly label: string;
    readonly config: Readonly<Record<string, unknown>> & { readonly players: readonly string[] };
  };
}

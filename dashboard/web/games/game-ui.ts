/**
 * What the dashboard knows of one game: its page, and optionally its line on the overview, its simulator panel,
 * its referee controls and its new-game options. Every part is looked up by the game id in `registry.ts`, so the
 * router, the overview, the simulator page and the referee page name no game (adding a game is one folder under
 * `games/` plus one line in the registry; docs/adding-a-game.md).
 */
import type { ControlResult } from '../api.ts';
import type { Page, PageContext } from '../page.ts';
import type { BridgeSeat } from '../types.ts';

/** The overview's three lines for a table. */
export interface OverviewLine {
  readonly game: string;
  readonly players: string;
  readonly phase: string;
}

/** What the simulator page lends a game's panel. */
export interface SimulatorKit {
  readonly ctx: PageContext;
  /** The seats with their stations: from `bridge/tables` when published, else `seat-N` in player order. */
  seats(players: readonly string[]): BridgeSeat[];
}

/** A game's part of a page that lives as long as the page: built once, updated from the store. */
export interface GamePart {
  readonly element: HTMLElement;
  /** Re-renders from the store; it must keep its inputs, selection and focus where nothing changed. */
  update(): void;
  destroy?(): void;
}

/** What the referee page lends a game's controls. */
export interface RefereeKit {
  readonly ctx: PageContext;
  /** Sends a request, shows its answer in the page's status line, resolves whether it was applied. */
  send(what: string, name: string, params: Record<string, unknown>): Promise<boolean>;
  /** A modal "are you sure?" (resolves true on yes). */
  confirm(text: string): Promise<boolean>;
}

/** One choice of the new-game form's "Variant" select: sent as `config[key] = value`. */
export interface VariantChoice {
  readonly value: string;
  readonly label: string;
}

export interface GameUi {
  /** The engine's game id (`state.game`). */
  readonly id: string;
  /** The name people read. */
  readonly title: string;
  /** The game page of `#/table/<id>`. */
  readonly page: (ctx: PageContext) => Page;
  /** The overview's lines; absent: the overview's own (legacy) code for the game. */
  readonly overview?: (view: unknown) => OverviewLine;
  /** The simulator panel's seats part; absent: the simulator page's own (legacy) code. */
  readonly simulator?: (kit: SimulatorKit) => GamePart;
  /** The referee page's live controls; absent: the referee page's own (legacy) code. */
  readonly referee?: (kit: RefereeKit) => GamePart;
  /** The new-game form's variants and the config key they set. */
  readonly newGame?: { readonly key: string; readonly variants: readonly VariantChoice[] };
}

export type { ControlResult };

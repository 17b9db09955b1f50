/**
 * What the dashboard knows of one game: its page, its line on the overview, its simulator panel, its referee
 * controls and its new-game options, every part required. Every part is looked up by the game id in
 * `registry.ts`, so the router, the overview, the simulator page and the referee page name no game (adding a game
 * is one folder under `games/` plus one line in the registry; docs/adding-a-game.md). A test
 * (test/dashboard/game-registry.test.ts) fails if a file outside `games/<id>/` names a game id.
 */
import type { ControlResult } from '../api.ts';
import type { PlayNote } from '../event-order.ts';
import type { NameOf } from '../names.ts';
import type { RefusalSentences } from '../refusal-text.ts';
import type { Page, PageContext } from '../page.ts';
import type { RecordUi } from './record-ui.ts';
import type { BridgeSeat, PublicEventJson } from '../types.ts';

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
  /**
   * Sends a `simulate` request and shows the table's verdict in the page's result line (a panel that shows
   * outcomes itself, as Killer-21's, sends its own requests instead).
   */
  simulate(what: string, params: Record<string, unknown>): Promise<void>;
  /**
   * The line above the seats: what the table waits for, so a person sitting in for a seat sees when it is their
   * turn; `you` marks it as waiting for a seat played from the simulator. Left empty if the panel never sets it.
   */
  waiting(text: string, you?: boolean): void;
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

/** What the new-game form offers for the running game before anyone edits it. */
export interface RunningGame {
  readonly variant?: string;
  readonly players: readonly string[];
}

/** The referee page's new-game form for a game. */
export interface NewGameForm {
  /** The config key the "Variant" select sets, and its choices. */
  readonly key: string;
  readonly variants: readonly VariantChoice[];
  /**
   * The seat colours the game takes, sent as `config.colours` (player → value); absent: the game takes none and
   * the form's colour selects are disabled for it.
   */
  readonly colours?: readonly VariantChoice[];
  /**
   * The running game's variant and players from its public view, to pre-fill the form; absent: the form offers
   * the table's configured seats (`bridge/tables`).
   */
  readonly running?: (view: unknown) => RunningGame;
}

/**
 * What the dashboard knows of a game before its code is loaded (`games/<id>/summary.ts`): enough for the
 * overview and the new-game form. Light, so the overview does not download the games' pages.
 */
export interface GameSummary {
  /** The engine's game id (`state.game`). */
  readonly id: string;
  /** The name people read. */
  readonly title: string;
  /** The overview card's game, players and phase lines, from the public view (`nameOf`: the seats' names). */
  readonly overview: (view: unknown, nameOf: NameOf) => OverviewLine;
  /**
   * The overview card's mini board: a small picture of the table (an SVG of a fixed size with a name in words,
   * `mini-svg.ts`), or null when there is nothing to draw. Optional: a game without one shows its lines only.
   */
  readonly miniBoard?: (view: unknown, nameOf: NameOf) => SVGSVGElement | null;
  /** The new-game form's variants (and seat colours, and how it pre-fills from the running game). */
  readonly newGame: NewGameForm;
}

/** A game's summary with its page, simulator part and referee controls (`games/<id>/index.ts`, loaded on demand). */
export interface GameUi extends GameSummary {
  /** The game page of `#/table/<id>`. */
  readonly page: (ctx: PageContext) => Page;
  /** The simulator page's seats part, while the game runs. */
  readonly simulator: (kit: SimulatorKit) => GamePart;
  /** The referee page's live controls, while the game runs. */
  readonly referee: (kit: RefereeKit) => GamePart;
  /**
   * The game's own events in sentences, with players by name (the referee page and every list of recent
   * events use it); events it does not know fall back to the shared sentences (common.ts). Optional: a game
   * whose events the shared sentences cover needs none.
   */
  readonly describeEvent?: (e: PublicEventJson, nameOf: NameOf, note?: PlayNote) => string;
  /**
   * The game's refusal codes in players' words (`games/<id>/refusals.ts`; refusal-text.ts has the table's own):
   * test/dashboard/refusal-text.test.ts checks every code of docs/rules-engine.md has one.
   */
  readonly refusals: RefusalSentences;
  /** The game record page's parts (score name, chart, a step's view): `record-ui.ts`. Optional. */
  readonly record?: RecordUi;
}

export type { ControlResult };

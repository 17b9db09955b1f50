/**
 * What a game's public record holds (docs/mqtt.md, request `record`): the shapes the log's record builder
 * (persistence/game-record.ts) makes, the `record` requests answer and the dashboard's record page reads.
 * Types only; nothing hidden fits in them (public events, public refusals, the standing, no seed).
 */
import type { GameId, GameResult } from './engine.ts';

/** A game in the list of a table's games: who played, when, how it ended. Nothing hidden. */
export interface RecordedGame {
  readonly id: number;
  readonly table: string;
  readonly game: GameId;
  readonly players: readonly string[];
  readonly startedAtMs: number;
  /** null while the game runs (or was never ended: a controller stopped mid-game that has not restarted). */
  readonly endedAtMs: number | null;
  /** The result logged at its end; null while it runs. */
  readonly result: GameResult | null;
}

/** One step of the record: the setup (step 0) or one action in force, with what it made public. */
export interface RecordStep {
  readonly step: number;
  /** The log's seq of the action (null for the setup). */
  readonly seq: number | null;
  /** When it was logged, ms on the controller's wall clock. */
  readonly at: number;
  /** The action's type (`play`, `move`, …): public, the audit topic lists it too. Null for the setup. */
  readonly action: string | null;
  /** The engine's events of the step in their public form (the same filter as the `events` topic). */
  readonly events: readonly object[];
  /** The standing after the step (the engine's `result`: penalty points, lives, pieces in the city). */
  readonly rounds: number;
  readonly scores: Readonly<Record<string, number>>;
  readonly over: boolean;
}

/** A refused action as it was announced (`ACTION_REFUSED`), between the steps it fell between. */
export interface RecordRefusal {
  readonly seq: number;
  readonly at: number;
  /** Refused while the game stood after this step. */
  readonly afterStep: number;
  readonly action: string;
  readonly code: string;
  readonly message: string;
}

/** A referee's undo, as it was announced (`ACTION_UNDONE`): the undone action is not among the steps. */
export interface RecordCorrection {
  readonly seq: number;
  readonly at: number;
  /** Undone while the game stood after this step (the undone action's own step is gone from the record). */
  readonly afterStep: number;
  /** The type of the action taken back. */
  readonly undone: string;
  readonly reason: string;
}

export interface PublicGameRecord {
  readonly game: RecordedGame;
  /** Steps 0…n; `steps.length - 1` actions in force. */
  readonly steps: readonly RecordStep[];
  readonly refusals: readonly RecordRefusal[];
  readonly corrections: readonly RecordCorrection[];
}

/**
 * The game-specific half of the table runtime: how sensor events become intents, which automatic follow-ups a
 * state calls for, which timed action it waits for, and what the lamps show. One implementation per game (in
 * the game's own folder under runtime/, made by its plug-in's `table` factory); the runtime does the rest.
 */
import type { LampPattern, SensorEvent, StationId } from '../../hardware/interface.ts';
import type { Rejection } from '../../kernel/result.ts';
import type { GameId } from '../../rules/engine.ts';
import type { Intent, RuntimeAction } from '../intents.ts';
import type { Pads } from '../pads/pad-state.ts';
import type { TagRegistry } from '../registry/tag-registry.ts';
import type { BarrelWeights } from '../calibration/barrel-weights.ts';

/**
 * A play waiting for the arbitration window, with its landing interval: the runtime collects every play that
 * lands within `arbitrationWindowMs` and hands them to the game's `batch` as one action, so the engine orders
 * them by landing time and not by arrival (principle 4).
 */
export interface QueuedPlay {
  readonly kind: 'queue-play';
  /** The play as the game's `batch` takes it (JSON), with its landing time and who played it. */
  readonly play: { readonly at: number; readonly player: string };
  /** The sensor event's station. */
  readonly station: StationId;
}

/** What one sensor event asks for: intents carried out now, plays queued for the arbitration window. */
export type TableInput = Intent | QueuedPlay;

/** An action the state waits for after a delay (the ORACLE's stuck announcement, a Killer window's deadline). */
export interface TimedAction {
  /** ms from now (the game clock); ≤ 0 fires on the next turn of the event loop. */
  readonly delayMs: number;
  /** The action; the runtime stamps `at` with the time it fires. */
  readonly action: RuntimeAction;
}

export interface TableGame {
  readonly id: GameId;
  /** Decisions for one sensor event (`padsBefore` is the pads without it, `padsAfter` includes it). */
  onSensor(state: unknown, padsAfter: Pads, event: SensorEvent, padsBefore: Pads): TableInput[];
  /** The one action for a batch of queued plays (only for games whose `onSensor` queues plays). */
  batch?(plays: readonly QueuedPlay['play'][], at: number): RuntimeAction;
  /** Actions the state calls for by itself after any change (a barrel placed early, the reveal). */
  followUps(state: unknown, pads: Pads, at: number): Intent[];
  /**
   * Why a referee's request for `action` must wait for the table (as the seat button would), or null: a
   * Zapp Zerapp roll while a barrel lies on a seat pad would make that barrel the seat's secret choice.
   */
  requestRefusal(
    state: unknown, pads: Pads, action: { readonly type: string },
  ): Rejection | null;
  /** The lamp pattern per player. */
  lamps(state: unknown): Record<string, LampPattern>;
  /**
   * Players whose lamp flashes `error` for a moment after these engine events, to ask their hands for
   * something: take a refused card back (Zip-Zap), take a chip off (Killer-21).
   */
  flashFor(events: readonly unknown[]): string[];
  /**
   * The action this state waits for after a delay, or null. Re-asked after every change of state; a new state
   * cancels the old timer (Zip-Zap ORACLE: `announce-stuck`; Killer-21: `close-window` at the deadline).
   */
  timer(state: unknown, nowMs: number): TimedAction | null;
}

/** What a game's table adapter is built from (the plug-in's `table` factory gets it from the configuration). */
export interface TableContext {
  /** Station id → player; stations not listed (a pile station) are not seats. */
  readonly seatOfStation: Readonly<Record<StationId, string>>;
  /** The station under the discard pile, if the table has one. */
  readonly pileStation?: StationId;
  readonly registry: TagRegistry;
  /** Learned barrel weights (Zapp Zerapp), when calibrated. */
  readonly weights?: BarrelWeights;
  /** The table's game-specific `table` options from the configuration (e.g. Killer-21's chips). */
  readonly options: Readonly<Record<string, unknown>>;
}

/** The `player` of every event of this type (for `flashFor`). */
export function playersOf(events: readonly unknown[], type: string): string[] {
  const out: string[] = [];
  for (const event of events) {
    const e = event as { type?: unknown; player?: unknown };
    if (e.type === type && typeof e.player === 'string') out.push(e.player);
  }
  return out;
}

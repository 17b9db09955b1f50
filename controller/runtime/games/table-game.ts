/**
 * The game-specific half of the table runtime: how sensor events become intents, which automatic follow-ups a
 * state calls for, and what the lamps show. One implementation per game; the runtime does the rest.
 */
import type { LampPattern, SensorEvent, StationId } from '../../hardware/interface.ts';
import type { GameId } from '../../rules/engine.ts';
import type { Intent } from '../intents.ts';
import type { Pads } from '../pads/pad-state.ts';
import type { ZipInput } from '../zip-zap/card-pads.ts';

export interface TableGame {
  readonly id: GameId;
  /** Decisions for one sensor event (`padsAfter` includes it). Plays may be queued for time ordering. */
  onSensor(state: unknown, padsAfter: Pads, event: SensorEvent): ZipInput[];
  /** Actions the state calls for by itself after any change (a barrel placed early, the reveal). */
  followUps(state: unknown, pads: Pads, at: number): Intent[];
  /**
   * Why a referee's request for `action` must wait for the table (as the seat button would), or null: a
   * Zapp Zerapp roll while a barrel lies on a seat pad would make that barrel the seat's secret choice.
   */
  requestRefusal(
    state: unknown, pads: Pads, action: { readonly type: string },
  ): { readonly code: string; readonly message: string } | null;
  /** The lamp pattern per player. */
  lamps(state: unknown): Record<string, LampPattern>;
  /** ORACLE stuck knowledge: ms after which `announce-stuck` is due, or null when nobody is stuck. */
  stuckAnnounceDelay(state: unknown): number | null;
}

export interface SeatMap {
  readonly seatOfStation: Readonly<Record<StationId, string>>;
  readonly pileStation?: StationId;
}

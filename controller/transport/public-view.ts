/**
 * The only door from the game to a public topic (design principle 2). `publishState` and `publishEvent`
 * accept only the branded types made here, and these functions build them only from the engines' public
 * view and public event filter. No hand and no unrevealed barrel can reach MQTT by another path without a
 * cast, and the one cast of each brand lives in this file.
 */
import type { GameId } from '../rules/engine.ts';
import { findGame, type AnyEngine } from '../rules/games.ts';
import { PUBLIC } from '../rules/common/viewer.ts';
import type { BuzzerEvent } from '../buzzer/types.ts';
import type { BuzzerView } from '../buzzer/view.ts';
import type {
  BuzzerStatePayload, EventFields, GameStatePayload, IdleStatePayload, PublicBuzzerView, PublicEvent, PublicView, TableEvent,
} from './payloads.ts';

/** Where an event or state sits in the table's history. */
export interface PublishMeta {
  /** The table's event sequence number (of this event, or of the last event before this state). */
  readonly seq: number;
  /** ms on the controller's clock. */
  readonly at: number;
  /**
   * This start of the controller (ms since 1970 when it started, larger at every start): `seq` starts again
   * after a restart, so `(epoch, seq)` is what identifies an event. Every payload the controller publishes has it.
   */
  readonly epoch?: number;
}

function epochOf(meta: PublishMeta): { readonly epoch?: number } {
  return meta.epoch === undefined ? {} : { epoch: meta.epoch };
}

/** The public state of a running (or finished) game: `engine.view(state, {role: 'public'})`. */
export function publicStateOf(engine: AnyEngine, state: unknown, meta: PublishMeta): GameStatePayload {
  const view = engine.view(state, PUBLIC) as PublicView;
  return { mode: 'game', game: engine.id, seq: meta.seq, at: meta.at, ...epochOf(meta), view };
}

/** The state of a table with no game. */
export function idleStateOf(meta: PublishMeta): IdleStatePayload {
  return { mode: 'idle', seq: meta.seq, at: meta.at, ...epochOf(meta) };
}

function isEventObject(event: unknown): event is { readonly type: string; readonly at?: unknown } {
  return typeof event === 'object' && event !== null && typeof (event as { type?: unknown }).type === 'string';
}

/**
 * The public form of an engine event with its envelope, or null when the event must not be published at all.
 * Every event passes through its game plug-in's `publicEvent` filter (Zip-Zap's `toPublicEvent`; Zapp Zerapp's
 * and Killer-21's events are public by construction, docs/rules-engine.md). An event of an unknown game is
 * never published.
 */
export function publicEventOf(game: GameId, event: unknown, meta: PublishMeta): PublicEvent | null {
  if (!isEventObject(event)) return null;
  const plugin = findGame(game);
  const visible = plugin === undefined ? null : plugin.publicEvent(event);
  return visible === null ? null : envelope(visible, meta);
}

/** The state of a buzzer table: its public view (buzzer mode hides nothing, but only the view is published). */
export function buzzerStateOf(view: BuzzerView, meta: PublishMeta): BuzzerStatePayload {
  return { mode: 'buzzer', seq: meta.seq, at: meta.at, ...epochOf(meta), buzzer: view as PublicBuzzerView };
}

/** A buzzer-mode event (docs/mqtt.md, "buzzer mode") with its envelope. */
export function buzzerEventOf(event: BuzzerEvent, meta: PublishMeta): PublicEvent {
  return envelope(event, meta);
}

/** A table runtime event (no hidden information by construction) with its envelope. */
export function tableEventOf(event: TableEvent, meta: PublishMeta): PublicEvent {
  return envelope(event, meta);
}

function envelope(event: object, meta: PublishMeta): PublicEvent {
  // An event's own `at` (when a card landed) is more precise than the action's time, so it wins.
  const own = (event as { at?: unknown }).at;
  const fields: EventFields = {
    ...event, type: (event as { type: string }).type, seq: meta.seq, ...epochOf(meta), at: typeof own === 'number' ? own : meta.at,
  };
  return fields as PublicEvent;
}

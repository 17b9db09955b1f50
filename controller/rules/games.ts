/**
 * The registry of rules engines, so that tools (simulate, replay, scenarios, the table runtime) can pick a game
 * by its id.
 */
import type { BaseAction, GameEngine, GameId } from './engine.ts';
import { zappZerappEngine } from './zapp-zerapp/index.ts';
import { toPublicEvent as zipPublicEvent, zipZapEngine, type ZipZapEvent } from './zip-zap/index.ts';

/** An engine with its types erased, for code that handles either game. */
export type AnyEngine = GameEngine<unknown, BaseAction, unknown, unknown, string, unknown>;

const ENGINES: Readonly<Record<GameId, AnyEngine>> = {
  'zip-zap': zipZapEngine,
  'zapp-zerapp': zappZerappEngine,
};

export function getEngine(id: GameId): AnyEngine {
  return ENGINES[id];
}

export function isGameId(value: unknown): value is GameId {
  return value === 'zip-zap' || value === 'zapp-zerapp';
}

/**
 * The events that may be published, with secrets removed (design principle 2). Zip-Zap drops the ORACLE's
 * private stuck knowledge and the cards of refused plays; Zapp Zerapp events carry no barrel number before
 * the reveal, so they are all public.
 */
export function toPublicEvents(id: GameId, events: readonly unknown[]): unknown[] {
  if (id === 'zapp-zerapp') return [...events];
  const out: unknown[] = [];
  for (const e of events) {
    const p = zipPublicEvent(e as ZipZapEvent);
    if (p !== null) out.push(p);
  }
  return out;
}

/**
 * What the table runtime needs from the outside world, as small interfaces. The composition root plugs in the
 * SQLite event log, the MQTT channel, the hardware and a real scheduler; tests plug in memory fakes. The
 * runtime itself does no I/O.
 */
import type { LampPattern, SensorEvent, StationId } from '../hardware/interface.ts';
import type { Result } from '../kernel/result.ts';
import type { BaseAction, GameId } from '../rules/engine.ts';

export interface GameInfo {
  readonly tableId: string;
  readonly game: GameId;
  /** The engine configuration, players included. */
  readonly config: Readonly<Record<string, unknown>> & { readonly players: readonly string[] };
  readonly seed: number | string;
}

/** The append-only log (principle 8): everything is recorded before it is published. */
export interface RuntimeLog {
  /** A new game starts; returns its id. */
  startGame(info: GameInfo): string;
  sensor(tableId: string, gameId: string | null, event: SensorEvent): void;
  /** An applied action; returns its sequence number in the log (an undo names it). */
  action(tableId: string, gameId: string, action: BaseAction): number;
  rejected(tableId: string, gameId: string, action: BaseAction, code: string, message: string): void;
  /** A referee's correction recorded for the audit trail (a play entered by hand, a station removed). */
  correction(tableId: string, gameId: string, correction: Correction): void;
  /**
   * Takes back the last action in force: records the undo and returns the game rebuilt from the log without
   * it (the log is the source of truth, so an undo survives a restart exactly like any other entry).
   */
  undoLast(
    tableId: string, gameId: string, by: string, reason?: string,
  ): Result<{ readonly undoneSeq: number; readonly state: unknown }>;
  endGame(gameId: string, result: unknown): void;
  /** Makes everything appended so far durable; the runtime publishes only after it returns. */
  commit(): void;
}

export type Correction =
  | { readonly kind: 'enter'; readonly by: string; readonly reason?: string; readonly action: BaseAction }
  | { readonly kind: 'remove-station'; readonly by: string; readonly reason?: string; readonly station: StationId };

/** Something the runtime itself announces (no hidden information by construction). */
export type RuntimeEvent =
  | { readonly type: 'NEW_GAME'; readonly game: GameId; readonly players: readonly string[] }
  | { readonly type: 'ACTION_UNDONE'; readonly undoneSeq: number; readonly reason?: string }
  | { readonly type: 'CORRECTION_APPLIED'; readonly reason: string }
  | { readonly type: 'STATION_REMOVED'; readonly station: string }
  | { readonly type: 'NOTICE'; readonly code: string; readonly message: string; readonly station?: string; readonly player?: string }
  /**
   * An action (from the sensors or a request) was refused by the engine; nothing changed. As the one public rule
   * (rules/common/spectator.ts) lets it out: `code` or `HIDDEN_REASON`, `message` and `reason` (the catalogue's
   * sentence), `card` only when the public reason is about the card, `player` the action names (if any).
   */
  | {
    readonly type: 'ACTION_REFUSED'; readonly action: string; readonly code: string; readonly message: string;
    readonly reason: string; readonly card: string | null; readonly player?: string;
  };

/** An event waiting to be published: an engine event (filtered by the publisher) or the runtime's own. */
export type PendingEvent =
  | { readonly source: 'engine'; readonly event: unknown }
  | { readonly source: 'table'; readonly event: RuntimeEvent };

/**
 * Where the table's public face goes (MQTT). The publisher must let out only the public view of the state
 * and the public form of engine events (the transport's `publicStateOf` / `publicEventOf` do exactly that).
 */
export interface RuntimePublisher {
  state(tableId: string, game: GameId, engineState: unknown): void;
  events(tableId: string, game: GameId, events: readonly PendingEvent[]): void;
}

export interface Lamps {
  setLamp(station: StationId, pattern: LampPattern): void;
}

export interface Scheduler {
  /** Runs `fn` after `ms`; returns a cancel function. */
  after(ms: number, fn: () => void): () => void;
}

/**
 * The runtime's deadlines decide things like "no other station has an earlier play". A timer fires in the
 * event loop's timers phase, *before* the poll phase reads the serial lines that arrived while the loop was
 * busy (a GC pause, a burst of work): deciding there would let a stall, not the stamps, leave a line out. So
 * the callback runs in the check phase (setImmediate) of the turn in which the timer fired, after that turn's
 * poll phase has read what had arrived by the deadline.
 */
export const realScheduler: Scheduler = {
  after(ms, fn) {
    let immediate: NodeJS.Immediate | undefined;
    const t = setTimeout(() => {
      immediate = setImmediate(fn);
    }, ms);
    return () => {
      clearTimeout(t);
      if (immediate !== undefined) clearImmediate(immediate);
    };
  },
};

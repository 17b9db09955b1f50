/**
 * The payload of every MQTT message zaptable sends or accepts (docs/mqtt.md has an example of each). Payloads
 * are JSON, except the availability topics, which carry the bare strings `online`/`offline` as Zigbee2MQTT's
 * users expect.
 */
import type { VenueNotice } from './venue.ts';
import type { BuzzerView } from '../buzzer/view.ts';
import type { HostDelaySnapshot } from '../kernel/stats.ts';
import type { GameId } from '../rules/engine.ts';

/** Any JSON value. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

declare const PUBLIC_BRAND: unique symbol;

/**
 * A game's public view (`engine.view(state, {role: 'public'})`). Branded: the only way to get one is
 * `publicStateOf` in `public-view.ts`, so nothing else (an omniscient view, a player's view, a raw state) can
 * reach `publishState` (design principle 2).
 */
export interface PublicView { readonly [PUBLIC_BRAND]: 'public-view' }

declare const EVENT_BRAND: unique symbol;

/**
 * An event filtered for the public (hidden information removed or the event dropped). Branded: made only by
 * `publicEventOf` / `tableEventOf` in `public-view.ts`.
 */
export type PublicEvent = EventFields & { readonly [EVENT_BRAND]: 'public-event' };

/** `<base>/bridge/<controller>/status` and `<base>/<table>/status`. Retained; the last will is `offline`. */
export type Availability = 'online' | 'offline';

/** `<base>/bridge/<controller>/tables`: the tables this controller runs, so a dashboard can discover them. Retained. */
export interface BridgeTablesPayload {
  readonly tables: readonly BridgeTableEntry[];
  /** The controller's id (the `<controller>` level of the topic). */
  readonly controller?: string;
  /** This start of the controller (see `epoch` on states and events). */
  readonly epoch?: number;
  /**
   * Configured tables this controller did not start because another controller at the venue runs a table with
   * that id (`TABLE_ID_TAKEN`, docs/venue.md). `owner` is that controller's id.
   */
  readonly refused?: readonly RefusedTable[];
}

/** A configured table a controller refused to start: its id is live under another controller. */
export interface RefusedTable {
  readonly id: string;
  readonly code: 'TABLE_ID_TAKEN';
  readonly owner: string;
}

/** One table in `bridge/tables`: its id, and what a dashboard needs to present it (all optional). */
export interface BridgeTableEntry {
  readonly id: string;
  readonly name?: string;
  /** `zapp-zerapp`, `zip-zap` or `buzzer`. */
  readonly mode?: string;
  /** The table runs on simulated hardware: a simulator panel may be offered. */
  readonly simulated?: boolean;
  readonly seats?: readonly {
    readonly id: string; readonly name?: string; readonly colour?: string; readonly station?: string; readonly bot?: boolean;
  }[];
  readonly pileStation?: string;
  /**
   * The table's configured rules (`tables[].rules`: public, everyone at the table plays by them). A referee's
   * `new-game` keeps them unless its `config` changes a key; the dashboard's new-game form shows them.
   */
  readonly rules?: Readonly<Record<string, unknown>>;
}

/**
 * `<base>/bridge/<controller>/health`: what the controller and its embedded broker refused since this start, so an operator
 * sees an attack or a misconfigured client without reading logs. Retained; republished at most once a second.
 */
export interface BridgeHealthPayload {
  /** When these counts were taken, ms since 1970. */
  readonly at: number;
  /** This start of the controller (see `epoch` on states and events). */
  readonly epoch: number;
  /** The embedded broker's refusals; null on an external broker (which keeps its own). */
  readonly broker: {
    /** Logins refused: no username, a wrong password, an unknown user, or a client id reserved to another account. */
    readonly refusedConnections: number;
    /** Of those, logins refused because the client id is reserved to another account. */
    readonly reservedClientIds: number;
    readonly deniedPublishes: number;
    readonly deniedSubscriptions: number;
    readonly droppedDeliveries: number;
    /** Connections closed for sending a packet larger than the limit. */
    readonly oversizePackets: number;
    /** Referees' publishes held back because their connection sent faster than the broker's pace (500/s). */
    readonly pacedPublishes?: number;
  } | null;
  /** Requests: received, answered ok, answered from the transaction store, and errors by code. */
  readonly requests: {
    readonly received: number;
    readonly ok: number;
    readonly replayed: number;
    /** Refusals by code; `RATE_LIMITED` counts the requests refused by the per-client limits. */
    readonly errors: Readonly<Record<string, number>>;
    /** The most requests that were ever waiting for their answer at once (bounded by `mqtt.requests.queueTotal`). */
    readonly queuePeak?: number;
  };
  /**
   * The johnny-five buzzer hub, when one is configured: the host delay measured on this controller
   * (docs/buzzer-hub.md, *The host term, measured on the running controller*).
   */
  readonly hub?: { readonly hostDelay: HostDelaySnapshot };
  /** At a venue: what other controllers announced about this controller's tables (docs/venue.md). */
  readonly venue?: { readonly notices: readonly VenueNotice[] };
}

/** Fields every table state carries. */
interface StateMeta {
  /** The `seq` of the last event published before this state (0 before the first); starts again at every start. */
  readonly seq: number;
  /** This start of the controller (ms since 1970 at start-up, larger at every start); see `EventFields.epoch`. */
  readonly epoch?: number;
  /** When the state was last changed, ms since 1970 on the controller's wall clock. */
  readonly at: number;
}

/** `<base>/<table>/state` while no game runs. Retained. */
export interface IdleStatePayload extends StateMeta {
  readonly mode: 'idle';
}

/** `<base>/<table>/state` during (and after) a game. Retained. */
export interface GameStatePayload extends StateMeta {
  readonly mode: 'game';
  readonly game: GameId;
  /** The engine's public view; its shape per game is in docs/rules-engine.md. */
  readonly view: PublicView;
}

declare const BUZZER_BRAND: unique symbol;

/** A buzzer table's public view (`buzzerView(state)`), branded like `PublicView`: made only by `buzzerStateOf`. */
export type PublicBuzzerView = BuzzerView & { readonly [BUZZER_BRAND]: 'buzzer-view' };

/** `<base>/<table>/state` of a table in buzzer mode. Retained. Its fields are in docs/mqtt.md ("buzzer mode"). */
export interface BuzzerStatePayload extends StateMeta {
  readonly mode: 'buzzer';
  readonly buzzer: PublicBuzzerView;
}

/** `<base>/<table>/state`. */
export type StatePayload = IdleStatePayload | GameStatePayload | BuzzerStatePayload;

/** The envelope of every event on `<base>/<table>/events`. Not retained. */
export interface EventFields {
  /** Per-table sequence number, +1 per event; a gap tells a subscriber it missed events. Starts again at 1 after a restart. */
  readonly seq: number;
  /**
   * This start of the controller: ms since 1970 at start-up, larger at every start. `(epoch, seq)` identifies an
   * event; a new epoch means a restart (seq starts again), not a repeat. Always set by the controller.
   */
  readonly epoch?: number;
  /** When it happened, ms on the controller's clock (the action's time, or the event's own `at`). */
  readonly at: number;
  /** Engine events use the engines' UPPER_CASE types (docs/rules-engine.md); table events are listed below. */
  readonly type: string;
  readonly [field: string]: unknown;
}

/**
 * Events the table runtime emits itself (engine events come from the engines; these names must not clash with
 * theirs). Extend this union when the runtime needs a new one, and document it in docs/mqtt.md.
 */
export type TableEvent =
  /** A `new-game` request replaced whatever ran (the engine's own setup events follow). */
  | { readonly type: 'NEW_GAME'; readonly game: GameId; readonly players: readonly string[] }
  | { readonly type: 'ACTION_UNDONE'; readonly undoneSeq: number; readonly reason?: string }
  | { readonly type: 'CORRECTION_APPLIED'; readonly reason: string }
  | { readonly type: 'STATION_REMOVED'; readonly station: string }
  /** The table saw something the referee should know; nothing changed. */
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

/**
 * `<base>/<table>/health/<station>`. Retained. Structurally identical to the hardware layer's `StationHealth`
 * (transport may not import hardware; `test/transport/payload-types.test.ts` keeps the two in step).
 * `clock.uncertaintyUs` is `null` in JSON while unbounded (JSON has no Infinity).
 */
export interface HealthPayload {
  readonly station: string;
  readonly kind: 'seat' | 'pile' | 'hub' | 'simulated';
  readonly online: boolean;
  readonly firmware?: string;
  readonly protocol?: number;
  readonly port?: string;
  readonly lastSeenMs?: number;
  readonly errors: {
    readonly badLines: number;
    readonly lostEvents: number;
    readonly timeouts: number;
    readonly commandErrors: number;
    readonly resets: number;
    readonly disconnects: number;
  };
  readonly clock?: { readonly offsetUs: number; readonly driftPpm: number; readonly uncertaintyUs: number };
  /** What lies on the pad (withheld while it would tell a secret); see `PadReading` in the hardware interface. */
  readonly pad?: {
    readonly grams: number | null;
    readonly tag: { readonly kind: string; readonly label: string } | null;
    readonly hidden?: boolean;
  };
}

/** A transaction id: chosen by the requester, echoed in the response, the key of idempotent replays. */
export type Transaction = string | number;

/**
 * `<base>/<table>/request/<name>`: the request's parameters (see `requests.ts`) plus the envelope fields.
 * `token` never appears in a response or a log.
 */
export interface RequestEnvelope {
  readonly transaction?: Transaction;
  readonly token?: string;
  readonly [param: string]: unknown;
}

/** `<base>/<table>/response/<name>`: exactly one per request message. Not retained. */
export type ResponsePayload =
  | { readonly status: 'ok'; readonly data: JsonValue; readonly error: null; readonly transaction: Transaction | null }
  | {
    readonly status: 'error'; readonly data: null;
    readonly error: {
      readonly code: string; readonly message: string;
      /** RATE_LIMITED only: ms after which the same request would be admitted. */
      readonly retryAfterMs?: number;
    };
    readonly transaction: Transaction | null;
  };

/** Every `TableEvent` type, for documentation checks. */
export const TABLE_EVENT_TYPES = ['NEW_GAME', 'ACTION_UNDONE', 'CORRECTION_APPLIED', 'STATION_REMOVED', 'NOTICE', 'ACTION_REFUSED'] as const;

// The list and the union name the same types (a compile error otherwise).
type SameTypes<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _tableEventTypesComplete: SameTypes<(typeof TABLE_EVENT_TYPES)[number], TableEvent['type']> = true;

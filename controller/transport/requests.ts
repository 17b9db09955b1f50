/**
 * The requests a table answers (`<base>/<table>/request/<name>`), each with the JSON schema of its parameters
 * and the type of its `data` on success. The transport validates the envelope, the token and the parameters;
 * the table runtime registers the handlers (`RequestDispatcher.onRequest`). To add a request: add it here and
 * to `RequestData`, and document it in docs/mqtt.md (a test checks that every request is documented).
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { Result } from '../kernel/result.ts';
import { GAME_IDS } from '../rules/games.ts';
import { CHIP_COUNT } from '../runtime/registry/items.ts';
import type { GameId } from '../rules/engine.ts';
import type { RecordCorrection, RecordedGame, RecordRefusal, RecordStep } from '../rules/game-record.ts';
import type { Role } from './acl.ts';
import type { JsonValue } from './payloads.ts';

const Id = Type.String({ minLength: 1, maxLength: 64 });
const Reason = Type.String({ minLength: 1, maxLength: 500 });
/** An engine action (docs/rules-engine.md); its form is checked by the engine's `parseAction`, not here. */
const Action = Type.Object({ type: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: true });
const Die = Type.Integer({ minimum: 1, maximum: 6 });
const strict = { additionalProperties: false } as const;
/** A game's id in the event log (`games.id`). */
const GameNumber = Type.Integer({ minimum: 1 });

/**
 * What the simulator panel does at a station of a simulated table. The controller acts on the simulated
 * hardware (the item's enrolled tag and its weight), which emits real protocol lines through the real serial
 * driver: the panel exercises the same path as a physical table.
 */
const SimulatedItem = Type.Union([
  Type.Object({ kind: Type.Literal('barrel'), value: Type.Integer({ minimum: 1, maximum: 13 }) }, strict),
  Type.Object({ kind: Type.Literal('card'), card: Type.String({ pattern: '^([RBYGW]([1-9]|10)|Z[1-6])$' }) }, strict),
  // Killer-21: a card by its engine id (`R0-3`, `KILLER-1`), a tagged life chip by its number.
  Type.Object({ kind: Type.Literal('k21'), card: Type.String({ pattern: '^(R[0-7]|DRAW1|DRAW2|PASS|SKIP|REVERSE|LIFE|KILLER)-[1-9][0-9]{0,3}$' }) }, strict),
  Type.Object({ kind: Type.Literal('chip'), chip: Type.Integer({ minimum: 1, maximum: CHIP_COUNT }) }, strict),
  // A ZAP card as the tag registry names it (`{kind: 'card', card: 'Z1'}` means the same card).
  Type.Object({ kind: Type.Literal('zap'), card: Type.String({ pattern: '^Z[1-6]$' }) }, strict),
]);
const SimulatedOp = Type.Union([
  Type.Literal('place'), Type.Literal('lift'), Type.Literal('tap'), Type.Literal('press'),
  Type.Literal('unplug'), Type.Literal('plug'), Type.Literal('reset'),
]);

/** One request: its parameters' schema, who may send it, and a line for the docs. */
export interface RequestSpec {
  readonly params: TSchema;
  /**
   * The lowest role whose token may send it. `viewer`: no token needed (anyone the broker lets publish the
   * request; `history` only, which answers what the public stream already carried).
   */
  readonly role: Role;
  readonly summary: string;
}

export const REQUESTS = {
  'new-game': {
    role: 'referee',
    summary: 'Start a new game on the table (replaces a running one).',
    params: Type.Object({
      game: Type.Union(GAME_IDS.map((id) => Type.Literal(id))),
      // The game's own seat limits are checked by its engine; 7 is the most any game takes (Killer-21).
      players: Type.Array(Id, { minItems: 2, maxItems: 7, uniqueItems: true }),
      seed: Type.Optional(Type.Union([Type.Integer(), Type.String({ maxLength: 64 })])),
      config: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    }, strict),
  },
  action: {
    role: 'referee',
    summary: 'Apply any engine action (as listed in the state\'s legal actions).',
    params: Type.Object({ action: Action }, strict),
  },
  roll: {
    role: 'referee',
    summary: 'Zapp Zerapp: the controller rolls the dice (seeded, logged).',
    params: Type.Object({ player: Type.Optional(Id) }, strict),
  },
  'enter-dice': {
    role: 'referee',
    summary: 'Zapp Zerapp: enter the dice rolled at the table.',
    params: Type.Object({ d1: Die, d2: Die, player: Type.Optional(Id) }, strict),
  },
  move: {
    role: 'referee',
    summary: 'Zapp Zerapp: move a piece (the mover picks among the legal moves).',
    params: Type.Object({
      player: Id,
      piece: Id,
      carry: Type.Optional(Type.Record(Type.String(), Type.Boolean())),
      intoCity: Type.Optional(Type.Record(Type.String(), Type.Boolean())),
      to: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Literal('CITY')])),
    }, strict),
  },
  'declare-stuck': {
    role: 'referee',
    summary: 'Zip-Zap: declare that nobody can follow (HUMAN/TIMEOUT stuck detection).',
    params: Type.Object({ player: Type.Optional(Id) }, strict),
  },
  'next-round': {
    role: 'referee',
    summary: 'Zip-Zap, Killer-21: deal the next round.',
    params: Type.Object({}, strict),
  },
  undo: {
    role: 'referee',
    summary: 'Take back the last applied action (the log keeps both).',
    params: Type.Object({ reason: Type.Optional(Reason) }, strict),
  },
  correct: {
    role: 'referee',
    summary: 'Apply a referee correction (an engine action such as resolve-tie or report-violation) with a reason.',
    params: Type.Object({ reason: Reason, action: Action }, strict),
  },
  'remove-station': {
    role: 'referee',
    summary: 'Forget a station (unplugged for good); clears its retained health.',
    params: Type.Object({ station: Id }, strict),
  },
  simulate: {
    role: 'referee',
    summary: 'Simulated table only: place or lift an item, tap a card, press the button, unplug/plug/reset a station.',
    params: Type.Object({
      station: Id,
      op: SimulatedOp,
      item: Type.Optional(SimulatedItem),
      grams: Type.Optional(Type.Number({ minimum: 0, maximum: 5000 })),
    }, strict),
  },
  'simulated-hand': {
    role: 'referee',
    summary: 'Simulated Zip-Zap or Killer-21 table only: the cards in the hand of a seat played from the simulator panel (never a bot\'s).',
    params: Type.Object({ station: Id }, strict),
  },
  games: {
    role: 'referee',
    summary: 'The table\'s games from the event log, newest first (players, start, end, result; no seed).',
    params: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })) }, strict),
  },
  record: {
    role: 'referee',
    summary: 'A game\'s public record from the log: each step\'s public events, time and standing, and the refusals as announced (paged).',
    params: Type.Object({ game: Type.Optional(GameNumber), from: Type.Optional(Type.Integer({ minimum: 0 })) }, strict),
  },
  'record-state': {
    role: 'referee',
    summary: 'The public view of a game after a step of its record (stepping back), rebuilt from the log.',
    params: Type.Object({ game: GameNumber, step: Type.Integer({ minimum: 0 }) }, strict),
  },
  'action-log': {
    role: 'referee',
    summary: 'A game\'s full action log as `zaptable replay` reads it (hidden facts included: listed on the audit topic; paged).',
    params: Type.Object({ game: GameNumber, from: Type.Optional(Type.Integer({ minimum: 0 })) }, strict),
  },
  'buzzer/arm': {
    role: 'referee',
    summary: 'Buzzer mode: arm; the first press after this wins.',
    params: Type.Object({}, strict),
  },
  'buzzer/reset': {
    role: 'referee',
    summary: 'Buzzer mode: clear the result and lockouts; disarmed.',
    params: Type.Object({}, strict),
  },
  'buzzer/mark': {
    role: 'referee',
    summary: 'Buzzer mode: mark the winner\'s answer correct (points, question closed) or wrong (locked out; re-armed by default).',
    params: Type.Object({ correct: Type.Boolean(), contestant: Type.Optional(Id) }, strict),
  },
  'buzzer/score': {
    role: 'referee',
    summary: 'Buzzer mode: add points to (or, negative, take them from) a team or a contestant without a team.',
    params: Type.Object({
      entrant: Id, delta: Type.Number({ minimum: -1_000_000, maximum: 1_000_000 }), reason: Type.Optional(Reason),
    }, strict),
  },
  history: {
    role: 'viewer',
    summary: 'The table\'s public events from `fromSeq` on (of this controller start, or of `epoch`), as published: fills a gap in `seq`.',
    params: Type.Object({
      fromSeq: Type.Integer({ minimum: 1 }),
      epoch: Type.Optional(Type.Integer({ minimum: 0 })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
    }, strict),
  },
  'buzzer/new-session': {
    role: 'referee',
    summary: 'Buzzer mode: start a new session (scores and question numbers from zero; the log keeps the old one).',
    params: Type.Object({}, strict),
  },
} as const satisfies Record<string, RequestSpec>;

export type RequestName = keyof typeof REQUESTS;

export const REQUEST_NAMES = Object.keys(REQUESTS) as RequestName[];

export function isKnownRequest(name: string): name is RequestName {
  return Object.hasOwn(REQUESTS, name);
}

/** The validated parameters of a request (envelope fields `token` and `transaction` removed). */
export type RequestParams<N extends RequestName> = Static<(typeof REQUESTS)[N]['params']>;

/** What applied a change answers: the table's last event sequence number afterwards. */
export interface Applied {
  readonly seq: number;
}

/** The `data` of each request's `ok` response. */
export interface RequestData {
  'new-game': Applied & { readonly game: GameId };
  action: Applied;
  roll: Applied & { readonly d1: number; readonly d2: number };
  'enter-dice': Applied;
  move: Applied;
  'declare-stuck': Applied;
  'next-round': Applied;
  undo: Applied;
  correct: Applied;
  'remove-station': { readonly station: string };
  simulate: {
    readonly station: string;
    /** A game table's last event after the op was handled (absent for a buzzer table's press). */
    readonly seq?: number;
    /** What the table made of it: `applied`, `violation`, `unchanged` (nothing to do), `done` (no reading to wait for). */
    readonly outcome: 'applied' | 'violation' | 'unchanged' | 'done';
    /** The outcome in a sentence, for the panel. */
    readonly message: string;
    /** The public events it led to, by type. */
    readonly events: readonly string[];
  };
  'simulated-hand': {
    readonly station: string;
    readonly player: string;
    /** False while the hand was dealt at the table and never registered: the controller does not know it. */
    readonly known: boolean;
    /** The hand's card ids (its ZAP included), empty when not known. */
    readonly cards: readonly string[];
  };
  games: { readonly games: readonly RecordedGame[] };
  record: {
    readonly game: RecordedGame;
    /** Steps from the page's `from`; `total` steps in all (the setup is step 0). */
    readonly steps: readonly RecordStep[];
    readonly total: number;
    /** Where the next page starts, or null after the last step. */
    readonly next: number | null;
    /** Every refusal and every undo of the game (on the first page only: `from` 0). */
    readonly refusals: readonly RecordRefusal[];
    readonly corrections: readonly RecordCorrection[];
  };
  'record-state': { readonly game: number; readonly step: RecordStep; readonly view: unknown };
  'action-log': {
    readonly game: GameId;
    readonly config: Readonly<Record<string, unknown>> & { readonly players: readonly string[] };
    readonly seed: number | string;
    /** Actions from the page's `from`; `total` in all. */
    readonly actions: readonly object[];
    readonly total: number;
    readonly next: number | null;
  };
  'buzzer/arm': Applied;
  'buzzer/reset': Applied;
  'buzzer/mark': Applied;
  'buzzer/score': Applied & { readonly total: number };
  'buzzer/new-session': Applied;
  history: {
    /** The controller start the events belong to. */
    readonly epoch: number;
    /** Whether `epoch` is this controller's current start (events are still being added). */
    readonly current: boolean;
    /** The table's last event of that start when answering. */
    readonly lastSeq: number;
    /** The events, oldest first, each exactly as published on `<base>/<table>/events`. */
    readonly events: readonly JsonValue[];
    /** Where the next page starts (ask again with `fromSeq: next`), or null when these reach `lastSeq`. */
    readonly next: number | null;
  };
}

// Every request has a data type and no data type lacks a request (a compile error otherwise).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _dataCoversRequests: Same<keyof RequestData, RequestName> = true;

/** Who sent a request, as established by its token. */
export interface Identity {
  /** The name given to the token in the configuration (for logs and the event log). */
  readonly id: string;
  /** `viewer`: no token (a `history` request from anyone the broker let publish it). */
  readonly role: Role;
}

/** The context a handler runs in. */
export interface RequestContext {
  readonly table: string;
  /** The sender's MQTT client id (the request topic's client level). */
  readonly client: string;
  readonly identity: Identity;
  /** The requester's transaction id, if any (for the log). */
  readonly transaction: string | number | null;
}

/** A handler's answer: data, or a stable error code (for example a rules rejection) and a message. */
export type HandlerResult<N extends RequestName> = Result<{ readonly data: RequestData[N] }>;

/**
 * Answers one request. Contract: called only with validated parameters from an authorised identity; must
 * change nothing when it answers `ok: false`; may be called concurrently for different transactions.
 */
export type RequestHandler<N extends RequestName> = (
  params: RequestParams<N>, context: RequestContext,
) => Promise<HandlerResult<N>>;

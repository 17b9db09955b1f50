/**
 * The TypeBox schemas of the HTTP API: request parameters are validated, responses serialised by them. The
 * payloads the controller publishes (views, health, events) are passed through as published
 * (`additionalProperties: true`): their contract is docs/mqtt.md, not this file.
 */
import { Type, type Static } from '@sinclair/typebox';

const Open = { additionalProperties: true } as const;

export const TableParams = Type.Object({
  table: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$' }),
});

export const RequestRouteParams = Type.Object({
  table: TableParams.properties.table,
  /** The request name; may have levels (`buzzer/arm`), hence the wildcard. */
  '*': Type.String({ minLength: 1, maxLength: 200 }),
});

export const HistoryQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
});

export const ErrorResponse = Type.Object({
  statusCode: Type.Integer(),
  code: Type.String(),
  error: Type.String(),
  message: Type.String(),
});

const Status = Type.Union([Type.Literal('online'), Type.Literal('offline'), Type.Literal('unknown')]);

export const TableSummarySchema = Type.Object({
  id: Type.String(),
  /** The controller whose `bridge/<controller>/tables` lists the table (a venue has several); null when none does. */
  controller: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  status: Status,
  mode: Type.Union([Type.Literal('idle'), Type.Literal('game'), Type.Literal('buzzer'), Type.Literal('unknown')]),
  game: Type.Union([Type.String(), Type.Null()]),
  seq: Type.Union([Type.Integer(), Type.Null()]),
  at: Type.Union([Type.Number(), Type.Null()]),
  simulated: Type.Boolean(),
  bridge: Type.Object({}, Open),
  stations: Type.Array(Type.Object({ station: Type.String(), online: Type.Boolean() })),
});

export const TablesResponse = Type.Object({ tables: Type.Array(TableSummarySchema) });

export const StateResponse = Type.Object({
  table: Type.String(),
  status: Status,
  /** The retained `StatePayload` as published, or null before the first one. */
  state: Type.Union([Type.Object({ mode: Type.String(), seq: Type.Integer(), at: Type.Number() }, Open), Type.Null()]),
});

export const HealthResponse = Type.Object({
  table: Type.String(),
  stations: Type.Array(Type.Object({ station: Type.String(), online: Type.Boolean() }, Open)),
});

export const HistoryResponse = Type.Object({
  table: Type.String(),
  /** Where the events come from: what this dashboard received since it started (not the controller's log). */
  source: Type.Literal('memory'),
  events: Type.Array(Type.Object({ type: Type.String(), seq: Type.Integer(), at: Type.Number() }, Open)),
});

export const ControlBody = Type.Object({
  /** The request's parameters (docs/mqtt.md); `token` and `transaction` are set by the dashboard. */
  params: Type.Optional(Type.Object({}, Open)),
  /** The dashboard token, unless it comes in an `Authorization: Bearer` header. */
  token: Type.Optional(Type.String({ maxLength: 1024 })),
}, { additionalProperties: false });

export type ControlBodyType = Static<typeof ControlBody>;

/** `POST /api/token/check`: is this the dashboard token? (The page says "valid" only after the server agreed.) */
export const TokenCheckBody = Type.Object({
  token: Type.Optional(Type.String({ maxLength: 1024 })),
}, { additionalProperties: false });

export const TokenCheckResponse = Type.Object({ valid: Type.Literal(true) });

/** The table's answer, relayed as it came (`ResponsePayload`). */
export const ControlResponse = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('error')]),
  data: Type.Unknown(),
  error: Type.Union([Type.Object({ code: Type.String(), message: Type.String() }), Type.Null()]),
  transaction: Type.Union([Type.String(), Type.Integer(), Type.Null()]),
});

export const InfoResponse = Type.Object({
  baseTopic: Type.String(),
  connected: Type.Boolean(),
  simulated: Type.Boolean(),
  version: Type.String(),
});

export const GameParams = Type.Object({
  table: TableParams.properties.table,
  game: Type.Integer({ minimum: 1 }),
});

export const StepParams = Type.Object({
  table: TableParams.properties.table,
  game: Type.Integer({ minimum: 1 }),
  step: Type.Integer({ minimum: 0 }),
});

/** The record answers are the controller's (docs/mqtt.md, "The game record"), passed through. */
export const RecordAnswer = Type.Object({}, Open);

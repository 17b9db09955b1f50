/**
 * The catalogue of request error codes the transport itself answers with (docs/mqtt.md, "Error codes").
 * Handlers registered by the table runtime answer with their own stable codes (for example the rules
 * engines' rejection codes); those pass through unchanged. Every code here means "nothing was changed",
 * except TIMEOUT, which means "the outcome is unknown: read the state topic, or repeat the request with the
 * same transaction to get the cached answer".
 */
export const TRANSPORT_ERRORS = {
  /** The payload is not UTF-8 JSON. */
  BAD_JSON: 'the request payload is not valid JSON',
  /** The payload is larger than the request size limit. */
  PAYLOAD_TOO_LARGE: 'the request payload is too large',
  /** JSON, but not an object of the request's schema (details in the message). */
  INVALID_REQUEST: 'the request does not match its schema',
  /** The request's topic names no table this controller runs (also `bridge`, or an empty level). */
  UNKNOWN_TABLE: 'there is no table of that id on this controller',
  /** No request of that name exists. */
  UNKNOWN_REQUEST: 'there is no request of that name',
  /** The token is missing, wrong, or does not grant this request. */
  UNAUTHORIZED: 'the request needs a valid token',
  /** The request exists, but this controller runs nothing that answers it (e.g. buzzer requests on a game table). */
  NOT_AVAILABLE: 'this table does not handle that request',
  /** The handler threw; a bug, logged on the controller. */
  HANDLER_FAILED: 'the request failed inside the controller',
  /**
   * Too many requests from this client (its token bucket is empty) or waiting for an answer; the error carries
   * `retryAfterMs`, the wait after which the same request would be admitted.
   */
  RATE_LIMITED: 'too many requests',
  /** The handler did not answer in time; its outcome is unknown. */
  TIMEOUT: 'the request timed out',
} as const;

export type TransportErrorCode = keyof typeof TRANSPORT_ERRORS;

/** An error as it appears in a response. `code` is a transport code or a handler's own stable code. */
export interface RequestError {
  readonly code: string;
  readonly message: string;
}

/** Builds a transport error, optionally with a more specific message than the catalogue's. */
export function transportError(code: TransportErrorCode, detail?: string): RequestError {
  return { code, message: detail === undefined ? TRANSPORT_ERRORS[code] : `${TRANSPORT_ERRORS[code]}: ${detail}` };
}

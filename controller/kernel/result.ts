/**
 * The one result shape of the controller's boundaries: a rules engine applying an action, the table runtime
 * taking a request, a command to a station, opening the event log, reading a registry file. A refusal is a
 * value, never an exception, and changes nothing (design principle 1, practice 3):
 *
 * - success is `{ ok: true, …fields }` — the fields sit beside `ok` (`{ ok: true, state, events }`,
 *   `{ ok: true, registry }`), so a success adds no wrapper to the payloads and files that carry it;
 * - a refusal is a {@link Rejection}: `{ ok: false, code, message }`, a stable code from the catalogue of the
 *   boundary that refused (documented with it: docs/rules-engine.md, docs/mqtt.md, …) and a human
 *   explanation. Codes never change; wording may. A refusal that carries more (the item a tag is already on,
 *   the index of a replay's failing action) extends it: `Rejection<'TAG_ALREADY_ENROLLED'> & { item }`.
 *
 * Checking a whole document (a configuration, a scenario, a board, a registry file) reports every problem at
 * once rather than the first: that is {@link Invalid}, `{ ok: false, errors }`, and {@link Checked}.
 */

/** A refusal: nothing changed. `code` is stable (a catalogue's); `message` is for people and may change. */
export interface Rejection<C extends string = string> {
  readonly ok: false;
  /** A stable code from the refusing boundary's catalogue. */
  readonly code: C;
  /** A human-readable explanation, for logs, the CLI and the dashboard. Wording may change; codes do not. */
  readonly message: string;
}

/** Success, carrying the fields `T` beside `ok: true` (no fields: `Ok`). */
export type Ok<T extends object = object> = { readonly ok: true } & T;

/** Either success with the fields `T`, or a {@link Rejection} with a code from `C`. */
export type Result<T extends object = object, C extends string = string> = Ok<T> | Rejection<C>;

/** A document that failed its check: every problem found, in order (not only the first). */
export interface Invalid<E = string> {
  readonly ok: false;
  readonly errors: readonly E[];
}

/** Either a checked document's fields `T`, or every problem found in it. */
export type Checked<T extends object, E = string> = Ok<T> | Invalid<E>;

/** Builds a {@link Rejection}. */
export function reject<C extends string>(code: C, message: string): Rejection<C> {
  return { ok: false, code, message };
}

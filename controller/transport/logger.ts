/**
 * The transport layer's logger. Injected (never a global) so tests can collect or silence it; the composition
 * root passes the application's logger. Same shape as the hardware layer's, which transport may not import.
 */

/** Structured fields logged with a message. */
export type LogFields = Readonly<Record<string, string | number | boolean | undefined>>;

/** A minimal logger; every method must return quickly and never throw. */
export interface TransportLogger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
}

/** Drops everything (the default: the composition root decides where logs go). */
export const silentLogger: TransportLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined };

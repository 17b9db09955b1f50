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

export interface RateLimitOptions {
  /** Lines of one message logged per window; the rest are counted. Default 5. */
  readonly perWindow?: number;
  /** Default 10 s. */
  readonly windowMs?: number;
  /** Monotonic ms; injected for tests. */
  readonly now?: () => number;
}

/**
 * A logger that writes at most `perWindow` lines of each message per window and counts the rest, saying how
 * many were left out with the first line of the next window. Refusals (bad logins, unauthorised requests) are
 * logged through it: an attacker's flood must not become a flood of log lines (or fill the Pi's SD card).
 */
export function rateLimited(logger: TransportLogger, options: RateLimitOptions = {}): TransportLogger {
  const perWindow = options.perWindow ?? 5;
  const windowMs = options.windowMs ?? 10_000;
  const now = options.now ?? (() => performance.now());
  const windows = new Map<string, { start: number; logged: number; suppressed: number }>();
  const limit = (level: keyof TransportLogger) => (message: string, fields?: LogFields): void => {
    const t = now();
    let w = windows.get(message);
    if (w === undefined || t - w.start >= windowMs) {
      const suppressed = w?.suppressed ?? 0;
      w = { start: t, logged: 0, suppressed: 0 };
      windows.set(message, w);
      if (suppressed > 0) {
        logger[level](message, { ...fields, suppressedBefore: suppressed });
        w.logged++;
        return;
      }
    }
    if (w.logged < perWindow) {
      w.logged++;
      logger[level](message, fields);
    } else {
      w.suppressed++;
    }
  };
  return { debug: limit('debug'), info: limit('info'), warn: limit('warn') };
}

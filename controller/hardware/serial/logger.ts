/**
 * The hardware layer's logger. Injected (never a global) so tests can collect or silence it; the
 * composition root passes the application's logger.
 */

/** Structured fields logged with a message. */
export type LogFields = Readonly<Record<string, string | number | boolean | undefined>>;

/** A minimal logger; every method must return quickly and never throw. */
export interface HardwareLogger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
}

/** Logs to the console (stderr for warnings). */
export const consoleLogger: HardwareLogger = {
  debug: () => undefined,
  info: (message, fields) => {
    console.info(message, fields ?? '');
  },
  warn: (message, fields) => {
    console.warn(message, fields ?? '');
  },
};

/** Drops everything. */
export const silentLogger: HardwareLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined };

/** A line shown in a log: control characters escaped, long lines cut (garbage can be kilobytes). */
export function printableLine(line: string, max = 120): string {
  const shown = JSON.stringify(line.length > max ? line.slice(0, max) : line);
  return line.length > max ? `${shown}… (${line.length} chars)` : shown;
}

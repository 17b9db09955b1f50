/**
 * The configuration's error catalogue. Codes are stable (tests and tools match on them); messages may change.
 * One mistake is one error, with the path of the key it is about, so that every mistake can be reported at once.
 */

export const CONFIG_ERRORS = {
  CONFIG_SYNTAX: 'The file is not valid YAML, or expands or nests beyond any configuration (an alias inside the node it names, an alias bomb, more than 64 nested brackets); line and column given.',
  CONFIG_INVALID: 'A value has the wrong type, is out of range, or is missing.',
  CONFIG_UNKNOWN_KEY: 'A key the schema does not know (usually a typo; a close known key is suggested).',
  CONFIG_CONFLICT: 'Values that are fine alone but clash (duplicate ids, a station on two tables, a key that does not apply to the mode).',
  CONFIG_UNREADABLE: 'The file named could not be read.',
  TLS_FILE_UNREADABLE: 'A broker TLS file (`mqtt.external.tls` or `mqtt.venue.tls`: ca, cert, key) is missing, unreadable or not PEM; the key and the file are named.',
} as const;

export type ConfigErrorCode = keyof typeof CONFIG_ERRORS;

export interface ConfigError {
  /** Dotted path of the key (`tables.0.seats.2.station`); empty for the whole document or file. */
  readonly path: string;
  /** What is wrong and, where possible, what would be right. Never contains a secret's value. */
  readonly message: string;
  readonly code: ConfigErrorCode;
  /** Where in the file (1-based), when the error is about a place in the file. */
  readonly line?: number;
  readonly column?: number;
  /** The environment variable the offending value came from, when it came from one. */
  readonly env?: string;
}

export function configError(code: ConfigErrorCode, path: string, message: string): ConfigError {
  return { code, path, message };
}

/** One line for people: `file:12:5 tables.0.mode: must be one of … [CONFIG_INVALID]`. */
export function formatConfigError(error: ConfigError, file?: string): string {
  const where = error.line === undefined ? (file ?? '') : `${file ?? 'line'}${file ? ':' : ' '}${error.line}${error.column ? `:${error.column}` : ''}`;
  const from = error.env ? ` (from ${error.env})` : '';
  const path = error.path === '' ? '' : `${error.path}: `;
  return `${where ? `${where} ` : ''}${path}${error.message}${from} [${error.code}]`;
}

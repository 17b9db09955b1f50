/**
 * The numbered status codes of the zaptable line protocol — the same catalogue as
 * `firmware/src/status_codes.h` and the table in `hardware/protocol.md` (the shared test vectors and the
 * codec tests check that all three agree). Numbers are stable: never renumber, only append.
 *
 * A station answers a bad command with `err <id|-> <code>`; the host codec uses the same codes when it
 * rejects a bad device line. Frame checks run in a fixed order (see `checkFrame`), so a line with several
 * faults gets the same code from both codecs.
 */
export const PROTOCOL_ERRORS = {
  /** More than {@link MAX_LINE} bytes before the `\n`; the line was discarded unread. */
  LINE_TOO_LONG: 1,
  /** A byte outside printable ASCII 0x20..0x7E, or a `*` inside the payload. */
  BAD_CHARACTER: 2,
  /** The line does not end in `*` and two uppercase hex digits. */
  CHECKSUM_MISSING: 3,
  /** The CRC-8 of the payload differs from the one after the `*`. */
  CHECKSUM_MISMATCH: 4,
  /** Layout: empty payload, stray spaces, or a bad command id / sequence number / device time field. */
  BAD_SYNTAX: 5,
  /** Unknown command verb (station side) or unknown line type or event (host side). */
  UNKNOWN_KEYWORD: 6,
  /** Wrong number of arguments or a malformed argument. */
  BAD_ARGUMENT: 7,
  /** A well-formed number outside its allowed range. */
  OUT_OF_RANGE: 8,
  /** The command exists but not on this station kind (e.g. `tare` on a pile station). */
  NOT_SUPPORTED: 9,
  /** The load cell gave no reading in time (HX711 not ready). */
  SENSOR_TIMEOUT: 10,
  /** The known mass barely moved the reading, or the resulting factor is out of range. */
  CALIBRATION_FAILED: 11,
  /** The settings read back differently after being written to EEPROM. */
  EEPROM_FAILED: 12,
} as const;

/** The stable name of a protocol status code. */
export type ProtocolErrorName = keyof typeof PROTOCOL_ERRORS;

/** A one-line explanation per code, for logs and the dashboard. Wording may change; codes do not. */
export const PROTOCOL_ERROR_TEXT: Readonly<Record<ProtocolErrorName, string>> = {
  LINE_TOO_LONG: 'line too long',
  BAD_CHARACTER: 'character outside printable ASCII, or * inside the payload',
  CHECKSUM_MISSING: 'missing or malformed *XX checksum',
  CHECKSUM_MISMATCH: 'checksum mismatch',
  BAD_SYNTAX: 'malformed line layout',
  UNKNOWN_KEYWORD: 'unknown keyword',
  BAD_ARGUMENT: 'wrong or malformed argument',
  OUT_OF_RANGE: 'number out of range',
  NOT_SUPPORTED: 'not supported on this station kind',
  SENSOR_TIMEOUT: 'load cell did not answer in time',
  CALIBRATION_FAILED: 'calibration failed',
  EEPROM_FAILED: 'EEPROM write failed',
};

/** The name of a numbered code, or undefined for a code this host does not know (a newer firmware). */
export function protocolErrorName(code: number): ProtocolErrorName | undefined {
  for (const [name, value] of Object.entries(PROTOCOL_ERRORS)) {
    if (value === code) return name as ProtocolErrorName;
  }
  return undefined;
}

/** A line that was rejected: the code says why, the message says where. Never thrown; returned. */
export interface ProtocolError {
  /** The stable code name. */
  readonly error: ProtocolErrorName;
  /** The code number, as sent in `err <id> <code>`. */
  readonly code: number;
  /** A human-readable explanation. Wording may change; codes do not. */
  readonly message: string;
}

/** Builds a {@link ProtocolError}. */
export function protocolError(error: ProtocolErrorName, detail?: string): ProtocolError {
  const text = PROTOCOL_ERROR_TEXT[error];
  return { error, code: PROTOCOL_ERRORS[error], message: detail === undefined ? text : `${text}: ${detail}` };
}

/** True when a parse result is a rejection. */
export function isProtocolError(value: object): value is ProtocolError {
  return 'error' in value;
}

/**
 * Results of the driver's station commands as values with stable codes (never thrown).
 *
 * A failure's `code` is either the station's own status code by name (`NOT_SUPPORTED`, `SENSOR_TIMEOUT`,
 * `CALIBRATION_FAILED`, … from `protocol/errors.ts`; `ERROR_<n>` for a code this controller does not know,
 * sent by a newer firmware) or one of the driver's codes below.
 */
import { reject, type Rejection } from '../../kernel/result.ts';
import { PROTOCOL_ERROR_TEXT, protocolErrorName } from '../../protocol/index.ts';
import type { CommandOutcome } from './command-queue.ts';

/** A failed command, as in the hardware interface (`CommandResult`). */
export type CommandFailure = Rejection;

/** The driver's own failure codes (the station was never asked, or did not answer). */
export const DRIVER_FAILURES = {
  /** No station with this id has been seen since the driver started. */
  UNKNOWN_STATION: 'no station with this id is known',
  /** The station is known but not connected now. */
  OFFLINE: 'the station is offline',
  /** The station did not answer within the command timeout (counted in its health). */
  TIMEOUT: 'no reply within the timeout',
  /** The port closed (unplugged, or the driver stopped) before the reply came. */
  DISCONNECTED: 'the port closed before the reply',
  /** The station restarted while the command was in flight (the command was lost; it may be sent again). */
  STATION_RESTARTED: 'the station restarted before answering',
  /** The station answered `ok` but without the expected fields (a firmware that does not match protocol.md). */
  BAD_REPLY: 'the reply lacks an expected field',
  /** The arguments were refused before sending (out of the protocol's range). */
  INVALID_ARGUMENT: 'invalid argument',
  /** The station's kind has no such part (lamp, scale on a pile station); not sent. */
  NOT_SUPPORTED: 'not supported on this station kind',
} as const;

export type DriverFailureCode = keyof typeof DRIVER_FAILURES;

export function driverFailure(code: DriverFailureCode, detail?: string): CommandFailure {
  const text = DRIVER_FAILURES[code];
  return reject(code, detail === undefined ? text : `${text}: ${detail}`);
}

/** The failure for an outcome that is not `ok`. */
export function failureOf(outcome: Exclude<CommandOutcome, { readonly ok: true }>): CommandFailure {
  switch (outcome.failure) {
    case 'timeout': return driverFailure('TIMEOUT');
    case 'closed': return driverFailure('DISCONNECTED');
    case 'restarted': return driverFailure('STATION_RESTARTED');
    case 'err': {
      const name = protocolErrorName(outcome.code);
      return name === undefined
        ? reject(`ERROR_${outcome.code}`, `station error ${outcome.code} (unknown to this controller)`)
        : reject(name, PROTOCOL_ERROR_TEXT[name]);
    }
  }
}

/** A signed 32-bit decimal field (HX711 counts, calibration factors), or undefined. */
export function parseI32Field(text: string | undefined): number | undefined {
  if (text === undefined || !/^(0|-?[1-9][0-9]{0,9})$/.test(text)) return undefined;
  const value = Number(text);
  return value >= -0x8000_0000 && value <= 0x7fff_ffff ? value : undefined;
}

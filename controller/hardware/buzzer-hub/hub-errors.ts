/**
 * The buzzer hub's error codes: stable, asserted on by tests, documented in docs/buzzer-hub.md.
 * - Command results (`CommandResult.code`) of `setLamp` and `beep`.
 * - Set-up problems: `start()` rejects with a {@link HubSetupError} listing every problem, each with its code
 *   and the option it is about. The configuration is checked before anything is opened; the pins once more
 *   against the board's own capability report when it has answered.
 */
import { reject } from '../../kernel/result.ts';
import type { CommandResult } from '../interface.ts';

export const HUB_COMMAND_ERRORS = {
  UNKNOWN_STATION: 'no such station on this hub',
  NO_LAMP: 'this button has no lamp configured',
  NO_PIEZO: 'this hub has no piezo configured',
  OFFLINE: 'the hub board is not ready',
  BAD_ARGUMENT: 'argument out of range',
  IO_ERROR: 'the IO refused the command',
} as const;

export const HUB_SETUP_ERRORS = {
  INVALID_CONFIG: 'a hub option is missing or out of range',
  PIN_CONFLICT: 'a pin is given two jobs',
  PIN_RESERVED: 'the pin is not free: D0/D1 carry the serial link, or the board lists no mode for it',
  PIN_NOT_ON_BOARD: 'the board has no such pin (its capability report)',
  PIN_MODE_UNSUPPORTED: 'the pin cannot do its job (digital input for a button, output for a lamp or piezo)',
} as const;

export const HUB_ERRORS = { ...HUB_COMMAND_ERRORS, ...HUB_SETUP_ERRORS } as const;

export type HubCommandErrorCode = keyof typeof HUB_COMMAND_ERRORS;
export type HubSetupErrorCode = keyof typeof HUB_SETUP_ERRORS;
export type HubErrorCode = keyof typeof HUB_ERRORS;

export const OK: CommandResult = { ok: true };

export function hubError(code: HubCommandErrorCode, detail?: string): CommandResult {
  const text = HUB_COMMAND_ERRORS[code];
  return reject(code, detail === undefined ? text : `${text}: ${detail}`);
}

/** One reason the hub's configuration cannot work on this board. */
export interface HubProblem {
  readonly code: HubSetupErrorCode;
  /** The option it is about, e.g. `buttons[2].lamp`, `piezoPin`, `io`. */
  readonly path: string;
  /** What is wrong, for people. */
  readonly message: string;
}

export function hubProblem(code: HubSetupErrorCode, path: string, message: string): HubProblem {
  return { code, path, message };
}

/** What `start()` rejects with when the configuration cannot work: every problem at once, as data. */
export class HubSetupError extends Error {
  constructor(readonly problems: readonly HubProblem[]) {
    super(`buzzer hub: the configuration cannot work:\n  ${problems.map((p) => `${p.path}: ${p.message} [${p.code}]`).join('\n  ')}`);
    this.name = 'HubSetupError';
  }
}

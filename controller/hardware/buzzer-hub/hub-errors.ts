/** The buzzer hub's command error codes (`CommandResult.code`): stable, asserted on by tests. */
import type { CommandResult } from '../interface.ts';

export const HUB_ERRORS = {
  UNKNOWN_STATION: 'no such station on this hub',
  NO_LAMP: 'this button has no lamp configured',
  NO_PIEZO: 'this hub has no piezo configured',
  OFFLINE: 'the hub board is not ready',
  BAD_ARGUMENT: 'argument out of range',
  IO_ERROR: 'the IO refused the command',
} as const;

export type HubErrorCode = keyof typeof HUB_ERRORS;

export const OK: CommandResult = { ok: true };

export function hubError(code: HubErrorCode, detail?: string): CommandResult {
  const text = HUB_ERRORS[code];
  return { ok: false, code, message: detail === undefined ? text : `${text}: ${detail}` };
}

/**
 * The hub's pins against the board's own capability report (Firmata's CAPABILITY_QUERY, which johnny-five
 * and firmata-io keep as `io.pins[n].supportedModes`). Pure.
 *
 * StandardFirmata lists no mode for D0/D1 on an Uno (they carry the USB serial link): a button there came
 * "online" and never reported. A pin beyond the report (20 on an Uno) made firmata-io throw a raw
 * TypeError. Both are refused here, with stable codes (hub-errors.ts).
 */
import { hubProblem, type HubProblem } from './hub-errors.ts';
import type { HubConfig } from './hub-config.ts';

/** A pin of the capability report: the Firmata mode numbers it supports. */
export interface PinCapability {
  readonly supportedModes?: readonly number[];
}

/** Firmata's mode numbers the check needs (firmata-io's `MODES`). */
export interface PinModes {
  readonly INPUT: number;
  readonly OUTPUT: number;
  readonly PULLUP?: number;
}

/** Firmata 2.x mode names, for messages. */
const MODE_NAMES: Readonly<Record<number, string>> = {
  0: 'input', 1: 'output', 2: 'analog', 3: 'pwm', 4: 'servo', 5: 'shift', 6: 'i2c', 7: 'onewire', 8: 'stepper',
  10: 'serial', 11: 'input-pullup', 0x7f: 'ignore',
};

function describeModes(modes: readonly number[]): string {
  return modes.length === 0 ? 'none' : modes.map((m) => MODE_NAMES[m] ?? `mode ${m}`).join(', ');
}

/** Every pin of `config` the board cannot use as configured; empty when all is well (or there is no report). */
export function checkPinsAgainstBoard(
  config: HubConfig, pins: readonly (PinCapability | undefined)[] | undefined, modes: PinModes,
): HubProblem[] {
  if (pins === undefined || pins.length === 0) return []; // an IO without a report: nothing to check against
  const problems: HubProblem[] = [];
  const check = (pin: number, path: string, job: 'input' | 'output'): void => {
    const capability = pins[pin];
    if (capability === undefined) {
      problems.push(hubProblem('PIN_NOT_ON_BOARD', path, `pin ${pin}: the board reports ${pins.length} pins (0–${pins.length - 1})`));
      return;
    }
    const supported = capability.supportedModes ?? [];
    if (supported.length === 0) {
      problems.push(hubProblem('PIN_RESERVED', path, `pin ${pin}: the board lists no mode for it (on an Uno, D0/D1 are the serial link)`));
      return;
    }
    const usable = job === 'input'
      ? supported.includes(modes.INPUT) || (modes.PULLUP !== undefined && supported.includes(modes.PULLUP))
      : supported.includes(modes.OUTPUT);
    if (!usable) {
      problems.push(hubProblem('PIN_MODE_UNSUPPORTED', path, `pin ${pin} cannot be a digital ${job} (its modes: ${describeModes(supported)})`));
    }
  };
  for (const [i, b] of config.buttons.entries()) {
    check(b.pin, `buttons[${i}].pin`, 'input');
    if (b.lamp !== undefined) check(b.lamp, `buttons[${i}].lamp`, 'output');
  }
  if (config.piezoPin !== undefined) check(config.piezoPin, 'piezoPin', 'output');
  return problems;
}

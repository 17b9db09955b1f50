/**
 * A johnny-five Button controller that only sets the button's pin up; the hub reads the pin itself.
 *
 * johnny-five's DEFAULT Button controller debounces with a 7 ms trailing timer and emits `down`/`up` with
 * no time, so a stamp taken there is 7 ms late and loses the first edge. It also switches the pin's port
 * reporting on as soon as *that* button is set up: StandardFirmata then reports the port at once, and a
 * later button on the same port, not yet an input, reads 0 — "pressed" with the pull-up — so it seemed to
 * be released a moment later (a spurious `button-released` at start-up, seen on the real firmware). So
 * this controller only makes the pin an input with its pull-up; the hub enables reporting (`digitalRead`)
 * once every pin is configured, and stamps and debounces the raw readings itself (edge-debouncer.ts). The
 * Button's own callback is deliberately not fed: no duplicate debounce timers and no `hold` interval run
 * inside johnny-five (a held button's interval would otherwise outlive `stop()`).
 */
import type { HubIo } from './hub-io.ts';

/** What the controller uses of the Button it is installed on (johnny-five sets these before `initialize`). */
interface ButtonHost {
  readonly io: HubIo;
  pin: number;
  readonly pullup: boolean;
  readonly downValue: number;
}

/** johnny-five's controller shape: property descriptors installed on the Button with `defineProperties`. */
export interface ButtonControllerDescriptor {
  readonly initialize: { readonly value: (this: ButtonHost) => void };
  readonly toBoolean: { readonly writable: true; readonly value: (this: ButtonHost, raw: number) => boolean };
}

/**
 * Makes the pin an input. With the pull-up: in one command where the IO offers Firmata's INPUT_PULLUP mode
 * (`supportsPullupMode`: Firmata ≥ 2.5 lists it in the pin's capabilities); otherwise as Firmata ≤ 2.4 and
 * johnny-five do it, INPUT and then HIGH written to the input (the pin floats between the two commands,
 * which is harmless only while its port is not reporting — the hub's order guarantees that).
 */
export function setUpButtonPin(io: HubIo, pin: number, pullup: boolean, supportsPullupMode: boolean): void {
  const pullupMode = io.MODES.PULLUP;
  if (pullup && supportsPullupMode && pullupMode !== undefined) {
    io.pinMode(pin, pullupMode);
    return;
  }
  io.pinMode(pin, io.MODES.INPUT);
  if (pullup) io.digitalWrite(pin, io.HIGH);
}

/**
 * The controller for the button on digital pin `pin`. johnny-five hands a Firmata Button's controller a pin
 * it has renumbered (14–19 on an Uno become analog channels 0–5, i.e. D0–D5), so the controller sets up the
 * pin it is given instead: a button on A0 is pin 14, as the hub's configuration and Firmata number it.
 */
export function rawButtonController(pin: number, supportsPullupMode: boolean): ButtonControllerDescriptor {
  return {
    initialize: {
      value(this: ButtonHost): void {
        this.pin = pin;
        setUpButtonPin(this.io, pin, this.pullup, supportsPullupMode);
      },
    },
    toBoolean: {
      writable: true,
      value(this: ButtonHost, raw: number): boolean {
        return raw === this.downValue;
      },
    },
  };
}

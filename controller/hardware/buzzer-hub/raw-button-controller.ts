/**
 * A johnny-five Button controller that hands the IO's raw pin readings to the hub.
 *
 * johnny-five's DEFAULT Button controller debounces with a 7 ms trailing timer and emits `down`/`up` with
 * no time, so a stamp taken there is 7 ms late and loses the first edge. This controller does the same pin
 * set-up (input, pull-up by writing HIGH to the input, digital reporting on) but passes every reading to
 * `onRaw` in the tick the IO delivers it; the hub stamps and debounces it (edge-debouncer.ts). The Button's
 * own callback is deliberately not fed: no duplicate debounce timers and no `hold` interval run inside
 * johnny-five (a held button's interval would otherwise outlive `stop()`).
 */
import type { HubIo } from './hub-io.ts';

/** What the controller uses of the Button it is installed on (johnny-five sets these before `initialize`). */
interface ButtonHost {
  readonly io: HubIo;
  readonly pin: number;
  readonly pullup: boolean;
  readonly downValue: number;
}

/** johnny-five's controller shape: property descriptors installed on the Button with `defineProperties`. */
export interface ButtonControllerDescriptor {
  readonly initialize: { readonly value: (this: ButtonHost) => void };
  readonly toBoolean: { readonly writable: true; readonly value: (this: ButtonHost, raw: number) => boolean };
}

export function rawButtonController(onRaw: (value: number) => void): ButtonControllerDescriptor {
  return {
    initialize: {
      value(this: ButtonHost): void {
        this.io.pinMode(this.pin, this.io.MODES.INPUT);
        // Firmata's way to enable the internal pull-up (johnny-five's DEFAULT controller does the same).
        if (this.pullup) this.io.digitalWrite(this.pin, this.io.HIGH);
        this.io.digitalRead(this.pin, onRaw);
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

/**
 * The physical side of an emulated Arduino Uno's header pins, for firmware that drives them by number
 * (StandardFirmata): what a wire on a pin sees, and what the outside world puts on it.
 *
 * - **Read back**: every change of a pin's electrical state (driven HIGH/LOW, input, input with pull-up) is
 *   recorded with its simulated time, so a test can check that a lamp pin went LOW or that a piezo pin
 *   toggled — and which pins never changed.
 * - **Buttons**: a switch from the pin to GND (the hub's wiring). avr8js models no pull-ups, so the model
 *   sets the level the pin would have: LOW while pressed; HIGH while released with the pull-up on; LOW while
 *   released and floating. (A floating CMOS input reads whatever it picks up; LOW is the reading that
 *   exposes a moment without the pull-up, which is what a real board can show too.)
 * - **Shorts**: a button pressed while its pin is an output driven HIGH connects 5 V to GND through the
 *   pin driver; every such moment is recorded (a real board would brown out or burn the pin).
 *
 * Numbering is the Uno's: D0–D7 = PD0–PD7, D8–D13 = PB0–PB5, A0–A5 = D14–D19 = PC0–PC5.
 */
import { PinState, type AVRIOPort } from 'avr8js';
import type { AvrRunner, Mcu } from '../emulator/avr-runner.ts';

type PortName = 'portB' | 'portC' | 'portD';

/** Where an Uno digital pin number lives on the ATmega328P. */
export interface PinLocation {
  readonly port: PortName;
  readonly bit: number;
}

/** Uno digital pin numbers 0–19 (A0 = 14 … A5 = 19). */
export const UNO_PIN_COUNT = 20;

export function unoPin(pin: number): PinLocation {
  if (!Number.isInteger(pin) || pin < 0 || pin >= UNO_PIN_COUNT) throw new Error(`no Uno pin ${pin}`);
  if (pin < 8) return { port: 'portD', bit: pin };
  if (pin < 14) return { port: 'portB', bit: pin - 8 };
  return { port: 'portC', bit: pin - 14 };
}

/** A pin's electrical state as its driver sets it. */
export type PinDrive = 'high' | 'low' | 'input' | 'pullup';

function driveOf(state: PinState): PinDrive {
  switch (state) {
    case PinState.High: return 'high';
    case PinState.Low: return 'low';
    case PinState.Input: return 'input';
    case PinState.InputPullUp: return 'pullup';
  }
}

/** A change of a pin's drive, at simulated time `atUs`. */
export interface DriveChange {
  readonly atUs: number;
  readonly drive: PinDrive;
}

/** A button from a pin to GND. */
export interface ButtonWire {
  readonly pin: number;
  /** Closes the contact at simulated time `atUs` (now, if that is past). */
  pressAt(atUs: number): void;
  /** Opens the contact at simulated time `atUs`. */
  releaseAt(atUs: number): void;
  /** True while the contact is closed. */
  readonly pressed: boolean;
  /** Simulated times of the contact's edges so far. */
  readonly edges: readonly { readonly atUs: number; readonly pressed: boolean }[];
}

export class UnoPins {
  /** Every drive change per pin since power-on (a reset makes every pin an input: recorded too). */
  readonly changes: DriveChange[][] = Array.from({ length: UNO_PIN_COUNT }, () => []);
  /** Moments a pressed button met its pin driven HIGH. */
  readonly shorts: { readonly pin: number; readonly atUs: number }[] = [];
  private readonly buttons = new Map<number, { pressed: boolean; edges: { atUs: number; pressed: boolean }[] }>();
  private mcu: Mcu | undefined;
  private readonly last: (PinDrive | undefined)[] = Array.from({ length: UNO_PIN_COUNT }, () => undefined);

  constructor(private readonly runner: AvrRunner) {
    runner.onAttach((mcu) => {
      this.mcu = mcu;
      for (const name of ['portB', 'portC', 'portD'] as const) {
        mcu[name].addListener(() => {
          if (mcu === this.mcu) this.update();
        });
      }
      this.update();
    });
  }

  /** The pin's drive now. */
  drive(pin: number): PinDrive {
    const { port, bit } = unoPin(pin);
    return this.mcu === undefined ? 'input' : driveOf(this.mcu[port].pinState(bit));
  }

  /** Drive changes of `pin` at or after simulated time `fromUs`. */
  changesOf(pin: number, fromUs = 0): DriveChange[] {
    return (this.changes[pin] ?? []).filter((c) => c.atUs >= fromUs);
  }

  /** Wires a button from `pin` to GND (released). */
  button(pin: number): ButtonWire {
    unoPin(pin);
    const state = { pressed: false, edges: [] as { atUs: number; pressed: boolean }[] };
    this.buttons.set(pin, state);
    const set = (atUs: number, pressed: boolean): void => {
      this.runner.at(atUs, () => {
        state.pressed = pressed;
        state.edges.push({ atUs: this.runner.nowUs, pressed });
        this.update();
      });
    };
    this.update();
    return {
      pin,
      pressAt: (atUs) => {
        set(atUs, true);
      },
      releaseAt: (atUs) => {
        set(atUs, false);
      },
      get pressed() {
        return state.pressed;
      },
      edges: state.edges,
    };
  }

  /** Re-derives every pin's drive and every button pin's input level from the current registers. */
  private update(): void {
    const mcu = this.mcu;
    if (mcu === undefined) return;
    const now = this.runner.nowUs;
    for (let pin = 0; pin < UNO_PIN_COUNT; pin++) {
      const { port, bit } = unoPin(pin);
      const io: AVRIOPort = mcu[port];
      const drive = driveOf(io.pinState(bit));
      if (drive !== this.last[pin]) {
        this.last[pin] = drive;
        this.changes[pin]?.push({ atUs: now, drive });
      }
      const button = this.buttons.get(pin);
      if (button === undefined) continue;
      if (button.pressed && drive === 'high') this.shorts.push({ pin, atUs: now });
      // Pressed pulls the pin to GND; released, only the pull-up (if on) lifts it; floating reads LOW.
      io.setPin(bit, !button.pressed && drive === 'pullup');
    }
  }
}

/**
 * A johnny-five Piezo controller that drives the pin it is given, by its digital number.
 *
 * johnny-five normalises a component's pin on a Firmata board: 14–19 on an Uno become analog channels 0–5
 * (`"A1"` → 1 as well). Right for a Sensor, wrong for a Piezo: its DEFAULT controller then drives D0–D5,
 * so a piezo on A2 turns the button pin D2 into an output driven HIGH (a short when pressed; seen on the
 * real StandardFirmata), and one on A1 is silent (Firmata leaves D1, the serial TX, alone). This
 * controller sets up and toggles exactly `pin`.
 *
 * Like the DEFAULT controller it plays the tone from the host, one Firmata write per half period, on a
 * `setImmediate` loop against the monotonic clock (a busy loop for the tone's duration, as johnny-five's
 * nanotimer is), and it always ends with the pin LOW: a passive piezo held HIGH draws current for nothing.
 */
import type { HubIo } from './hub-io.ts';

/** What the controller uses of the Piezo it is installed on (johnny-five sets `io` before `initialize`). */
interface PiezoHost {
  readonly io: HubIo;
  pin: number;
}

type Method<A extends unknown[]> = { readonly writable: true; readonly value: (this: PiezoHost, ...args: A) => unknown };

/** johnny-five's controller shape: property descriptors installed on the Piezo with `defineProperties`. */
export interface PiezoControllerDescriptor {
  readonly initialize: Method<[]>;
  /** `toneUs`: the half period in µs (johnny-five's `Piezo.ToTone(hz)`); `durationMs`: how long. */
  readonly tone: Method<[toneUs: number, durationMs: number]>;
  readonly noTone: Method<[]>;
}

export interface DigitalPiezo {
  readonly controller: PiezoControllerDescriptor;
  /** Stops a tone without writing to the pin (the port is gone). */
  readonly halt: () => void;
}

/** The controller for a Piezo on digital pin `pin`. */
export function digitalPiezoController(pin: number): DigitalPiezo {
  let playing: { stopped: boolean } | undefined;
  const stop = (): void => {
    if (playing !== undefined) playing.stopped = true;
    playing = undefined;
  };
  const controller: PiezoControllerDescriptor = {
    initialize: {
      writable: true,
      value(this: PiezoHost): void {
        this.pin = pin;
        this.io.pinMode(pin, this.io.MODES.OUTPUT);
      },
    },
    tone: {
      writable: true,
      value(this: PiezoHost, toneUs: number, durationMs: number): PiezoHost {
        // Very bad things happen with a NaN tone (johnny-five's words): refuse it as its controller does.
        if (!(toneUs > 0) || !(durationMs >= 0)) throw new Error('Piezo.tone: invalid tone or duration');
        stop();
        const io = this.io;
        const run = { stopped: false };
        playing = run;
        const halfNs = BigInt(Math.max(1, Math.round(toneUs * 1000)));
        const start = process.hrtime.bigint();
        const end = start + BigInt(Math.round(durationMs * 1e6));
        let next = start;
        let level = 0;
        const step = (): void => {
          if (run.stopped) return;
          const now = process.hrtime.bigint();
          if (now >= end) {
            if (playing === run) playing = undefined;
            io.digitalWrite(pin, io.LOW);
            return;
          }
          if (now >= next) {
            level ^= 1;
            io.digitalWrite(pin, level === 1 ? io.HIGH : io.LOW);
            // A late half period is not made up with a burst of writes: the tone just runs slower.
            next = next + halfNs > now ? next + halfNs : now + halfNs;
          }
          setImmediate(step);
        };
        setImmediate(step);
        return this;
      },
    },
    noTone: {
      writable: true,
      value(this: PiezoHost): PiezoHost {
        stop();
        this.io.digitalWrite(pin, this.io.LOW);
        return this;
      },
    },
  };
  return { controller, halt: stop };
}

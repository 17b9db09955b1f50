/**
 * Lamp and piezo writes that never touch a button's pull-up, on every Firmata version.
 *
 * Firmata has no "write one pin" in the protocol firmata-io speaks (2.3.0, johnny-five's dependency): a
 * `digitalWrite` sends the whole **Firmata port** — 8 pins, `pin >> 3`: port 0 = D0–D7, port 1 = D8–D13 with
 * A0/A1 (pins 14, 15), port 2 = A2–A5 (pins 16–19) on an Uno or a Nano — as one DIGITAL_MESSAGE. firmata-io
 * builds that value from its own copy of the port, into which it also copies the input bits the board
 * *reported*. StandardFirmata ≤ 2.4 writes a port's value to its INPUT pins as well, and writing 0 to an
 * AVR input turns its pull-up off: while a button is held its reported bit is 0, so the next lamp or piezo
 * write on its port switched the pull-up off — the pin then floats, reads LOW, and the release is never
 * reported (seen on avrgirl's StandardFirmata 2.4 with the button on A0 and the piezo on A1). Firmata 2.5
 * ignores 0 written to an input, but turns a 1 into INPUT_PULLUP: a reported 1 of a button without the
 * internal pull-up (`pullup: false`, an external resistor) would switch the internal one on there.
 *
 * So every port write carries, for each button pin, the pull-up the hub configured — 1 with the pull-up,
 * 0 without — instead of the last reading. On 2.4 that rewrites the pull-up it already has; on 2.5 it is a
 * no-op (an INPUT_PULLUP pin is left alone, a set pull-up is not set again). Firmata 2.5's per-pin
 * SET_DIGITAL_PIN_VALUE (0xF5) would avoid the port write altogether, but firmata-io cannot send it, and
 * the fix must hold for 2.3/2.4 boards, which do not know it.
 */
import type { HubIo } from './hub-io.ts';

/** The part of firmata-io this uses: its port values and its port write (both absent in a GPIO plugin). */
interface PortWritingIo {
  ports?: number[];
  writeDigitalPort?: (port: number) => void;
}

/** An input pin and the pull-up it must keep. */
export interface InputPin {
  readonly pin: number;
  readonly pullup: boolean;
}

/** Per Firmata port: which bits are inputs (`mask`) and which of those must be written 1 (`high`). */
export function inputPortBits(inputs: readonly InputPin[]): Map<number, { mask: number; high: number }> {
  const ports = new Map<number, { mask: number; high: number }>();
  for (const { pin, pullup } of inputs) {
    const port = pin >> 3;
    const bit = 1 << (pin & 7);
    const entry = ports.get(port) ?? { mask: 0, high: 0 };
    entry.mask |= bit;
    if (pullup) entry.high |= bit;
    ports.set(port, entry);
  }
  return ports;
}

/**
 * Makes the IO's whole-port writes carry `inputs`' configured pull-ups instead of their last readings.
 * Returns false (and changes nothing) for an IO without Firmata port writes (a GPIO plugin writes pins).
 * firmata-io's own copy of the port is left as it was: only the value on the wire changes.
 */
export function keepPullupsInPortWrites(io: HubIo, inputs: readonly InputPin[]): boolean {
  const firmata = io as HubIo & PortWritingIo;
  const write = firmata.writeDigitalPort;
  const values = firmata.ports;
  if (typeof write !== 'function' || !Array.isArray(values)) return false;
  const bits = inputPortBits(inputs);
  firmata.writeDigitalPort = (port: number): void => {
    const guard = bits.get(port);
    const kept = values[port];
    if (guard === undefined || kept === undefined) {
      write.call(firmata, port);
      return;
    }
    values[port] = (kept & ~guard.mask) | guard.high;
    try {
      write.call(firmata, port);
    } finally {
      values[port] = kept;
    }
  };
  return true;
}

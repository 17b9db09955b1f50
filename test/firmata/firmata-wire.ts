/**
 * Reading the Firmata byte stream on the emulated wire, for assertions: which commands the host sent, in
 * which order, and when the board's digital reports went out. Firmata 2.x framing (MIDI-like): a command
 * byte ≥ 0x80 followed by 7-bit data bytes, or SysEx between 0xF0 and 0xF7.
 */

/** A byte on the wire with the simulated time its stop bit ended (µs). */
export interface TimedByte {
  readonly byte: number;
  readonly atUs: number;
}

export type FirmataMessage =
  | { readonly type: 'digital'; readonly port: number; readonly value: number }
  | { readonly type: 'report-digital'; readonly port: number; readonly on: boolean }
  | { readonly type: 'report-analog'; readonly channel: number; readonly on: boolean }
  | { readonly type: 'pin-mode'; readonly pin: number; readonly mode: number }
  | { readonly type: 'analog'; readonly channel: number; readonly value: number }
  | { readonly type: 'version'; readonly major: number; readonly minor: number }
  | { readonly type: 'sysex'; readonly command: number; readonly data: readonly number[] }
  | { readonly type: 'reset' }
  | { readonly type: 'unknown'; readonly bytes: readonly number[] };

/** A decoded message with the times of its first and last byte. */
export type TimedMessage = FirmataMessage & { readonly startUs: number; readonly endUs: number };

/** Firmata pin modes (firmata-io's `MODES`). */
export const PIN_MODE = { INPUT: 0, OUTPUT: 1, ANALOG: 2, PWM: 3, PULLUP: 0x0b } as const;

/** How many data bytes follow a command byte (undefined: SysEx or a one-byte command). */
function dataLength(command: number): number | undefined {
  const high = command & 0xf0;
  if (high === 0x90 || high === 0xe0) return 2; // DIGITAL_MESSAGE, ANALOG_MESSAGE
  if (high === 0xc0 || high === 0xd0) return 1; // REPORT_ANALOG, REPORT_DIGITAL
  if (command === 0xf4 || command === 0xf9 || command === 0xf5) return 2; // PIN_MODE, REPORT_VERSION, SET_DIGITAL_PIN
  return undefined;
}

function decode(bytes: readonly number[]): FirmataMessage {
  const [command = 0, a = 0, b = 0] = bytes;
  const high = command & 0xf0;
  if (high === 0x90) return { type: 'digital', port: command & 0x0f, value: a | (b << 7) };
  if (high === 0xe0) return { type: 'analog', channel: command & 0x0f, value: a | (b << 7) };
  if (high === 0xd0) return { type: 'report-digital', port: command & 0x0f, on: a !== 0 };
  if (high === 0xc0) return { type: 'report-analog', channel: command & 0x0f, on: a !== 0 };
  if (command === 0xf4) return { type: 'pin-mode', pin: a, mode: b };
  if (command === 0xf9) return { type: 'version', major: a, minor: b };
  if (command === 0xff) return { type: 'reset' };
  if (command === 0xf0) return { type: 'sysex', command: a, data: bytes.slice(2, -1) };
  return { type: 'unknown', bytes };
}

/** Splits a byte stream into messages (a trailing incomplete message is left out). */
export function decodeFirmata(stream: readonly TimedByte[]): TimedMessage[] {
  const out: TimedMessage[] = [];
  let i = 0;
  while (i < stream.length) {
    const first = stream[i];
    if (first === undefined) break;
    if (first.byte < 0x80) { // a data byte out of frame (e.g. the rest of a message sent before we listened)
      i++;
      continue;
    }
    let end: number;
    if (first.byte === 0xf0) {
      end = i + 1;
      while (end < stream.length && stream[end]?.byte !== 0xf7) end++;
      if (end >= stream.length) break;
    } else {
      const n = dataLength(first.byte);
      end = i + (n ?? 0);
      if (end >= stream.length) break;
    }
    const slice = stream.slice(i, end + 1);
    out.push({ ...decode(slice.map((t) => t.byte)), startUs: first.atUs, endUs: slice.at(-1)?.atUs ?? first.atUs });
    i = end + 1;
  }
  return out;
}

/** The 7-bit-pair string of a SysEx STRING_DATA (0x71) or the name in REPORT_FIRMWARE (0x79). */
export function sysexText(data: readonly number[]): string {
  let text = '';
  for (let i = 0; i + 1 < data.length; i += 2) text += String.fromCharCode((data[i] ?? 0) | ((data[i + 1] ?? 0) << 7));
  return text;
}

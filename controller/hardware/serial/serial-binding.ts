/**
 * Which serialport binding the driver talks through. Production uses serialport's native binding; the
 * simulated table passes its binding over serialport's mock binding, and the firmware-in-the-loop tests
 * pass a binding over the emulated USART. Everything above this file is the same code in all three cases.
 *
 * The binding types come from `@serialport/bindings-interface`, the package serialport's own public types
 * are written against (installed with serialport; imported for types only).
 */
// Its package.json has no `types` export condition, so ESM resolution finds no declarations; the `require`
// resolution mode picks up dist/index.d.ts (types only, nothing is loaded at run time).
import type { BindingInterface, PortInfo } from '@serialport/bindings-interface' with { 'resolution-mode': 'require' };
import { SerialPort } from 'serialport';

export type { BindingInterface, PortInfo };

/** Any serialport binding (native, mock, emulator). */
export type SerialBinding = BindingInterface;

/** The station's serial rate (hardware/protocol.md: 115200 baud, 8N1, no flow control). */
export const STATION_BAUD_RATE = 115_200;

/** The native binding serialport picked for this platform (what `SerialPort.list()` uses). */
export function nativeBinding(): SerialBinding {
  return SerialPort.binding;
}

/**
 * A port object for `path` through `binding`, not yet open (`autoOpen: false`: the caller opens it and
 * handles the error). `SerialPort` takes an explicit `binding` over its default (its constructor spreads
 * the options over `{ binding: detected }`), which is what firmware-notes.md advises for the mock binding:
 * the binding object passed is the one whose port registry is used.
 */
export function createSerialPort(binding: SerialBinding, path: string, baudRate: number): SerialPort {
  // Passed as a variable: the option type of `SerialPort` leaves `binding` out, the constructor reads it.
  const options = { path, baudRate, autoOpen: false, binding };
  return new SerialPort(options);
}

/** Lists ports whose USB vendor id is one of `vendorIds` (hex, any case, e.g. `2341` Arduino, `1a86` CH340). */
export async function listPortsByVendor(binding: SerialBinding, vendorIds: readonly string[]): Promise<PortInfo[]> {
  const wanted = new Set(vendorIds.map((v) => v.toLowerCase()));
  const ports = await binding.list();
  return ports.filter((p) => p.vendorId !== undefined && wanted.has(p.vendorId.toLowerCase()));
}

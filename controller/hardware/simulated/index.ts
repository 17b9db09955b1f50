/**
 * The simulated table: software stations speaking the real protocol through serialport's mock binding,
 * read by the real serial driver; and virtual time for tests. See docs/hardware-interface.md.
 */
export * from './real-time.ts';
export * from './simulated-binding.ts';
export * from './simulated-lamp.ts';
export * from './simulated-pad.ts';
export * from './simulated-station.ts';
export * from './simulated-table.ts';
export * from './simulated-wire.ts';
export * from './station-line-reader.ts';
export * from './tag-presence.ts';
export * from './virtual-time.ts';
export * from './weight-filter.ts';

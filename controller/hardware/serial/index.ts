/**
 * The serial station driver: seat and pile stations running our firmware over USB serial (serialport +
 * @serialport/parser-readline), behind the `TableHardware` interface. See docs/hardware-interface.md.
 */
export * from './backoff.ts';
export * from './clock-pinger.ts';
export * from './command-queue.ts';
export * from './command-results.ts';
export * from './event-sequence.ts';
export * from './lamp-commands.ts';
export * from './line-parser.ts';
export * from './logger.ts';
export * from './port-supervisor.ts';
export * from './sensor-events.ts';
export * from './serial-binding.ts';
export * from './serial-stations.ts';
export * from './station-facts.ts';
export * from './station-link.ts';
export * from './station-record.ts';
export * from './timers.ts';

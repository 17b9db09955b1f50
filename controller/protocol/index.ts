/**
 * The zaptable line protocol (hardware/protocol.md), host side: a pure codec with no dependencies. The
 * serial driver and the simulated table both speak through it.
 */
export * from './codec.ts';
export * from './errors.ts';
export * from './messages.ts';

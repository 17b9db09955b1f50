/**
 * Timing core of the hardware layer (design principle 4, docs/timing.md): device-time unwrapping and
 * restart detection, per-station clock sync with an error bound, first-press arbitration with explicit
 * ties, and the simulated clocks and links the benchmark and tests use.
 */
export * from './arbitration.ts';
export * from './clock-sync.ts';
export * from './device-time.ts';
export * from './feasible-region.ts';
export * from './simulated-clock.ts';
export * from './simulated-host.ts';
export * from './simulated-link.ts';
export * from './station-clock.ts';
export * from './timing-bench.ts';

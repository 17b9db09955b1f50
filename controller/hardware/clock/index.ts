/**
 * Timing core of the hardware layer (design principle 4, docs/timing.md): device-time unwrapping and
 * restart detection, per-station clock sync with an error bound (arbitration with explicit ties is in the
 * time kernel, controller/kernel/event-order.ts). The simulated clocks and links the benchmarks use live in
 * `controller/bench/sim/`, which no production module may import (the `zaptable/layers` lint rule).
 */
export * from './clock-sync.ts';
export * from './device-time.ts';
export * from './feasible-region.ts';
export * from './station-clock.ts';

import { defineConfig } from 'vitest/config';

// Two cores on the CI machines: two workers keep the suite parallel without thrashing.
//
// Timeouts only catch a hung test; no test measures speed (figures come from the benchmarks). They allow for
// a busy machine: a CPU-bound test (random games, the AVR emulator) that takes a few seconds on an idle
// 2-core machine took 30–60 s during a full run with the load average at 15, and vitest's 10 s default for
// hooks is less than a browser's start there. Tests that do more (process restarts, long browser sessions)
// say how long they may take.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});

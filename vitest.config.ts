import { defineConfig } from 'vitest/config';

// Two cores on the CI machines: two workers keep the suite parallel without thrashing.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
  },
});

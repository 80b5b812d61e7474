import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // a verdict never depends on wall-clock time: a busy host runs a test slower, it does not fail
    // it; the limit only stops a run that would otherwise never end (CI's whole budget)
    testTimeout: 900_000,
    hookTimeout: 900_000,
    pool: 'threads',
    // the long traffic checks run beside the rest, also on a two-core machine
    maxWorkers: 2,
  },
});

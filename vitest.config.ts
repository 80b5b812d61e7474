import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // a verdict never depends on wall-clock time: a busy host runs a test slower, it does not fail
    // it. No test or hook has a time limit (0: none); a run cannot hang either, since the engine
    // reports a wait nothing can satisfy as a deadlock and the fuzz caps a run's engine events.
    // CI's job timeout bounds the whole suite.
    testTimeout: 0,
    hookTimeout: 0,
    pool: 'threads',
    // the long traffic checks run beside the rest, also on a two-core machine
    maxWorkers: 2,
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    pool: 'threads',
    // the long traffic checks run beside the rest, also on a two-core machine
    maxWorkers: 2,
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 15_000,
    hookTimeout: 15_000,
    // e2e suites start real servers; two cores are better spent on fewer, steadier workers
    maxWorkers: 2,
    reporters: ['default'],
  },
});

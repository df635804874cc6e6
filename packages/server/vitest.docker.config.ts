import { defineConfig } from 'vitest/config';

// The docker suites: the docker runtime against a real Docker engine (`npm test -- docker`).
export default defineConfig({
  test: {
    include: ['src/**/*.docker.test.ts'],
    globalSetup: ['src/testing/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // The files share one engine: one at a time.
    maxWorkers: 1,
    fileParallelism: false,
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // The docker and swarm suites need an engine (a cluster) and run on their own (vitest.docker.config.ts,
    // vitest.swarm.config.ts).
    exclude: ['src/**/*.docker.test.ts', 'src/**/*.swarm.test.ts'],
    globalSetup: ['src/testing/global-setup.ts'],
    // Each file starts its own database (PGlite, from the migrated template); keep the machine's 2
    // cores busy, not swamped. A file's setup (its database, a seeding of thousands of rows) can take
    // over a minute on a loaded machine: the limits are waits, not measures.
    testTimeout: 30_000,
    hookTimeout: 180_000,
    maxWorkers: 2,
  },
});

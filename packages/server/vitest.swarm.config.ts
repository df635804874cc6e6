import { defineConfig } from 'vitest/config';

// The swarm suite: the swarm runtime on a real multi-node Swarm made on this machine (`npm run swarm:local`),
// brought up once by the global setup and taken down after the last file (`npm test -- swarm`).
export default defineConfig({
  test: {
    include: ['src/**/*.swarm.test.ts'],
    globalSetup: ['src/testing/swarm-global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // The files share one cluster: one at a time.
    maxWorkers: 1,
    fileParallelism: false,
  },
});

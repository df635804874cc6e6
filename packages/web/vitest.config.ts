import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'jsdom',
    // test/ holds the repository-level checks of the console's layers (layer-zones.test.ts).
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.ts'],
    setupFiles: ['./test/setup.ts'],
    restoreMocks: true,
    // Screen tests walk several lazily loaded routes; allow for a loaded CI machine, where this suite
    // runs beside the server suites (see test/setup.ts).
    testTimeout: 45_000,
    // Vitest's default is one worker fewer than the cores: one, on a 2-core CI machine.
    maxWorkers: 2,
  },
});

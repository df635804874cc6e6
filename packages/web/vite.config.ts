import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The server (packages/server) listens on 4000 in development; the console talks to it through these paths.
const DEV_SERVER = 'http://localhost:4000';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      // Core is pure (no I/O, design.md), so a chunk that uses one core helper need not carry every zod schema.
      treeshake: { moduleSideEffects: (id) => !id.includes('/packages/core/') },
      output: {
        // Named vendor chunks cache across releases; the form stack loads only with the first form.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'router', test: /node_modules[\\/]react-router[\\/]/ },
            { name: 'query', test: /node_modules[\\/]@tanstack[\\/]/ },
            { name: 'forms', test: /node_modules[\\/](zod|react-hook-form|@hookform)[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '^/(auth|api|billing|metrics|dev)(/|$)': { target: DEV_SERVER },
      '/config.json': { target: DEV_SERVER },
    },
  },
});

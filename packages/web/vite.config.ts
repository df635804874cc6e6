import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { earlyScript } from './build/early-script.ts';
import { precompress } from './build/precompress.ts';
import { prerenderPages, routeModulesIn } from './build/prerender.ts';
import { routePreloads } from './build/route-preloads.ts';

// The server (packages/server) listens on 4000 in development; the console talks to it through these paths.
const DEV_SERVER = 'http://localhost:4000';

export default defineConfig({
  plugins: [
    react(),
    routePreloads({
      routerFile: fileURLToPath(new URL('./src/app/router.tsx', import.meta.url)),
      pathsFile: fileURLToPath(new URL('./src/lib/paths.ts', import.meta.url)),
      loaderFiles: [fileURLToPath(new URL('./src/app/list-pages.ts', import.meta.url))],
    }),
    prerenderPages({
      entry: '/src/app/prerender.tsx',
      routeModules: routeModulesIn(fileURLToPath(new URL('./src/app/routes/auth', import.meta.url))),
    }),
    earlyScript(
      fileURLToPath(new URL('./src/app/early-start.ts', import.meta.url)),
      fileURLToPath(new URL('./src/app/early-worker.ts', import.meta.url)),
    ),
    precompress(),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      // Core is pure (no I/O, design.md), so a chunk that uses one core helper need not carry every zod schema.
      // Other modules keep what their package.json says (zod: none), so an unused import loads nothing.
      treeshake: { moduleSideEffects: (id) => (id.includes('/packages/core/') ? false : undefined) },
      output: {
        // Named vendor chunks cache across releases; the form stack loads only with the first form.
        codeSplitting: {
          // Split by which pages use them, the console's own modules made some 200 files of a few hundred
          // bytes, and a signed-in page fetched 50 to 80 of them: the browser spent more on the requests
          // than on the code. Common chunks under 12 KB are copied into the chunks that read them instead
          // (rolldown keeps one instance of each module at run time); files with styles stay files.
          experimentalInlineCommonChunks: {
            maxSize: 12 * 1024,
            exclude: /\.(css|scss|sass|less|styl|stylus|pcss|postcss|sss)(\?|$)/,
          },
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'router', test: /node_modules[\\/]react-router[\\/]/ },
            { name: 'query', test: /node_modules[\\/]@tanstack[\\/](query-core|react-query)[\\/]/ },
            // Lists only: the login page never loads the table and the virtualizer.
            {
              name: 'table',
              test: /node_modules[\\/]@tanstack[\\/](table-core|react-table|virtual-core|react-virtual)[\\/]/,
            },
            // The resolvers join the form library they import, so pages that only parse with zod (the
            // shell's filters) do not load the form library with it.
            { name: 'forms', test: /node_modules[\\/](react-hook-form|@hookform[\\/]resolvers)[\\/]/ },
            // The schema library loads with the first form that has a schema (not with the login form).
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
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

// Bundles the server's code (its sources and @berth/core's) into dist/main.mjs, so `npm start` runs
// plain JavaScript: no TypeScript transform at each start, and one file to load instead of some 300.
// Dependencies stay in node_modules (external): PGlite, argon2 and others load files of their own.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const { dependencies } = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));
const external = Object.keys(dependencies).filter((name) => name !== '@berth/core');

const started = performance.now();
await build({
  entryPoints: [join(here, 'src', 'main.ts')],
  outfile: join(here, 'dist', 'main.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: [...external, ...external.map((name) => `${name}/*`)],
  // `NODE_OPTIONS=--enable-source-maps` maps stack traces back to the sources.
  sourcemap: 'linked',
  logLevel: 'warning',
});
console.log(
  `server bundled in ${Math.round(performance.now() - started)} ms: ${join(here, 'dist', 'main.mjs')}`,
);

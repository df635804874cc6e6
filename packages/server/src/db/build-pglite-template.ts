// `npm run build -w @berth/server`: makes the migrated PGlite template new data directories start
// from (pglite-template.ts), when this tree's one is missing.
import { buildPgliteTemplate } from './pglite-template.ts';

const started = performance.now();
const { path, built } = await buildPgliteTemplate();
const took = Math.round(performance.now() - started);
console.log(
  built ? `database template built in ${took} ms: ${path}` : `database template is current: ${path}`,
);

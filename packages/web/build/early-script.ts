import { rolldown } from 'rolldown';
import type { Plugin } from 'vite';

/** The classic script's name in the build; index.html names it, and the server writes it into the page. */
const EARLY_SCRIPT = 'early.js';

/** Bundles the start script alone, as one classic script, keeping only what it uses of core. */
async function bundleEarlyScript(entry: string): Promise<string> {
  const bundle = await rolldown({
    input: entry,
    platform: 'browser',
    // As in the console's build (vite.config.ts): core is pure, so an unused schema is never carried.
    treeshake: { moduleSideEffects: (id) => (id.includes('/packages/core/') ? false : undefined) },
    // react-router's "use client" means nothing to a script that never renders.
    onLog: (level, log, handler) => {
      if (log.code !== 'MODULE_LEVEL_DIRECTIVE') handler(level, log);
    },
  });
  try {
    const { output } = await bundle.generate({ format: 'iife', minify: true });
    return output[0].code;
  } finally {
    await bundle.close();
  }
}

/**
 * Builds `early.js` from `entry` (app/early-start.ts): the calls a signed-in console starts with, sent
 * while the browser still fetches and compiles the console's modules. The server writes it into
 * index.html as an inline script (packages/server/src/http/console-navigation.ts), so it runs as the
 * page is parsed, without a request of its own. The development server serves it as a file.
 */
export function earlyScript(entry: string): Plugin {
  return {
    name: 'berth-early-script',
    configureServer(server) {
      server.middlewares.use(`/${EARLY_SCRIPT}`, (_request, response, next) => {
        bundleEarlyScript(entry).then((code) => {
          response.setHeader('Content-Type', 'text/javascript');
          response.end(code);
        }, next);
      });
    },
    async generateBundle() {
      this.emitFile({ type: 'asset', fileName: EARLY_SCRIPT, source: await bundleEarlyScript(entry) });
    },
  };
}

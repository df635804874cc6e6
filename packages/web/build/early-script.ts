import { rolldown } from 'rolldown';
import type { Plugin } from 'vite';

/** The classic script's name in the build; index.html names it, and the server writes it into the page. */
const EARLY_SCRIPT = 'early.js';

/** Bundles a start file alone, as one classic script, keeping only what it uses of core. */
async function bundleAlone(entry: string): Promise<string> {
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

/** Where app/early-start.ts has the start worker's code written in: a string literal of this text. */
const WORKER_CODE = /(["'`])__BERTH_EARLY_WORKER__\1/g;

/** The start script, with the start worker's code written into it. */
async function bundleEarlyScript(entry: string, workerEntry: string): Promise<string> {
  const [script, worker] = await Promise.all([bundleAlone(entry), bundleAlone(workerEntry)]);
  const places = script.match(WORKER_CODE)?.length ?? 0;
  if (places !== 1)
    throw new Error(`${EARLY_SCRIPT} should have one place for the start worker, not ${places}`);
  // A JSON string is a JavaScript string literal. With each `<` escaped nothing in it can end the page's
  // script element early: the server inlines the script only then (console-navigation.ts), and serves it
  // as a file otherwise, a request the page would wait for.
  const code = script.replace(WORKER_CODE, () => JSON.stringify(worker).replace(/</g, '\\u003c'));
  if (/<\/script|<!--/i.test(code)) throw new Error(`${EARLY_SCRIPT} could not be written into the page`);
  return code;
}

/**
 * Builds `early.js` from `entry` (app/early-start.ts): the calls a signed-in console starts with, sent
 * while the browser still fetches and compiles the console's modules. The server writes it into
 * index.html as an inline script (packages/server/src/http/console-navigation.ts), so it runs as the
 * page is parsed, without a request of its own. It carries the start worker (`workerEntry`,
 * app/early-worker.ts), which sends them off the page's main thread. The development server serves it as
 * a file.
 */
export function earlyScript(entry: string, workerEntry: string): Plugin {
  return {
    name: 'berth-early-script',
    configureServer(server) {
      server.middlewares.use(`/${EARLY_SCRIPT}`, (_request, response, next) => {
        bundleEarlyScript(entry, workerEntry).then((code) => {
          response.setHeader('Content-Type', 'text/javascript');
          response.end(code);
        }, next);
      });
    },
    async generateBundle() {
      const source = await bundleEarlyScript(entry, workerEntry);
      this.emitFile({ type: 'asset', fileName: EARLY_SCRIPT, source });
    },
  };
}

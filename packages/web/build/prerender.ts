import path from 'node:path';
import { createServer, type Plugin } from 'vite';

/** What the build writes beside index.html, and the server reads (packages/server/src/http/console-navigation.ts). */
export const PRERENDERED_FILE = 'prerendered.json';

/** One prerendered page: its markup for `<div id="root">` and the stylesheets its lazy route brings. */
export interface PrerenderedPage {
  html: string;
  styles: string[];
}

interface PrerenderModule {
  PRERENDERED_PATHS: readonly string[];
  prerender(pathname: string): Promise<string>;
}

/**
 * Renders the sign-in pages (app/prerender.tsx names them) with react-dom/server, from the same routes
 * and components the console runs, and writes `prerendered.json`: per path, the markup and the CSS
 * files of that route's chunks. The server sends the markup inside `<div id="root">` to a visitor
 * without a session, so the form shows (and posts) before any script runs; main.tsx takes it over.
 */
export function prerenderPages(options: { entry: string; routeModules: Record<string, string> }): Plugin {
  let root = '';
  return {
    name: 'berth-prerender',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    async generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const entryCss = new Set(
        chunks
          .filter((chunk) => chunk.isEntry)
          .flatMap((chunk) => [...(chunk.viteMetadata?.importedCss ?? [])]),
      );
      /** The CSS files of a chunk and of every chunk it imports, less the entry's (index.html links those). */
      const stylesOf = (fileName: string, seen = new Set<string>()): string[] => {
        if (seen.has(fileName)) return [];
        seen.add(fileName);
        const chunk = byFile.get(fileName);
        if (!chunk) return [];
        const own = [...(chunk.viteMetadata?.importedCss ?? [])];
        return [...own, ...chunk.imports.flatMap((imported) => stylesOf(imported, seen))];
      };
      // A server in middleware mode loads the page modules as the build's prerender needs them, outside
      // this bundle: the same sources, run by Node.
      const server = await createServer({
        root,
        configFile: false,
        logLevel: 'error',
        appType: 'custom',
        server: { middlewareMode: true, hmr: false, ws: false },
      });
      try {
        const module = (await server.ssrLoadModule(options.entry)) as PrerenderModule;
        const table: Record<string, PrerenderedPage> = {};
        for (const pathname of module.PRERENDERED_PATHS) {
          const moduleId = options.routeModules[pathname];
          const chunk = chunks.find((item) => item.facadeModuleId === moduleId);
          if (!moduleId || !chunk) this.error(`prerender: no chunk for ${pathname}`);
          const styles = [...new Set(stylesOf(chunk.fileName))].filter((file) => !entryCss.has(file));
          table[pathname] = {
            html: await module.prerender(pathname),
            styles: styles.map((file) => `/${file}`),
          };
        }
        this.emitFile({ type: 'asset', fileName: PRERENDERED_FILE, source: JSON.stringify(table) });
      } finally {
        await server.close();
      }
    },
  };
}

/** The route module of each prerendered path (a route pattern, as paths.ts writes it), for finding its chunk. */
export function routeModulesIn(routesDirectory: string): Record<string, string> {
  return {
    '/login': path.join(routesDirectory, 'login.tsx'),
    '/signup': path.join(routesDirectory, 'signup.tsx'),
    '/forgot-password': path.join(routesDirectory, 'forgot-password.tsx'),
    '/password/update/:challengeId/:verificationCode': path.join(routesDirectory, 'password-update.tsx'),
    '/otp-reset-verify/:challengeId/:verificationCode': path.join(routesDirectory, 'otp-reset-verify.tsx'),
  };
}

import fs from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import { ConsoleFiles } from './console-files.ts';
import type { ConsoleDocument } from './console-navigation.ts';
import { apiNotFound } from './not-found.ts';

/** The built console's index.html in `webDist`, or null when the console is not built. */
export function consoleIndexIn(webDist: string): string | null {
  const indexPath = path.join(webDist, 'index.html');
  return fs.existsSync(indexPath) ? indexPath : null;
}

export interface ConsoleStaticOptions {
  /** The built console (packages/web/dist). */
  webDist: string;
  /** Its index.html (see consoleDocument), or null: then nothing is served and unknown paths are JSON 404s. */
  consoleDocument: ConsoleDocument | null;
}

const ASSETS = '/assets/';

/**
 * The built console at the root: its files (from memory, see ConsoleFiles), and index.html for any
 * other GET or HEAD (client-side routes; the console shows its own 404). An unknown path under
 * /assets/ is a 404, not the page: a browser asking for code must not be given HTML. Everything else no
 * route matched is a JSON 404. Wrapped with fastify-plugin because both the files and the not-found
 * handler belong to the root; register it last, after the service families, which answer their own 404s.
 */
export const consoleStatic = fp<ConsoleStaticOptions>(
  async (app, { webDist, consoleDocument }) => {
    if (consoleDocument) {
      const files = await ConsoleFiles.load(webDist);
      // The files carry their own encodings: nothing for @fastify/compress to do.
      const routeOptions = { compress: false as const };
      app.get(`${ASSETS}*`, routeOptions, async (request, reply) => {
        const name = (request.params as { '*': string })['*'];
        return (await files.send(`${ASSETS}${name}`, request, reply)) ? reply : apiNotFound(request, reply);
      });
      for (const file of files.paths().filter((name) => !name.startsWith(ASSETS))) {
        app.get(file, routeOptions, async (request, reply) =>
          (await files.send(file, request, reply)) ? reply : apiNotFound(request, reply),
        );
      }
    }
    app.setNotFoundHandler((request, reply) => {
      if (consoleDocument && (request.method === 'GET' || request.method === 'HEAD')) {
        return consoleDocument.send(request, reply);
      }
      return apiNotFound(request, reply);
    });
  },
  { name: 'berth-console-static' },
);

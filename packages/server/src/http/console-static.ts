import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
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

/**
 * The built console at the root: its files, and index.html for any other GET or HEAD (client-side
 * routes; the console shows its own 404). Everything else no route matched is a JSON 404. Wrapped with
 * fastify-plugin because both the files and the not-found handler belong to the root; register it last,
 * after the service families, which answer their own 404s.
 */
export const consoleStatic = fp<ConsoleStaticOptions>(
  async (app, { webDist, consoleDocument }) => {
    if (consoleDocument) {
      await app.register(fastifyStatic, {
        root: webDist,
        wildcard: false,
        index: false,
        // The build writes file.br and file.gz beside each text file: sent as the browser accepts.
        preCompressed: true,
        setHeaders(res, filePath) {
          // Vite fingerprints assets, so they never change under the same name.
          if (filePath.includes(`${path.sep}assets${path.sep}`)) {
            res.header('cache-control', 'public, max-age=31536000, immutable');
          }
        },
      });
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

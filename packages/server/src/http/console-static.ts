import fs from 'node:fs';
import path from 'node:path';
import { MAX_LENGTH } from '@berth/core';
import fp from 'fastify-plugin';
import { ConsoleFiles } from './console-files.ts';
import { type ConsoleDocument, NEEDS_JAVASCRIPT } from './console-navigation.ts';
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

/** A sign-in form posted without JavaScript is a few short fields; anything longer is not one. */
export const SIGN_IN_FORM_BODY_LIMIT = 4096;

/**
 * What Berth keeps of a posted sign-in form: the email to show again. The password is never read. A
 * class, so that only this parser's result counts as one (a JSON body of the same shape does not).
 */
export class PostedSignIn {
  constructor(
    readonly email: string | undefined,
    /** Some field was longer than a sign-in form's field can be. */
    readonly tooLong: boolean,
  ) {}
}

/** The longest value of a sign-in form's other fields (a password is at most 72 bytes, a name 255). */
const FIELD_MAX = 1024;

/** Reads a posted sign-in form (application/x-www-form-urlencoded), keeping only the email. */
export function readPostedSignIn(body: string): PostedSignIn {
  let email: string | undefined;
  let tooLong = false;
  for (const [key, value] of new URLSearchParams(body)) {
    if (key === 'email') {
      if (value.length > MAX_LENGTH.email) tooLong = true;
      else email = value;
    } else if (value.length > FIELD_MAX) tooLong = true;
  }
  return new PostedSignIn(email, tooLong);
}

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
    if (consoleDocument && consoleDocument.prerenderedPaths.length > 0) {
      const document = consoleDocument;
      // Not fastify-plugin: the form parser stays inside, every other route still reads JSON alone.
      await app.register(async (forms) => {
        forms.addContentTypeParser(
          'application/x-www-form-urlencoded',
          { parseAs: 'string', bodyLimit: SIGN_IN_FORM_BODY_LIMIT },
          (_request, body, done) =>
            done(null, readPostedSignIn(typeof body === 'string' ? body : body.toString('utf8'))),
        );
        for (const pathname of document.prerenderedPaths) {
          // Its own route, so that the page is picked by the path the router matched (decoded), not the raw URL.
          forms.get(pathname, async (request, reply) => document.send(request, reply));
          // The prerendered sign-in pages post here when the console's code has not run (JavaScript
          // off). Tokens live in the console's memory (spec), so a plain post cannot sign anyone in:
          // the page comes back saying so, with the email typed.
          forms.post(pathname, { bodyLimit: SIGN_IN_FORM_BODY_LIMIT }, async (request, reply) => {
            // Another content type reaches here parsed as that type would be: only this parser's result counts.
            const posted = request.body;
            if (!(posted instanceof PostedSignIn) || posted.tooLong) {
              return document.sendPosted(request, reply, { message: NEEDS_JAVASCRIPT }, 400);
            }
            return document.sendPosted(
              request,
              reply,
              { message: NEEDS_JAVASCRIPT, email: posted.email },
              200,
            );
          });
        }
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

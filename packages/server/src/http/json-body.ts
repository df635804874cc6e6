import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import secureJson from 'secure-json-parse';
import { ApiError } from './errors.ts';

type PoisoningAction = 'error' | 'remove' | 'ignore';

/**
 * The parser of a JSON body's text, refusing NUL and prototype keys as the app's poisoning options say.
 * The SCIM family adds it for application/scim+json as well (scim/scim.plugin.ts).
 */
export function jsonTextParser(app: FastifyInstance) {
  const poisoning = {
    protoAction: app.initialConfig.onProtoPoisoning as PoisoningAction,
    constructorAction: app.initialConfig.onConstructorPoisoning as PoisoningAction,
  };
  return (_request: unknown, body: string | Buffer, done: (error: Error | null, value?: unknown) => void) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    // PostgreSQL text cannot hold NUL; refuse it here rather than fail deep in a query.
    if (text.includes('\\u0000') || text.includes('\u0000')) {
      return done(
        new ApiError(400, 'bad_request', 'Request body must not contain NUL characters'),
        undefined,
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return done(new ApiError(400, 'bad_request', 'Request body is not valid JSON'), undefined);
    }
    try {
      done(null, parsed && typeof parsed === 'object' ? secureJson.scan(parsed, poisoning) : parsed);
    } catch {
      done(
        new ApiError(
          400,
          'bad_request',
          'Request body must not contain "__proto__" or "constructor.prototype" keys',
        ),
        undefined,
      );
    }
  };
}

/**
 * Parses application/json and application/hal+json bodies for every route. The console sends
 * application/hal+json on every call, GETs and DELETEs included, often with no body: an empty body is
 * `undefined`, not an error (a route whose body is required answers 400 for it, see schema-first.ts).
 * Keys that would reach an object's prototype (`__proto__`, `constructor.prototype`) are handled as the
 * server's `onProtoPoisoning` and `onConstructorPoisoning` options say ('error': 400). JSON is the only
 * body the API reads: any other content type (text/plain, multipart, forms) is 415. Wrapped with
 * fastify-plugin so the parser applies beyond this plugin.
 */
export const jsonBody = fp(
  async (app: FastifyInstance) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(
      ['application/json', 'application/hal+json'],
      { parseAs: 'string' },
      jsonTextParser(app),
    );
  },
  { name: 'berth-json-body' },
);

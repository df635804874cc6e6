import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from './errors.ts';

/**
 * Parses application/json and application/hal+json bodies for every route. The console sends
 * application/hal+json on every call, GETs and DELETEs included, often with no body: an empty body is
 * `undefined`, not an error. Wrapped with fastify-plugin so the parser applies beyond this plugin.
 */
export const jsonBody = fp(
  async (app: FastifyInstance) => {
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser(
      ['application/json', 'application/hal+json'],
      { parseAs: 'string' },
      (_request, body, done) => {
        const text = typeof body === 'string' ? body : body.toString('utf8');
        if (text.trim() === '') return done(null, undefined);
        // PostgreSQL text cannot hold NUL; refuse it here rather than fail deep in a query.
        if (text.includes('\\u0000') || text.includes('\u0000')) {
          return done(
            new ApiError(400, 'bad_request', 'Request body must not contain NUL characters'),
            undefined,
          );
        }
        try {
          done(null, JSON.parse(text));
        } catch {
          done(new ApiError(400, 'bad_request', 'Request body is not valid JSON'), undefined);
        }
      },
    );
  },
  { name: 'berth-json-body' },
);

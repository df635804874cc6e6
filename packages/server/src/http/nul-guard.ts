import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from './errors.ts';

/**
 * Refuses a URL carrying an encoded NUL (`%00`, in the path or the query) before any route sees it:
 * PostgreSQL text cannot hold NUL. Wrapped with fastify-plugin so the hook guards every route.
 */
export const nulGuard = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', async (request) => {
      if (/%00/i.test(request.url))
        throw new ApiError(400, 'bad_request', 'The URL must not contain NUL characters');
    });
  },
  { name: 'berth-nul-guard' },
);

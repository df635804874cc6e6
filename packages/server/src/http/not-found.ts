import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errorBody } from './errors.ts';

/** JSON 404 for a path no route matched, as the contract's error body. */
export function apiNotFound(request: FastifyRequest, reply: FastifyReply) {
  const pathname = request.url.split('?')[0] ?? '/';
  return reply
    .code(404)
    .type('application/hal+json; charset=utf-8')
    .send(
      errorBody(new ApiError(404, 'not_found', `No route for ${request.method} ${pathname.slice(0, 200)}`)),
    );
}

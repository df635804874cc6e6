import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errorBody } from './errors.ts';

/**
 * JSON 404 for a request no route matched, as the contract's error body. It names the method only:
 * no route matched, so there is no route to name, and the raw URL (undecoded, as sent) is not echoed.
 */
export function apiNotFound(request: FastifyRequest, reply: FastifyReply) {
  return reply
    .code(404)
    .type('application/hal+json; charset=utf-8')
    .send(errorBody(new ApiError(404, 'not_found', `No route matches this ${request.method} request`)));
}

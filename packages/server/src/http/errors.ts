import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { loggableError } from './loggable-error.ts';

/** Contract §1.3: `{ code, error, message, exception_context, details? }` for every failure. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
    readonly details?: Record<string, string[]>,
    readonly exceptionContext: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** 429: the answer's Retry-After header says how many seconds to wait before trying again. */
export class RateLimitedError extends ApiError {
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super(429, 'rate_limited', message);
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  }
}

export const notFound = (what = 'Resource') => new ApiError(404, 'not_found', `${what} not found`);
export const unauthorized = (message = 'You must be logged in') =>
  new ApiError(401, 'invalid_token', message);
export const forbidden = (message: string, error = 'forbidden') => new ApiError(403, error, message);
export const unsupportedMediaType = () =>
  new ApiError(
    415,
    'unsupported_media_type',
    'Request body must be JSON (Content-Type: application/json or application/hal+json)',
  );
/** A body required by the route, and none sent (or an empty one): malformed, not invalid. */
export const missingBody = () => new ApiError(400, 'bad_request', 'Request body must not be empty');
export const unprocessable = (message: string, details?: Record<string, string[]>) =>
  new ApiError(422, 'unprocessable_entity', message, details);

/** A failed parse as the contract's 422: the first spec message, and every message by field. */
export function validationError(error: z.ZodError): ApiError {
  const details: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || 'base';
    details[key] = [...(details[key] ?? []), issue.message];
  }
  return unprocessable(error.issues[0]?.message ?? 'Invalid request body', details);
}

/**
 * Parses a body with the core schema; a failure is 422 with the first spec message and per-field details,
 * or 400 when no body was sent at all (see schema-first.ts).
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  throw body === undefined ? missingBody() : validationError(result.error);
}

export function errorBody(error: ApiError) {
  return {
    code: error.status,
    error: error.error,
    message: error.message,
    exception_context: error.exceptionContext,
    ...(error.details ? { details: error.details } : {}),
  };
}

/** The one error mapper: every error leaves as the contract's JSON body. */
export function handleError(
  error: FastifyError | ApiError | Error,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (error instanceof ApiError) {
    if (error instanceof RateLimitedError) reply.header('retry-after', String(error.retryAfterSeconds));
    return reply.code(error.status).type('application/hal+json; charset=utf-8').send(errorBody(error));
  }
  const fastifyError = error as FastifyError;
  // No parser for the body's content type: the API reads JSON bodies only.
  if (fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return handleError(unsupportedMediaType(), request, reply);
  }
  const status = fastifyError.statusCode && fastifyError.statusCode < 500 ? fastifyError.statusCode : 500;
  if (status >= 500) request.log.error(loggableError(error));
  const mapped = new ApiError(
    status,
    status === 400 ? 'bad_request' : status >= 500 ? 'internal_error' : 'request_error',
    status >= 500 ? 'Something went wrong on our side' : fastifyError.message,
  );
  return reply.code(status).type('application/hal+json; charset=utf-8').send(errorBody(mapped));
}

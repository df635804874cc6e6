import { apiErrorBody } from '@berth/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify/types/schema.js';
import { z } from 'zod';
import type { AuthGuard } from './authenticate.ts';
import { missingBody, notFound, validationError } from './errors.ts';

// Schema-first routes: each route declares its params, query, body and responses with core's zod
// schemas. Fastify validates requests with them (a failure is the contract's 422 with the spec's
// message), the OpenAPI documents are generated from them, and, when responses are checked (tests), an
// answer that strays from its declared shape is a 500 that names the route.

/**
 * Request validation: body and query failures are 422 with per-field details; a bad path is 404. No body
 * (or an empty one) reads as `{}`, so a route whose fields are all optional takes it; a route that needs
 * fields answers 400 for it: the request is malformed, there is nothing to validate.
 */
const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const result = schema.safeParse(httpPart === 'body' ? (data ?? {}) : data);
    if (result.success) return { value: result.data };
    if (httpPart === 'params') return { error: notFound() };
    // Fastify hands an absent body to validators as null.
    if (httpPart === 'body' && data == null) return { error: missingBody() };
    return { error: validationError(result.error) };
  };

/** Answers leave as JSON; when `check` is on, each is first held against the route's response schema. */
function serializerCompiler(check: boolean): FastifySerializerCompiler<z.ZodType> {
  return ({ schema, method, url }) =>
    (data) => {
      if (check) {
        const result = schema.safeParse(data);
        if (!result.success) {
          throw new Error(
            `The answer of ${method} ${url} does not match its schema: ${z.prettifyError(result.error)}`,
          );
        }
      }
      return JSON.stringify(data);
    };
}

/** Sets the compilers on the root instance: every service family inherits them. */
export function schemaFirst(app: FastifyInstance, options: { checkResponses: boolean }) {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler(options.checkResponses));
}

/**
 * Checks each route's caller before its input (a service family's hook): an anonymous, read-only or
 * unverified request is refused (401/403) before its body is read, exactly as the handler's own
 * `requireCaller` would (both read the route's `caller` option); routes marked `public` skip it.
 */
export function callerBeforeInput(guard: AuthGuard) {
  return async (request: FastifyRequest) => {
    if (request.is404 || request.routeOptions.config.public) return;
    await guard.requireCaller(request);
  };
}

/** A route's answers: the given successes, and any failure in the contract's error body. */
type Answer = z.ZodType | { content: Record<string, { schema: z.ZodType }> };
export function responses<const R extends Record<number, Answer>>(success: R) {
  return { ...success, '4xx': apiErrorBody, '5xx': apiErrorBody };
}

import { MAX_LENGTH } from '@berth/core';
import { z } from 'zod';
import { responses } from './schema-first.ts';

// The request pieces most routes' schemas share: an id in the path, paging and flags in the query.
// Answers come from core: resource shapes (`<resource>.hal.ts`), `textAnswer` and `noContent` (hal/hal.ts).

/** A path parameter as the router hands it over (the router refuses longer ones with 414). */
export const pathParameter = z.string().max(MAX_LENGTH.pathParameter, { abort: true });

/** `/:id` paths. Ids are parsed by the handler (`parseNumericId`), so a malformed id is a 404 there. */
export const idParams = z.strictObject({ id: pathParameter });

/** One query parameter's value (the request's whole query is bounded before this too). */
export const queryValue = z.string().max(MAX_LENGTH.query, { abort: true });

/** A flag the console sends as `true` (`no_embed=true`, `with_deleted=true`). */
export const queryFlagValue = queryValue.describe('`true` (or `1`) to turn on').optional();

/**
 * A query: the named parameters, plus `page` and `per_page` when `paged`. Other parameters are kept,
 * not refused: the console and older clients send some no route reads.
 */
export function querySchema<const Shape extends Record<string, z.ZodType>>(
  shape: Shape,
  options: { paged?: boolean } = {},
) {
  return z.looseObject({
    ...(options.paged
      ? {
          page: queryValue.describe('Page number, from 1; without it the whole collection').optional(),
          per_page: queryValue.describe('Items per page, at most 5000').optional(),
        }
      : {}),
    ...shape,
  });
}

/** A collection's query: paging only. */
export const pagedQuery = querySchema({}, { paged: true });

/**
 * The body of a route whose service reads it only once the caller may act there (so a caller who may
 * not gets 404 or 403 whatever they sent, and a missing parent is 404 before a bad body's 422): the
 * route lets any body through to the service, and its document shows `schema`, the one the service
 * checks the body against.
 */
export function bodyCheckedByService(schema: z.ZodType, description: string) {
  const { $schema: _, ...documented } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  return z.unknown().meta({ ...documented, description });
}

/** The successes a route declares (`{ 200: resource }`); `responses` adds the failures. */
type Successes = Parameters<typeof responses>[0];

/** What a route reads besides its path. */
type RequestParts = { body?: z.ZodType; querystring?: z.ZodType };

/**
 * A route's options with the schema most routes write out: the document's tags and summary, what it
 * reads, and its answers (the given successes, any failure in the contract's error body). Routes that
 * need more (`config`) spread these in.
 */
export function route<const R extends Successes, const P extends RequestParts = Record<never, never>>(
  tags: string[],
  summary: string,
  success: R,
  parts: P = {} as P,
) {
  return { schema: { tags, summary, ...parts, response: responses(success) } };
}

/** `route` for a path on one resource (`/<resources>/:id`, `/<resources>/:id/<children>`). */
export function idRoute<const R extends Successes, const P extends RequestParts = Record<never, never>>(
  tags: string[],
  summary: string,
  success: R,
  parts: P = {} as P,
) {
  return { schema: { tags, summary, params: idParams, ...parts, response: responses(success) } };
}

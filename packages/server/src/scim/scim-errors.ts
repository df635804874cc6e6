import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.ts';
import { loggableError } from '../http/loggable-error.ts';

export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';

/** RFC 7644 §3.12 `scimType` values this server answers with. */
export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers'
  | 'sensitive';

/** A failure as SCIM says it: an HTTP status, a detail, and for some 400s and 409s a scimType. */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
  }
}

export const scimNotFound = (what: string) => new ScimError(404, `${what} not found`);
export const invalidValue = (detail: string) => new ScimError(400, detail, 'invalidValue');
export const invalidSyntax = (detail: string) => new ScimError(400, detail, 'invalidSyntax');
export const invalidPath = (detail: string) => new ScimError(400, detail, 'invalidPath');
export const uniqueness = (detail: string) => new ScimError(409, detail, 'uniqueness');

/** RFC 7644 §3.12: `status` is a string. */
export function scimErrorBody(error: ScimError) {
  return {
    schemas: [SCIM_ERROR_SCHEMA],
    status: String(error.status),
    ...(error.scimType ? { scimType: error.scimType } : {}),
    detail: error.detail,
  };
}

export function sendScimError(reply: FastifyReply, error: ScimError) {
  if (error.status === 401) reply.header('www-authenticate', 'Bearer realm="SCIM"');
  return reply.code(error.status).type(SCIM_CONTENT_TYPE).send(scimErrorBody(error));
}

/**
 * Every failure under /scim/v2 leaves in the SCIM error schema: the server's own errors (a body that is
 * not JSON, a value over its length, a body too large) keep their status and words; anything unexpected
 * is a 500 that says nothing of its cause (which goes to the log).
 */
export function handleScimError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof ScimError) return sendScimError(reply, error);
  if (error instanceof ApiError) {
    // The contract's 422 (a string over its bound) is a bad value in SCIM's words; its 400s are bodies
    // that do not parse (RFC 7644 §3.12 invalidSyntax).
    const scimType =
      error.status === 422 ? 'invalidValue' : error.status === 400 ? 'invalidSyntax' : undefined;
    return sendScimError(
      reply,
      new ScimError(error.status === 422 ? 400 : error.status, error.message, scimType),
    );
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return sendScimError(
      reply,
      new ScimError(
        415,
        'Request body must be JSON (Content-Type: application/scim+json or application/json)',
      ),
    );
  }
  const status = fastifyError.statusCode && fastifyError.statusCode < 500 ? fastifyError.statusCode : 500;
  if (status >= 500) {
    request.log.error(loggableError(error));
    return sendScimError(reply, new ScimError(500, 'Something went wrong on our side'));
  }
  return sendScimError(
    reply,
    new ScimError(status, fastifyError.message, status === 400 ? 'invalidSyntax' : undefined),
  );
}

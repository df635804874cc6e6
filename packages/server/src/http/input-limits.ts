import { MAX_LENGTH, tooLongMessage } from '@berth/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The longest string this route accepts anywhere in its body (default MAX_LENGTH.bodyString). */
    maxBodyString?: number;
  }
}

/**
 * The backstop under every schema's own limits: no query value or body string longer than its bound
 * reaches a handler, whichever route it is and whether or not its schema remembered a `.max()`. (Path
 * parameters are bounded by the router's maxParamLength.) Added on the root, so every route has it.
 */
export function boundInput(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    for (const [name, value] of Object.entries((request.query ?? {}) as Record<string, unknown>)) {
      const values = Array.isArray(value) ? value : [value];
      if (values.some((one) => typeof one === 'string' && one.length > MAX_LENGTH.query)) {
        throw new ApiError(
          400,
          'bad_request',
          tooLongMessage(`The query parameter ${name.slice(0, 100)}`, MAX_LENGTH.query),
        );
      }
    }
    const limit = request.routeOptions.config.maxBodyString ?? MAX_LENGTH.bodyString;
    const tooLong = longStringIn(request.body, limit);
    if (tooLong !== null) {
      throw new ApiError(422, 'unprocessable_entity', tooLongMessage(tooLong || 'A value', limit), {
        [tooLong || 'base']: [tooLongMessage(tooLong || 'A value', limit)],
      });
    }
  });
}

/**
 * The path of the first string (or object key) in a parsed JSON body longer than `limit`, or null.
 * Iterative, so a deeply nested body cannot exhaust the stack.
 */
export function longStringIn(body: FastifyRequest['body'], limit: number): string | null {
  const pending: { value: unknown; path: string }[] = [{ value: body, path: '' }];
  while (pending.length > 0) {
    const { value, path } = pending.pop() as { value: unknown; path: string };
    if (typeof value === 'string') {
      if (value.length > limit) return path;
    } else if (Array.isArray(value)) {
      value.forEach((entry, index) => {
        pending.push({ value: entry, path: path ? `${path}.${index}` : String(index) });
      });
    } else if (value !== null && typeof value === 'object') {
      for (const [key, entry] of Object.entries(value)) {
        const keyPath = path ? `${path}.${key.slice(0, 100)}` : key.slice(0, 100);
        if (key.length > limit) return keyPath;
        pending.push({ value: entry, path: keyPath });
      }
    }
  }
  return null;
}

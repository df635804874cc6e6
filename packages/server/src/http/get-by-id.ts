import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { CallerAccess, Callers } from '../auth/caller-access.ts';
import { parseNumericId } from './ids.ts';
import { idRoute } from './route-schemas.ts';

/**
 * `GET /<resources>/:id` for a resource with a numeric id, answered by `find` for the caller (a
 * malformed id reaches it as null, so the service's 404 covers it as it does an unknown one).
 */
export function getById<const A extends z.ZodType>(
  fastify: FastifyInstance,
  route: { path: string; tags: string[]; summary: string; answer: A; callers: Callers },
  find: (caller: CallerAccess, id: number | null) => Promise<z.input<A>>,
) {
  const { path, tags, summary, answer, callers } = route;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Widened for fastify: `find`'s own type already holds its answer to the schema.
  const options = idRoute(tags, summary, { 200: answer as z.ZodType });
  app.get(path, options, async (request) =>
    find(await callers.require(request), parseNumericId(request.params.id)),
  );
}

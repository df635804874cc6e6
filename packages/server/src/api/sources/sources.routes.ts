import { sourceCollection, sourceResource } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { collection, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { idParams, pagedQuery } from '../../http/route-schemas.ts';
import { responses } from '../../http/schema-first.ts';
import { toSourceHal } from './sources.hal.ts';
import type { SourcesService } from './sources.service.ts';

const tags = ['Sources'];

export async function sourcesRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; sources: SourcesService },
) {
  const { urls, callers, sources } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/sources',
    {
      schema: {
        tags,
        summary: "Sources of the caller's organizations, with their app and deployment figures",
        querystring: pagedQuery,
        response: responses({ 200: sourceCollection }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const { items, paging, stats } = await sources.list(caller, pagingFrom(request.query));
      return collection(
        'sources',
        `${urls.api}/sources`,
        items.map((source) => toSourceHal(source, urls, stats.get(source.id))),
        paging,
      );
    },
  );

  app.get(
    '/sources/:id',
    {
      schema: {
        tags,
        summary: 'A source',
        params: idParams,
        response: responses({ 200: sourceResource }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const id = parseNumericId(request.params.id);
      const { source, stats } = await sources.get(caller, id);
      return toSourceHal(source, urls, stats);
    },
  );
}

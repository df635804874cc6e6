import { sourceCollection, sourceResource } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { getById } from '../../http/get-by-id.ts';
import { collection, pagingFrom } from '../../http/hal.ts';
import { pagedQuery, route } from '../../http/route-schemas.ts';
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
    route(
      tags,
      "Sources of the caller's organizations, with their app and deployment figures",
      { 200: sourceCollection },
      { querystring: pagedQuery },
    ),
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

  const show = { path: '/sources/:id', tags, summary: 'A source', answer: sourceResource, callers };
  getById(fastify, show, async (caller, id) => {
    const { source, stats } = await sources.get(caller, id);
    return toSourceHal(source, urls, stats);
  });
}

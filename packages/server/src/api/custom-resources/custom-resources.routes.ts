import { customResourceCollection, customResourceResource } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { collection, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { idRoute, pagedQuery, route } from '../../http/route-schemas.ts';
import { toCustomResourceHal } from './custom-resources.hal.ts';
import type { CustomResourcesService } from './custom-resources.service.ts';

export async function customResourcesRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; customResources: CustomResourcesService },
) {
  const { urls, callers, customResources } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Custom resources'];

  // contract §7 step 7: asked at every start of the console.
  app.get(
    '/custom_resources',
    route(
      tags,
      "The custom resources of the caller's organizations",
      { 200: customResourceCollection },
      { querystring: pagedQuery },
    ),
    async (request) => {
      const caller = await callers.require(request);
      const page = await customResources.list(caller, pagingFrom(request.query));
      return collection(
        'custom_resources',
        `${urls.api}/custom_resources`,
        page.items.map((row) => toCustomResourceHal(row, urls)),
        page.paging,
      );
    },
  );

  app.get(
    '/custom_resources/:id',
    idRoute(tags, 'A custom resource', { 200: customResourceResource }),
    async (request) => {
      const caller = await callers.require(request);
      return toCustomResourceHal(await customResources.get(caller, parseNumericId(request.params.id)), urls);
    },
  );
}

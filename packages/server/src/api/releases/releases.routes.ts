import { containerCollection, releaseCollection, releaseResource } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { collection, listHref, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { queryFlag } from '../../http/query.ts';
import { idParams, queryFlagValue, querySchema } from '../../http/route-schemas.ts';
import { responses } from '../../http/schema-first.ts';
import { toContainerHal, toReleaseHal } from './releases.hal.ts';
import type { ReleasesService } from './releases.service.ts';

const tags = ['Releases'];

/** Paging, and `with_deleted=true` for retired releases and stopped containers too. */
const listQuery = querySchema({ with_deleted: queryFlagValue }, { paged: true });

/** Releases and their containers (the console asks `/services/:id/releases/?with_deleted=true`). */
export async function releasesRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; releases: ReleasesService },
) {
  const { urls, callers, releases } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const listOptions = (query: unknown) => ({
    withDeleted: queryFlag(query, 'with_deleted'),
    paging: pagingFrom(query),
  });

  app.get(
    '/services/:id/releases',
    {
      schema: {
        tags,
        summary: "A service's releases, newest first",
        params: idParams,
        querystring: listQuery,
        response: responses({ 200: releaseCollection }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const { items, paging } = await releases.listForService(
        caller,
        parseNumericId(request.params.id),
        listOptions(request.query),
      );
      return collection(
        'releases',
        listHref(`${urls.api}/services/${request.params.id}/releases`, {
          with_deleted: queryFlag(request.query, 'with_deleted'),
        }),
        items.map((release) => toReleaseHal(release, urls)),
        paging,
      );
    },
  );

  app.get(
    '/releases/:id',
    {
      schema: {
        tags,
        summary: 'A release',
        params: idParams,
        response: responses({ 200: releaseResource }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const release = await releases.get(caller, parseNumericId(request.params.id));
      return toReleaseHal(release, urls);
    },
  );

  app.get(
    '/releases/:id/containers',
    {
      schema: {
        tags,
        summary: "A release's containers",
        params: idParams,
        querystring: listQuery,
        response: responses({ 200: containerCollection }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const { items, paging } = await releases.containers(
        caller,
        parseNumericId(request.params.id),
        listOptions(request.query),
      );
      return collection(
        'containers',
        listHref(`${urls.api}/releases/${request.params.id}/containers`, {
          with_deleted: queryFlag(request.query, 'with_deleted'),
        }),
        items.map((container) => toContainerHal(container, urls)),
        paging,
      );
    },
  );
}

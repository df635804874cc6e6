import type { FastifyInstance } from 'fastify';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { collection, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { queryFlag } from '../../http/query.ts';
import { toContainerHal, toReleaseHal } from './releases.hal.ts';
import { createReleasesService } from './releases.service.ts';

type ById = { Params: { id: string } };

/** Releases and their containers (the console asks `/services/:id/releases/?with_deleted=true`). */
export async function releasesRoutes(
  app: FastifyInstance,
  deps: { db: Db; urls: FamilyUrls; callers: Callers },
) {
  const { urls, callers } = deps;
  const releases = createReleasesService(deps);
  const listOptions = (query: unknown) => ({
    withDeleted: queryFlag(query, 'with_deleted'),
    paging: pagingFrom(query),
  });

  app.get<ById>('/services/:id/releases', async (request) => {
    const caller = await callers.require(request);
    const { items, paging } = await releases.listForService(
      caller,
      parseNumericId(request.params.id),
      listOptions(request.query),
    );
    return collection(
      'releases',
      `${urls.api}/services/${request.params.id}/releases`,
      items.map((release) => toReleaseHal(release, urls)),
      paging,
    );
  });

  app.get<ById>('/releases/:id', async (request) => {
    const caller = await callers.require(request);
    const release = await releases.get(caller, parseNumericId(request.params.id));
    return toReleaseHal(release, urls);
  });

  app.get<ById>('/releases/:id/containers', async (request) => {
    const caller = await callers.require(request);
    const { items, paging } = await releases.containers(
      caller,
      parseNumericId(request.params.id),
      listOptions(request.query),
    );
    return collection(
      'containers',
      `${urls.api}/releases/${request.params.id}/containers`,
      items.map((container) => toContainerHal(container, urls)),
      paging,
    );
  });
}

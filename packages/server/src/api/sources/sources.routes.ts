import type { FastifyInstance } from 'fastify';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { collection, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { toSourceHal } from './sources.hal.ts';
import { createSourcesService } from './sources.service.ts';

export async function sourcesRoutes(
  app: FastifyInstance,
  deps: { db: Db; urls: FamilyUrls; callers: Callers },
) {
  const { urls, callers } = deps;
  const sources = createSourcesService(deps);

  app.get('/sources', async (request) => {
    const caller = await callers.require(request);
    const { items, paging, stats } = await sources.list(caller, pagingFrom(request.query));
    return collection(
      'sources',
      `${urls.api}/sources`,
      items.map((source) => toSourceHal(source, urls, stats.get(source.id))),
      paging,
    );
  });

  app.get<{ Params: { id: string } }>('/sources/:id', async (request) => {
    const caller = await callers.require(request);
    const id = parseNumericId(request.params.id);
    const { source, stats } = await sources.get(caller, id);
    return toSourceHal(source, urls, stats);
  });
}

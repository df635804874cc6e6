import type { FastifyInstance } from 'fastify';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { collection, pageOf, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { toStackHal } from './stacks.hal.ts';
import { createStacksService } from './stacks.service.ts';

export async function stacksRoutes(
  app: FastifyInstance,
  deps: { db: Db; urls: FamilyUrls; callers: Callers },
) {
  const { urls, callers } = deps;
  const stacks = createStacksService(deps);

  app.get('/stacks', async (request) => {
    const caller = await callers.require(request);
    const { items, paging } = pageOf(await stacks.list(caller), pagingFrom(request.query));
    return collection(
      'stacks',
      `${urls.api}/stacks`,
      items.map((stack) => toStackHal(stack, urls)),
      paging,
    );
  });

  app.get<{ Params: { id: string } }>('/stacks/:id', async (request) => {
    const caller = await callers.require(request);
    return toStackHal(await stacks.get(caller, parseNumericId(request.params.id)), urls);
  });
}

import type { FastifyInstance } from 'fastify';
import { membershipsOf, organizationIdsOf } from '../../auth/access.ts';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { AuthGuard } from '../../http/authenticate.ts';
import { notFound } from '../../http/errors.ts';
import { collection, pageOf, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { toStackHal } from './stacks.hal.ts';
import { visibleStacks } from './stacks.service.ts';

export async function stacksRoutes(
  app: FastifyInstance,
  deps: { db: Db; urls: FamilyUrls; guard: AuthGuard },
) {
  const { db, urls, guard } = deps;

  app.get('/stacks', async (request) => {
    const caller = await guard.requireCaller(request);
    const all = await visibleStacks(db, organizationIdsOf(await membershipsOf(db, caller.user.id)));
    const { items, paging } = pageOf(all, pagingFrom(request.query));
    return collection(
      'stacks',
      `${urls.api}/stacks`,
      items.map((stack) => toStackHal(stack, urls)),
      paging,
    );
  });

  app.get<{ Params: { id: string } }>('/stacks/:id', async (request) => {
    const caller = await guard.requireCaller(request);
    const id = parseNumericId(request.params.id);
    const all = await visibleStacks(db, organizationIdsOf(await membershipsOf(db, caller.user.id)));
    const stack = all.find((s) => s.id === id);
    if (!stack) throw notFound('Stack');
    return toStackHal(stack, urls);
  });
}

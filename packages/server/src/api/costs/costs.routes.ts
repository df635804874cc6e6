import type { FastifyInstance } from 'fastify';
import type { FamilyUrls } from '../../config.ts';
import type { AuthGuard } from '../../http/authenticate.ts';
import { collection, pageOf, pagingFrom } from '../../http/hal.ts';
import { type Cost, toCostHal, toCostRatesBody } from './costs.hal.ts';
import type { CostsService } from './costs.service.ts';

const LISTS = ['stacks', 'accounts', 'apps', 'databases', 'services'] as const;

export async function costsRoutes(
  app: FastifyInstance,
  deps: { urls: FamilyUrls; guard: AuthGuard; costs: CostsService },
) {
  const { urls, guard, costs } = deps;

  for (const list of LISTS) {
    app.get<{ Params: { orgId: string } }>(`/costs/:orgId/${list}`, async (request) => {
      const caller = await guard.requireCaller(request);
      const all: Cost[] = await costs[list](caller.user.id, request.params.orgId);
      const { items, paging } = pageOf(all, pagingFrom(request.query));
      return collection(
        'costs',
        `${urls.api}/costs/${request.params.orgId}/${list}`,
        items.map(toCostHal),
        paging,
      );
    });
  }

  app.get<{ Params: { orgId: string } }>('/costs/:orgId/rates', async (request) => {
    const caller = await guard.requireCaller(request);
    await costs.assertMember(caller.user.id, request.params.orgId);
    return toCostRatesBody(costs.rates);
  });
}

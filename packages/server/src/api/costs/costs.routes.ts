import type { FastifyInstance } from 'fastify';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { collection, pageOf, pagingFrom } from '../../http/hal.ts';
import { type Cost, toCostHal, toCostRatesBody } from './costs.hal.ts';
import type { CostsService } from './costs.service.ts';

const LISTS = ['stacks', 'accounts', 'apps', 'databases', 'services'] as const;

export async function costsRoutes(
  app: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; costs: CostsService },
) {
  const { urls, callers, costs } = deps;

  for (const list of LISTS) {
    app.get<{ Params: { orgId: string } }>(`/costs/:orgId/${list}`, async (request) => {
      const caller = await callers.require(request);
      const all: Cost[] = await costs[list](caller, request.params.orgId);
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
    const caller = await callers.require(request);
    await costs.assertMember(caller, request.params.orgId);
    return toCostRatesBody(costs.rates);
  });
}

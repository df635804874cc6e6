import { costCollection, costRatesBody } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { collection, pagingFrom } from '../../http/hal.ts';
import { pagedQuery, pathParameter } from '../../http/route-schemas.ts';
import { responses } from '../../http/schema-first.ts';
import { toCostHal, toCostRatesBody } from './costs.hal.ts';
import type { CostsService } from './costs.service.ts';

const LISTS = ['stacks', 'accounts', 'apps', 'databases', 'services'] as const;

/** `/costs/:orgId/...`: the organization's id. */
const orgParams = z.strictObject({ orgId: pathParameter });

export async function costsRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; costs: CostsService },
) {
  const { urls, callers, costs } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Costs'];

  for (const list of LISTS) {
    app.get(
      `/costs/:orgId/${list}`,
      {
        schema: {
          tags,
          summary: `Estimated monthly costs of the organization's ${list}`,
          params: orgParams,
          querystring: pagedQuery,
          response: responses({ 200: costCollection }),
        },
      },
      async (request) => {
        const caller = await callers.require(request);
        const paging = pagingFrom(request.query);
        const { items, total } = await costs[list](caller, request.params.orgId, paging);
        return collection(
          'costs',
          `${urls.api}/costs/${request.params.orgId}/${list}`,
          items.map(toCostHal),
          {
            ...paging,
            total,
          },
        );
      },
    );
  }

  app.get(
    '/costs/:orgId/rates',
    {
      schema: {
        tags,
        summary: 'The rates costs are estimated with',
        params: orgParams,
        response: responses({ 200: costRatesBody }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      await costs.assertMember(caller, request.params.orgId);
      return toCostRatesBody(costs.rates);
    },
  );
}

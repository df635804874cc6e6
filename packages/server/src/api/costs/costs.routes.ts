import { createHash } from 'node:crypto';
import { costCollection, costRatesBody } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { collection, pagingFrom } from '../../http/hal.ts';
import { createKeptAnswers } from '../../http/kept-answers.ts';
import { pagedQuery, pathParameter } from '../../http/route-schemas.ts';
import { responses } from '../../http/schema-first.ts';
import { toCostHal, toCostRatesBody } from './costs.hal.ts';
import type { CostPage, CostsService, OwnerList } from './costs.service.ts';

const LISTS = ['stacks', 'accounts', 'apps', 'databases', 'services'] as const;
const isOwnerList = (list: (typeof LISTS)[number]): list is OwnerList =>
  list === 'apps' || list === 'databases' || list === 'services';

/**
 * The owners' costs pages this process keeps (issue 40): a page of 5,000 is some 470 KB of JSON read,
 * priced, serialized and compressed at every call, and the Costs page and the lists' cost columns ask for
 * the same pages again and again while nothing changes. Kept under the organization's cost version, so
 * a change is seen by the next call. 32 MB holds some 60 such pages.
 */
const KEPT_ANSWER_BYTES = 32 * 1024 * 1024;

/** `/costs/:orgId/...`: the organization's id. */
const orgParams = z.strictObject({ orgId: pathParameter });

export async function costsRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; costs: CostsService },
) {
  const { urls, callers, costs } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Costs'];

  const kept = createKeptAnswers(KEPT_ANSWER_BYTES);

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
      async (request, reply) => {
        const caller = await callers.require(request);
        const paging = pagingFrom(request.query);
        const { orgId } = request.params;
        const answer = (page: CostPage) =>
          collection('costs', `${urls.api}/costs/${orgId}/${list}`, page.items.map(toCostHal), {
            ...paging,
            total: page.total,
          });
        if (!isOwnerList(list)) return answer(await costs[list](caller, orgId, paging));
        // A page of 5,000 owners, kept under everything it depends on (see KEPT_ANSWER_BYTES).
        const { version, readable, read } = await costs.ownerPage(list, caller, orgId, paging);
        const key = [
          orgId,
          list,
          version,
          paging.page,
          paging.perPage,
          createHash('sha256').update(readable.join(',')).digest('base64url'),
        ].join(' ');
        return kept.send(request, reply, key, async () => answer(await read()));
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

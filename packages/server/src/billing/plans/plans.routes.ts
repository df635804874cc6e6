import {
  activePlanCollection,
  activePlanResource,
  changeActivePlanBody,
  planCollection,
  planResource,
} from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { parseBody } from '../../http/errors.ts';
import { collection, pageOf, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { bodyCheckedByService, idRoute, querySchema, queryValue, route } from '../../http/route-schemas.ts';
import { toActivePlanHal, toPlanHal } from './plans.hal.ts';
import type { PlansService } from './plans.service.ts';

/** Contract §5.12: the plans, and each organization's active plan (api family). */
export async function plansRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; plans: PlansService },
) {
  const { urls, callers, plans } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Plans'];

  app.get(
    '/plans',
    route(tags, 'List the plans', { 200: planCollection }, { querystring: querySchema({}, { paged: true }) }),
    async (request) => {
      await callers.require(request);
      const { items, paging } = pageOf(await plans.list(), pagingFrom(request.query));
      return collection(
        'plans',
        `${urls.api}/plans`,
        items.map((plan) => toPlanHal(plan, urls)),
        paging,
      );
    },
  );

  app.get('/plans/:id', idRoute(tags, 'Show a plan', { 200: planResource }), async (request) => {
    await callers.require(request);
    return toPlanHal(await plans.get(parseNumericId(request.params.id)), urls);
  });

  app.get(
    '/active_plans',
    route(
      tags,
      "An organization's active plan (none: the legacy plan)",
      { 200: activePlanCollection },
      // Without an organization, no organization's plan: 404 like any organization outside the caller's.
      { querystring: querySchema({ organization_id: queryValue.optional() }, { paged: true }) },
    ),
    async (request) => {
      const caller = await callers.require(request);
      const organizationId = request.query.organization_id ?? '';
      const rows = await plans.activePlansOf(caller, organizationId);
      const { items, paging } = pageOf(rows, pagingFrom(request.query));
      return collection(
        'active_plans',
        `${urls.api}/active_plans?organization_id=${encodeURIComponent(organizationId)}`,
        items.map(({ active, plan }) => toActivePlanHal(active, plan, urls)),
        paging,
      );
    },
  );

  app.put(
    '/active_plans/:id',
    idRoute(
      tags,
      "Change an organization's plan (Account Owners, with a payment method)",
      { 200: activePlanResource },
      { body: bodyCheckedByService(changeActivePlanBody, '`{plan_id}`') },
    ),
    async (request) => {
      const caller = await callers.require(request);
      const id = parseNumericId(request.params.id);
      // The body is read only once the caller may change this plan (404 and 403 first).
      const { active, plan } = await plans.change(
        caller,
        id,
        () => parseBody(changeActivePlanBody, request.body).plan_id,
      );
      return toActivePlanHal(active, plan, urls);
    },
  );
}

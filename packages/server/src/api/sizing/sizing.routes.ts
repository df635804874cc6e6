import {
  noContent,
  sizingPolicyBody,
  sizingPolicyCollection,
  sizingPolicyResource,
  sizingRecommendationCollection,
  sizingRecommendationResource,
} from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { collection, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { bodyCheckedByService, idParams, pagedQuery } from '../../http/route-schemas.ts';
import { responses } from '../../http/schema-first.ts';
import { type SizingPolicyRow, toSizingPolicyHal, toSizingRecommendationHal } from './sizing.hal.ts';
import type { SizingService } from './sizing.service.ts';

const tags = ['Autoscaling'];

/**
 * Contract §5.7: service sizing policies (one per service, at `/services/:id/service_sizing_policies`,
 * deleted at the singular `/services/:id/service_sizing_policy`) and manual sizing recommendations.
 */
export async function sizingRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; sizing: SizingService },
) {
  const { urls, callers, sizing } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const hal = (row: SizingPolicyRow) => toSizingPolicyHal(row, urls);
  // The body is read once the caller may set the service's policy (404 or 403 first).
  const body = bodyCheckedByService(sizingPolicyBody, 'Policy fields in snake case (contract §4.3)');

  app.get(
    '/service_sizing_policies',
    {
      schema: {
        tags,
        summary: 'Sizing policies of every environment the caller can see',
        querystring: pagedQuery,
        response: responses({ 200: sizingPolicyCollection }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const { items, paging } = await sizing.list(caller, pagingFrom(request.query));
      return collection(
        'service_sizing_policies',
        `${urls.api}/service_sizing_policies`,
        items.map(hal),
        paging,
      );
    },
  );

  app.get(
    '/accounts/:id/service_sizing_policies',
    {
      schema: {
        tags,
        summary: "An environment's sizing policies",
        params: idParams,
        querystring: pagedQuery,
        response: responses({ 200: sizingPolicyCollection }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const { items, paging } = await sizing.listInEnvironment(
        caller,
        parseNumericId(request.params.id),
        pagingFrom(request.query),
      );
      return collection(
        'service_sizing_policies',
        `${urls.api}/accounts/${request.params.id}/service_sizing_policies`,
        items.map(hal),
        paging,
      );
    },
  );

  app.get(
    '/services/:id/service_sizing_policies',
    {
      schema: {
        tags,
        summary: "A service's own sizing policy (404 when it has none)",
        params: idParams,
        response: responses({ 200: sizingPolicyResource }),
      },
    },
    async (request) =>
      hal(await sizing.getForService(await callers.require(request), parseNumericId(request.params.id))),
  );

  app.post(
    '/services/:id/service_sizing_policies',
    {
      schema: {
        tags,
        summary: 'Give a service a sizing policy (the defaults fill what is left out)',
        params: idParams,
        body,
        response: responses({ 201: sizingPolicyResource }),
      },
    },
    async (request, reply) => {
      const caller = await callers.require(request);
      const created = await sizing.create(caller, parseNumericId(request.params.id), request.body);
      return reply.code(201).send(hal(created));
    },
  );

  app.put(
    '/services/:id/service_sizing_policies',
    {
      schema: {
        tags,
        summary: "Change a service's sizing policy (fields left out keep their value)",
        params: idParams,
        body,
        response: responses({ 200: sizingPolicyResource }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      return hal(await sizing.update(caller, parseNumericId(request.params.id), request.body));
    },
  );

  app.delete(
    '/services/:id/service_sizing_policy',
    {
      schema: {
        tags,
        summary: "Remove a service's sizing policy (autoscaling stops)",
        params: idParams,
        response: responses({ 204: noContent }),
      },
    },
    async (request, reply) => {
      await sizing.remove(await callers.require(request), parseNumericId(request.params.id));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/manual_service_sizing_recommendations',
    {
      schema: {
        tags,
        summary: 'Sizing recommendations of the services the caller can see (newest per service)',
        querystring: pagedQuery,
        response: responses({ 200: sizingRecommendationCollection }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const { items, paging } = await sizing.recommendations(caller, pagingFrom(request.query));
      return collection(
        'manual_service_sizing_recommendations',
        `${urls.api}/manual_service_sizing_recommendations`,
        items.map((row) => toSizingRecommendationHal(row, urls)),
        paging,
      );
    },
  );

  app.get(
    '/manual_service_sizing_recommendations/:id',
    {
      schema: {
        tags,
        summary: 'A sizing recommendation',
        params: idParams,
        response: responses({ 200: sizingRecommendationResource }),
      },
    },
    async (request) =>
      toSizingRecommendationHal(
        await sizing.recommendation(await callers.require(request), parseNumericId(request.params.id)),
        urls,
      ),
  );
}

import {
  createEnvironmentSchema,
  environmentCollection,
  environmentResource,
  lastUrlSegment,
  noContent,
  updateEnvironmentSchema,
} from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { collection, pageOf, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { idParams, pagedQuery } from '../../http/route-schemas.ts';
import { responses } from '../../http/schema-first.ts';
import { toEnvironmentHal } from './environments.hal.ts';
import type { EnvironmentsService, EnvironmentView } from './environments.service.ts';

// Contract §1.9: ids may arrive bare or as URLs; take the last segment.
const createBody = z.preprocess((raw) => {
  if (!raw || typeof raw !== 'object') return raw;
  const body = { ...(raw as Record<string, unknown>) };
  for (const key of ['organization_id', 'stack_id'] as const) {
    const value = body[key];
    if (typeof value === 'string' && value.includes('/')) body[key] = lastUrlSegment(value);
  }
  return body;
}, createEnvironmentSchema);

export async function environmentsRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; environments: EnvironmentsService },
) {
  const { urls, callers, environments } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Environments'];
  const hal = (view: EnvironmentView) =>
    toEnvironmentHal(view.environment, view.counts, view.permissions, urls, view.stats);

  app.get(
    '/accounts',
    {
      schema: {
        tags,
        summary: 'List the environments the caller can see',
        querystring: pagedQuery,
        response: responses({ 200: environmentCollection }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const { items, paging } = pageOf(await environments.list(caller), pagingFrom(request.query));
      return collection('accounts', `${urls.api}/accounts`, items.map(hal), paging);
    },
  );

  app.get(
    '/accounts/:id',
    {
      schema: {
        tags,
        summary: 'Show an environment',
        params: idParams,
        response: responses({ 200: environmentResource }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      return hal(await environments.get(caller, parseNumericId(request.params.id)));
    },
  );

  app.post(
    '/accounts',
    {
      schema: {
        tags,
        summary: 'Create an environment',
        body: createBody,
        response: responses({ 201: environmentResource }),
      },
    },
    async (request, reply) => {
      const caller = await callers.require(request);
      return reply.code(201).send(hal(await environments.create(caller, request.body)));
    },
  );

  app.patch(
    '/accounts/:id',
    {
      schema: {
        tags,
        summary: 'Change an environment',
        params: idParams,
        body: updateEnvironmentSchema,
        response: responses({ 200: environmentResource }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      return hal(await environments.update(caller, parseNumericId(request.params.id), request.body));
    },
  );

  app.delete(
    '/accounts/:id',
    {
      schema: {
        tags,
        summary: 'Delete an environment',
        params: idParams,
        response: responses({ 204: noContent }),
      },
    },
    async (request, reply) => {
      const caller = await callers.require(request);
      await environments.remove(caller, parseNumericId(request.params.id));
      return reply.code(204).send(null);
    },
  );
}

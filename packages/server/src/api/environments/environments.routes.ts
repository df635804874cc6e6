import { createEnvironmentSchema, lastUrlSegment, updateEnvironmentSchema } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { parseBody } from '../../http/errors.ts';
import { collection, pageOf, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
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
  app: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; environments: EnvironmentsService },
) {
  const { urls, callers, environments } = deps;
  const hal = (view: EnvironmentView) =>
    toEnvironmentHal(view.environment, view.counts, view.permissions, urls, view.stats);

  app.get('/accounts', async (request) => {
    const caller = await callers.require(request);
    const { items, paging } = pageOf(await environments.list(caller), pagingFrom(request.query));
    return collection('accounts', `${urls.api}/accounts`, items.map(hal), paging);
  });

  app.get<{ Params: { id: string } }>('/accounts/:id', async (request) => {
    const caller = await callers.require(request);
    return hal(await environments.get(caller, parseNumericId(request.params.id)));
  });

  app.post('/accounts', async (request, reply) => {
    const caller = await callers.require(request);
    const input = parseBody(createBody, request.body);
    return reply.code(201).send(hal(await environments.create(caller, input)));
  });

  app.patch<{ Params: { id: string } }>('/accounts/:id', async (request) => {
    const caller = await callers.require(request);
    const input = parseBody(updateEnvironmentSchema, request.body);
    return hal(await environments.update(caller, parseNumericId(request.params.id), input));
  });

  app.delete<{ Params: { id: string } }>('/accounts/:id', async (request, reply) => {
    const caller = await callers.require(request);
    await environments.remove(caller, parseNumericId(request.params.id));
    return reply.code(204).send();
  });
}

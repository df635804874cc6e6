import { createAppSchema, updateAppSchema } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { parseBody } from '../../http/errors.ts';
import { collection, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { queryFlag, queryText } from '../../http/query.ts';
import { type AppView, toAppHal } from './apps.hal.ts';
import { createAppsService } from './apps.service.ts';

type ById = { Params: { id: string } };

export async function appsRoutes(app: FastifyInstance, deps: { db: Db; urls: FamilyUrls; callers: Callers }) {
  const { urls, callers } = deps;
  const apps = createAppsService(deps);
  const hal = (view: AppView) => toAppHal(view, urls);

  app.get('/apps', async (request) => {
    const caller = await callers.require(request);
    const embed = !queryFlag(request.query, 'no_embed');
    const { items, paging } = await apps.list(
      caller,
      pagingFrom(request.query),
      embed,
      queryText(request.query, 'search'),
    );
    return collection('apps', `${urls.api}/apps`, items.map(hal), paging);
  });

  app.get<ById>('/accounts/:id/apps', async (request) => {
    const caller = await callers.require(request);
    const { items, paging } = await apps.listInEnvironment(
      caller,
      parseNumericId(request.params.id),
      pagingFrom(request.query),
      !queryFlag(request.query, 'no_embed'),
    );
    return collection('apps', `${urls.api}/accounts/${request.params.id}/apps`, items.map(hal), paging);
  });

  app.get<ById>('/apps/:id', async (request) => {
    const caller = await callers.require(request);
    return hal(await apps.get(caller, parseNumericId(request.params.id)));
  });

  app.post<ById>('/accounts/:id/apps', async (request, reply) => {
    const caller = await callers.require(request);
    const input = parseBody(createAppSchema, request.body);
    const created = await apps.create(caller, parseNumericId(request.params.id), input);
    return reply.code(201).send(hal(created));
  });

  app.put<ById>('/apps/:id', async (request) => {
    const caller = await callers.require(request);
    const input = parseBody(updateAppSchema, request.body);
    return hal(await apps.rename(caller, parseNumericId(request.params.id), input));
  });
}

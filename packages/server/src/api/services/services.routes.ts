import { serviceSettingsSchema } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { AuthGuard } from '../../http/authenticate.ts';
import { parseBody } from '../../http/errors.ts';
import { collection, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { ROUTE_SCOPES } from '../access/scope-table.ts';
import { type ServiceRow, toServiceHal } from './services.hal.ts';
import { createServicesService } from './services.service.ts';

type ById = { Params: { id: string } };

export async function servicesRoutes(
  app: FastifyInstance,
  deps: { db: Db; urls: FamilyUrls; guard: AuthGuard },
) {
  const { urls, guard } = deps;
  const services = createServicesService(deps);
  const hal = (service: ServiceRow) => toServiceHal(service, urls);

  app.get('/services', async (request) => {
    const caller = await guard.requireCaller(request);
    const { items, paging } = await services.list(caller.user.id, pagingFrom(request.query));
    return collection('services', `${urls.api}/services`, items.map(hal), paging);
  });

  app.get<ById>('/accounts/:id/services', async (request) => {
    const caller = await guard.requireCaller(request);
    const { items, paging } = await services.listInEnvironment(
      caller.user.id,
      parseNumericId(request.params.id),
      ROUTE_SCOPES['GET /accounts/:id/services'],
      pagingFrom(request.query),
    );
    return collection(
      'services',
      `${urls.api}/accounts/${request.params.id}/services`,
      items.map(hal),
      paging,
    );
  });

  app.get<ById>('/apps/:id/services', async (request) => {
    const caller = await guard.requireCaller(request);
    const { items, paging } = await services.listForApp(
      caller.user.id,
      parseNumericId(request.params.id),
      ROUTE_SCOPES['GET /apps/:id/services'],
      pagingFrom(request.query),
    );
    return collection('services', `${urls.api}/apps/${request.params.id}/services`, items.map(hal), paging);
  });

  app.get<ById>('/services/:id', async (request) => {
    const caller = await guard.requireCaller(request);
    return hal(
      await services.get(
        caller.user.id,
        parseNumericId(request.params.id),
        ROUTE_SCOPES['GET /services/:id'],
      ),
    );
  });

  app.put<ById>('/services/:id', async (request) => {
    const caller = await guard.requireCaller(request);
    const input = parseBody(serviceSettingsSchema, request.body);
    const updated = await services.update(
      caller.user.id,
      parseNumericId(request.params.id),
      ROUTE_SCOPES['PUT /services/:id'],
      input,
    );
    return hal(updated);
  });
}

import { serviceSettingsSchema } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { parseBody } from '../../http/errors.ts';
import { collection, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { type ServiceRow, toServiceHal } from './services.hal.ts';
import { createServicesService } from './services.service.ts';

type ById = { Params: { id: string } };

export async function servicesRoutes(
  app: FastifyInstance,
  deps: { db: Db; urls: FamilyUrls; callers: Callers },
) {
  const { urls, callers } = deps;
  const services = createServicesService(deps);
  const hal = (service: ServiceRow) => toServiceHal(service, urls);

  app.get('/services', async (request) => {
    const caller = await callers.require(request);
    const { items, paging } = await services.list(caller, pagingFrom(request.query));
    return collection('services', `${urls.api}/services`, items.map(hal), paging);
  });

  app.get<ById>('/accounts/:id/services', async (request) => {
    const caller = await callers.require(request);
    const { items, paging } = await services.listInEnvironment(
      caller,
      parseNumericId(request.params.id),
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
    const caller = await callers.require(request);
    const { items, paging } = await services.listForApp(
      caller,
      parseNumericId(request.params.id),
      pagingFrom(request.query),
    );
    return collection('services', `${urls.api}/apps/${request.params.id}/services`, items.map(hal), paging);
  });

  app.get<ById>('/services/:id', async (request) => {
    const caller = await callers.require(request);
    return hal(await services.get(caller, parseNumericId(request.params.id)));
  });

  app.put<ById>('/services/:id', async (request) => {
    const caller = await callers.require(request);
    const input = parseBody(serviceSettingsSchema, request.body);
    const updated = await services.update(caller, parseNumericId(request.params.id), input);
    return hal(updated);
  });
}

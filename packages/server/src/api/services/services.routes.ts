import {
  serviceCollection,
  serviceLogsBody,
  serviceLogsQuery,
  serviceResource,
  serviceSettingsSchema,
} from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { collection, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { idParams, pagedQuery } from '../../http/route-schemas.ts';
import { responses } from '../../http/schema-first.ts';
import type { ServiceLogsService } from './service-logs.service.ts';
import { type ServiceRow, toServiceHal } from './services.hal.ts';
import type { ServicesService } from './services.service.ts';

const tags = ['Services'];

export async function servicesRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; services: ServicesService; logs: ServiceLogsService },
) {
  const { urls, callers, services, logs } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const hal = (service: ServiceRow) => toServiceHal(service, urls);
  const list = (summary: string) => ({
    tags,
    summary,
    params: idParams,
    querystring: pagedQuery,
    response: responses({ 200: serviceCollection }),
  });
  const single = (summary: string) => ({
    tags,
    summary,
    params: idParams,
    response: responses({ 200: serviceResource }),
  });

  app.get(
    '/services',
    {
      schema: {
        tags,
        summary: 'Services of every environment the caller may see',
        querystring: pagedQuery,
        response: responses({ 200: serviceCollection }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const { items, paging } = await services.list(caller, pagingFrom(request.query));
      return collection('services', `${urls.api}/services`, items.map(hal), paging);
    },
  );

  app.get(
    '/accounts/:id/services',
    { schema: list("An environment's services (of apps and databases)") },
    async (request) => {
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
    },
  );

  app.get('/apps/:id/services', { schema: list("An app's services") }, async (request) => {
    const caller = await callers.require(request);
    const { items, paging } = await services.listForApp(
      caller,
      parseNumericId(request.params.id),
      pagingFrom(request.query),
    );
    return collection('services', `${urls.api}/apps/${request.params.id}/services`, items.map(hal), paging);
  });

  app.get('/services/:id', { schema: single('A service') }, async (request) => {
    const caller = await callers.require(request);
    return hal(await services.get(caller, parseNumericId(request.params.id)));
  });

  // A Berth addition: what the service's running containers printed last (read scope, as configuration).
  app.get(
    '/services/:id/logs',
    {
      schema: {
        tags,
        summary: "The newest lines of a service's running containers",
        params: idParams,
        querystring: serviceLogsQuery,
        response: responses({ 200: serviceLogsBody }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      return logs.tail(caller, parseNumericId(request.params.id), request.query.tail);
    },
  );

  app.put(
    '/services/:id',
    { schema: { ...single("Change a service's deployment settings"), body: serviceSettingsSchema } },
    async (request) => {
      const caller = await callers.require(request);
      const updated = await services.update(caller, parseNumericId(request.params.id), request.body);
      return hal(updated);
    },
  );
}

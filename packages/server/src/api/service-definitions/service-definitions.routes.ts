import { createServiceDefinitionSchema } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { AuthGuard } from '../../http/authenticate.ts';
import { parseBody } from '../../http/errors.ts';
import { collection, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { ROUTE_SCOPES } from '../access/scope-table.ts';
import { type ServiceDefinitionRow, toServiceDefinitionHal } from './service-definitions.hal.ts';
import { createServiceDefinitionsService } from './service-definitions.service.ts';

type ById = { Params: { id: string } };

export async function serviceDefinitionsRoutes(
  app: FastifyInstance,
  deps: { db: Db; urls: FamilyUrls; guard: AuthGuard },
) {
  const { urls, guard } = deps;
  const definitions = createServiceDefinitionsService(deps);
  const hal = (definition: ServiceDefinitionRow) => toServiceDefinitionHal(definition, urls);

  app.get<ById>('/apps/:id/service_definitions', async (request) => {
    const caller = await guard.requireCaller(request);
    const { items, paging } = await definitions.list(
      caller.user.id,
      parseNumericId(request.params.id),
      ROUTE_SCOPES['GET /apps/:id/service_definitions'],
      pagingFrom(request.query),
    );
    const href = `${urls.api}/apps/${request.params.id}/service_definitions`;
    return collection('service_definitions', href, items.map(hal), paging);
  });

  app.post<ById>('/apps/:id/service_definitions', async (request, reply) => {
    const caller = await guard.requireCaller(request);
    const input = parseBody(createServiceDefinitionSchema, request.body);
    const created = await definitions.create(
      caller.user.id,
      parseNumericId(request.params.id),
      ROUTE_SCOPES['POST /apps/:id/service_definitions'],
      input,
    );
    return reply.code(201).send(hal(created));
  });

  app.get<ById>('/service_definitions/:id', async (request) => {
    const caller = await guard.requireCaller(request);
    const id = parseNumericId(request.params.id);
    return hal(await definitions.get(caller.user.id, id, ROUTE_SCOPES['GET /service_definitions/:id']));
  });

  app.delete<ById>('/service_definitions/:id', async (request, reply) => {
    const caller = await guard.requireCaller(request);
    const id = parseNumericId(request.params.id);
    await definitions.remove(caller.user.id, id, ROUTE_SCOPES['DELETE /service_definitions/:id']);
    return reply.code(204).send();
  });
}

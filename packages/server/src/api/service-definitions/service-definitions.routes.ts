import { createServiceDefinitionSchema } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { parseBody } from '../../http/errors.ts';
import { collection, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { type ServiceDefinitionRow, toServiceDefinitionHal } from './service-definitions.hal.ts';
import { createServiceDefinitionsService } from './service-definitions.service.ts';

type ById = { Params: { id: string } };

export async function serviceDefinitionsRoutes(
  app: FastifyInstance,
  deps: { db: Db; urls: FamilyUrls; callers: Callers },
) {
  const { urls, callers } = deps;
  const definitions = createServiceDefinitionsService(deps);
  const hal = (definition: ServiceDefinitionRow) => toServiceDefinitionHal(definition, urls);

  app.get<ById>('/apps/:id/service_definitions', async (request) => {
    const caller = await callers.require(request);
    const { items, paging } = await definitions.list(
      caller,
      parseNumericId(request.params.id),
      pagingFrom(request.query),
    );
    const href = `${urls.api}/apps/${request.params.id}/service_definitions`;
    return collection('service_definitions', href, items.map(hal), paging);
  });

  app.post<ById>('/apps/:id/service_definitions', async (request, reply) => {
    const caller = await callers.require(request);
    const input = parseBody(createServiceDefinitionSchema, request.body);
    const created = await definitions.create(caller, parseNumericId(request.params.id), input);
    return reply.code(201).send(hal(created));
  });

  app.get<ById>('/service_definitions/:id', async (request) => {
    const caller = await callers.require(request);
    const id = parseNumericId(request.params.id);
    return hal(await definitions.get(caller, id));
  });

  app.delete<ById>('/service_definitions/:id', async (request, reply) => {
    const caller = await callers.require(request);
    const id = parseNumericId(request.params.id);
    await definitions.remove(caller, id);
    return reply.code(204).send();
  });
}

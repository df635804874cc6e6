import {
  createServiceDefinitionSchema,
  noContent,
  serviceDefinitionCollection,
  serviceDefinitionResource,
} from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { collection, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { idParams, pagedQuery } from '../../http/route-schemas.ts';
import { responses } from '../../http/schema-first.ts';
import { type ServiceDefinitionRow, toServiceDefinitionHal } from './service-definitions.hal.ts';
import type { ServiceDefinitionsService } from './service-definitions.service.ts';

const tags = ['Service Definitions'];

export async function serviceDefinitionsRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; serviceDefinitions: ServiceDefinitionsService },
) {
  const { urls, callers, serviceDefinitions: definitions } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const hal = (definition: ServiceDefinitionRow) => toServiceDefinitionHal(definition, urls);

  app.get(
    '/apps/:id/service_definitions',
    {
      schema: {
        tags,
        summary: "An app's service definitions (its processes)",
        params: idParams,
        querystring: pagedQuery,
        response: responses({ 200: serviceDefinitionCollection }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const { items, paging } = await definitions.list(
        caller,
        parseNumericId(request.params.id),
        pagingFrom(request.query),
      );
      const href = `${urls.api}/apps/${request.params.id}/service_definitions`;
      return collection('service_definitions', href, items.map(hal), paging);
    },
  );

  app.post(
    '/apps/:id/service_definitions',
    {
      schema: {
        tags,
        summary: 'Declare a process of an app',
        params: idParams,
        body: createServiceDefinitionSchema,
        response: responses({ 201: serviceDefinitionResource }),
      },
    },
    async (request, reply) => {
      const caller = await callers.require(request);
      const created = await definitions.create(caller, parseNumericId(request.params.id), request.body);
      return reply.code(201).send(hal(created));
    },
  );

  app.get(
    '/service_definitions/:id',
    {
      schema: {
        tags,
        summary: 'A service definition',
        params: idParams,
        response: responses({ 200: serviceDefinitionResource }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const id = parseNumericId(request.params.id);
      return hal(await definitions.get(caller, id));
    },
  );

  app.delete(
    '/service_definitions/:id',
    {
      schema: {
        tags,
        summary: 'Remove a service definition',
        params: idParams,
        response: responses({ 204: noContent }),
      },
    },
    async (request, reply) => {
      const caller = await callers.require(request);
      const id = parseNumericId(request.params.id);
      await definitions.remove(caller, id);
      // The 204's body is dropped by Fastify; `null` is what its declared `noContent` schema holds.
      return reply.code(204).send(null);
    },
  );
}

import { createPermissionSchema, noContent, permissionResource } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { parseNumericId } from '../../http/ids.ts';
import { idParams } from '../../http/route-schemas.ts';
import { responses } from '../../http/schema-first.ts';
import { toPermissionHal } from '../environments/environments.hal.ts';
import type { PermissionsService } from './permissions.service.ts';

export async function permissionsRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; permissions: PermissionsService },
) {
  const { urls, callers, permissions } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Permissions'];

  app.post(
    '/accounts/:id/permissions',
    {
      schema: {
        tags,
        summary: 'Give a role a scope on an environment',
        params: idParams,
        body: createPermissionSchema,
        response: responses({ 201: permissionResource }),
      },
    },
    async (request, reply) => {
      const caller = await callers.require(request);
      const created = await permissions.create(caller, parseNumericId(request.params.id), request.body);
      return reply.code(201).send(toPermissionHal(created, urls));
    },
  );

  app.delete(
    '/permissions/:id',
    {
      schema: {
        tags,
        summary: "Take a role's scope on an environment away",
        params: idParams,
        response: responses({ 204: noContent }),
      },
    },
    async (request, reply) => {
      const caller = await callers.require(request);
      await permissions.remove(caller, parseNumericId(request.params.id));
      return reply.code(204).send(null);
    },
  );
}

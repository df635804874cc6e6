import { createPermissionSchema } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { parseBody } from '../../http/errors.ts';
import { parseNumericId } from '../../http/ids.ts';
import { toPermissionHal } from '../environments/environments.hal.ts';
import type { PermissionsService } from './permissions.service.ts';

export async function permissionsRoutes(
  app: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; permissions: PermissionsService },
) {
  const { urls, callers, permissions } = deps;

  app.post<{ Params: { id: string } }>('/accounts/:id/permissions', async (request, reply) => {
    const caller = await callers.require(request);
    const input = parseBody(createPermissionSchema, request.body);
    const created = await permissions.create(caller, parseNumericId(request.params.id), input);
    return reply.code(201).send(toPermissionHal(created, urls));
  });

  app.delete<{ Params: { id: string } }>('/permissions/:id', async (request, reply) => {
    const caller = await callers.require(request);
    await permissions.remove(caller, parseNumericId(request.params.id));
    return reply.code(204).send();
  });
}

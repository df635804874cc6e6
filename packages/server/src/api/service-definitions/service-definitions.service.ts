import type { CreateServiceDefinitionInput } from '@berth/core';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { serviceDefinitions } from '../../db/schema.ts';
import type { Paging } from '../../http/hal.ts';
import type { NeededScope } from '../access/environment-access.ts';
import { createAppsService } from '../apps/apps.service.ts';
import type { ServiceDefinitionRow } from './service-definitions.hal.ts';

/** The processes an app declares (Procfile entries); a deploy turns them into services. */
export function createServiceDefinitionsService(deps: { db: Db }) {
  const { db } = deps;
  const apps = createAppsService(deps);
  const get = (userId: string, id: number | null, scope: NeededScope) =>
    apps.getOwned(userId, serviceDefinitions, id, scope, 'Service definition');

  return {
    get,

    list(userId: string, appId: number | null, scope: NeededScope, paging: Paging | null) {
      return apps.listOwned(userId, serviceDefinitions, appId, scope, {
        orderBy: [serviceDefinitions.id],
        paging,
      });
    },

    async create(
      userId: string,
      appId: number | null,
      scope: NeededScope,
      input: CreateServiceDefinitionInput,
    ): Promise<ServiceDefinitionRow> {
      const app = await apps.load(await apps.access.forUser(userId), appId, scope);
      const [created] = await db
        .insert(serviceDefinitions)
        .values({ appId: app.id, processType: input.process_type, command: input.command })
        .returning();
      if (!created) throw new Error('Service definition insert returned nothing');
      return created;
    },

    async remove(userId: string, id: number | null, scope: NeededScope): Promise<void> {
      const definition = await get(userId, id, scope);
      await db.delete(serviceDefinitions).where(eq(serviceDefinitions.id, definition.id));
    },
  };
}

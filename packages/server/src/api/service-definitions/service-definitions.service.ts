import type { CreateServiceDefinitionInput } from '@berth/core';
import { eq } from 'drizzle-orm';
import type { CallerRef } from '../../auth/caller-access.ts';
import type { Db } from '../../db/client.ts';
import { serviceDefinitions } from '../../db/schema.ts';
import type { Paging } from '../../http/hal.ts';
import type { AppsService } from '../apps/apps.service.ts';
import type { ServiceDefinitionRow } from './service-definitions.hal.ts';

/** The processes an app declares (Procfile entries); a deploy turns them into services. */
export function createServiceDefinitionsService(deps: { db: Db; apps: AppsService }) {
  const { db, apps } = deps;
  return {
    get(ref: CallerRef, id: number | null) {
      return apps.getOwned(ref, serviceDefinitions, id, 'service_definition.read', 'Service definition');
    },

    list(ref: CallerRef, appId: number | null, paging: Paging | null) {
      return apps.listOwned(ref, serviceDefinitions, appId, 'service_definition.read', {
        orderBy: [serviceDefinitions.id],
        paging,
      });
    },

    async create(
      ref: CallerRef,
      appId: number | null,
      input: CreateServiceDefinitionInput,
    ): Promise<ServiceDefinitionRow> {
      const app = await apps.load(await apps.access.caller(ref), appId, 'service_definition.create');
      const [created] = await db
        .insert(serviceDefinitions)
        .values({ appId: app.id, processType: input.process_type, command: input.command })
        .returning();
      if (!created) throw new Error('Service definition insert returned nothing');
      return created;
    },

    async remove(ref: CallerRef, id: number | null): Promise<void> {
      const definition = await apps.getOwned(
        ref,
        serviceDefinitions,
        id,
        'service_definition.delete',
        'Service definition',
      );
      await db.delete(serviceDefinitions).where(eq(serviceDefinitions.id, definition.id));
    },
  };
}
export type ServiceDefinitionsService = ReturnType<typeof createServiceDefinitionsService>;

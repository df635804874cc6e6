import type { ActionName, ServiceSettingsInput } from '@berth/core';
import { eq, inArray, type SQL } from 'drizzle-orm';
import type { CallerAccess, CallerRef } from '../../auth/caller-access.ts';
import type { Db } from '../../db/client.ts';
import { services } from '../../db/schema.ts';
import { type Page, selectPage } from '../../db/select-page.ts';
import type { Paging } from '../../http/hal.ts';
import type { AppsService } from '../apps/apps.service.ts';
import type { ServiceRow } from './services.hal.ts';

export function createServicesService(deps: { db: Db; apps: AppsService }) {
  const { db, apps } = deps;
  const { access } = apps;

  const page = (where: SQL, paging: Paging | null) =>
    selectPage(db, services, { where, orderBy: [services.id], paging });

  /** Loads a service the caller may take the action on (404 if absent or invisible, 403 if denied). */
  async function load(caller: CallerAccess, id: number | null, action: ActionName): Promise<ServiceRow> {
    const [service] = id === null ? [] : await db.select().from(services).where(eq(services.id, id));
    return (await access.resource(caller, service, action, 'Service')).row;
  }

  return {
    access,
    load,

    /** Services of every environment the caller may see (contract §1.11), app and database services alike. */
    async list(ref: CallerRef, paging: Paging | null): Promise<Page<ServiceRow>> {
      const environmentIds = await access.readableEnvironmentIds(await access.caller(ref), 'service.read');
      return page(inArray(services.environmentId, environmentIds), paging);
    },

    async listInEnvironment(ref: CallerRef, environmentId: number | null, paging: Paging | null) {
      const environment = await access.environment(await access.caller(ref), environmentId, 'service.read');
      return page(eq(services.environmentId, environment.id), paging);
    },

    async listForApp(ref: CallerRef, appId: number | null, paging: Paging | null) {
      const app = await apps.load(await access.caller(ref), appId, 'service.read');
      return page(eq(services.appId, app.id), paging);
    },

    async get(ref: CallerRef, id: number | null): Promise<ServiceRow> {
      return load(await access.caller(ref), id, 'service.read');
    },

    /** Deployment settings (spec 2 §5); keys left out of the body keep their value. */
    async update(ref: CallerRef, id: number | null, input: ServiceSettingsInput): Promise<ServiceRow> {
      const service = await load(await access.caller(ref), id, 'service.update');
      const [updated] = await db
        .update(services)
        .set({
          forceZeroDowntime: input.force_zero_downtime,
          naiveHealthCheck: input.naive_health_check,
          stopTimeout: input.stop_timeout,
          updatedAt: new Date(),
        })
        .where(eq(services.id, service.id))
        .returning();
      return updated ?? service;
    },
  };
}
export type ServicesService = ReturnType<typeof createServicesService>;

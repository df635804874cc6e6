import type { ServiceSettingsInput } from '@berth/core';
import { eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { services } from '../../db/schema.ts';
import { type Page, selectPage } from '../../db/select-page.ts';
import { notFound } from '../../http/errors.ts';
import type { Paging } from '../../http/hal.ts';
import type { CallerAccess, NeededScope } from '../access/environment-access.ts';
import { createAppsService } from '../apps/apps.service.ts';
import type { ServiceRow } from './services.hal.ts';

export function createServicesService(deps: { db: Db }) {
  const { db } = deps;
  const apps = createAppsService(deps);
  const { access } = apps;

  const page = (where: SQL, paging: Paging | null) =>
    selectPage(db, services, { where, orderBy: [services.id], paging });

  /** Loads a service the caller may use with `scope` (404 if absent or invisible, 403 without the scope). */
  async function load(caller: CallerAccess, id: number | null, scope: NeededScope): Promise<ServiceRow> {
    const [service] = id === null ? [] : await db.select().from(services).where(eq(services.id, id));
    if (!service) throw notFound('Service');
    await access.authorizeIn(caller, service.environmentId, scope, 'Service');
    return service;
  }

  return {
    access,
    load,

    /** Services of every environment the caller may see (contract §1.11), app and database services alike. */
    async list(userId: string, paging: Paging | null): Promise<Page<ServiceRow>> {
      const environmentIds = await access.readableEnvironmentIds(await access.forUser(userId));
      return page(inArray(services.environmentId, environmentIds), paging);
    },

    async listInEnvironment(
      userId: string,
      environmentId: number | null,
      scope: NeededScope,
      paging: Paging | null,
    ) {
      const caller = await access.forUser(userId);
      const environment = await access.authorizeIn(caller, environmentId, scope, 'Environment');
      return page(eq(services.environmentId, environment.id), paging);
    },

    async listForApp(userId: string, appId: number | null, scope: NeededScope, paging: Paging | null) {
      const app = await apps.load(await access.forUser(userId), appId, scope);
      return page(eq(services.appId, app.id), paging);
    },

    async get(userId: string, id: number | null, scope: NeededScope): Promise<ServiceRow> {
      return load(await access.forUser(userId), id, scope);
    },

    /** Deployment settings (spec 2 §5); keys left out of the body keep their value. */
    async update(
      userId: string,
      id: number | null,
      scope: NeededScope,
      input: ServiceSettingsInput,
    ): Promise<ServiceRow> {
      const service = await load(await access.forUser(userId), id, scope);
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

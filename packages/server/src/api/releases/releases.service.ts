import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { containers, releases, services } from '../../db/schema.ts';
import { type Page, selectPage } from '../../db/select-page.ts';
import { notFound } from '../../http/errors.ts';
import type { Paging } from '../../http/hal.ts';
import type { CallerAccess, NeededScope } from '../access/environment-access.ts';
import { createServicesService } from '../services/services.service.ts';
import type { ContainerRow, ReleaseRow } from './releases.hal.ts';

export function createReleasesService(deps: { db: Db }) {
  const { db } = deps;
  const servicesService = createServicesService(deps);
  const { access } = servicesService;

  async function load(caller: CallerAccess, id: number | null, scope: NeededScope): Promise<ReleaseRow> {
    const [found] =
      id === null
        ? []
        : await db
            .select({ release: releases, environmentId: services.environmentId })
            .from(releases)
            .innerJoin(services, eq(releases.serviceId, services.id))
            .where(eq(releases.id, id));
    if (!found) throw notFound('Release');
    await access.authorizeIn(caller, found.environmentId, scope, 'Release');
    return found.release;
  }

  return {
    /** A service's releases, newest first; retired ones only with `with_deleted` (contract §5.7). */
    async listForService(
      userId: string,
      serviceId: number | null,
      scope: NeededScope,
      options: { withDeleted: boolean; paging: Paging | null },
    ): Promise<Page<ReleaseRow>> {
      const service = await servicesService.load(await access.forUser(userId), serviceId, scope);
      return selectPage(db, releases, {
        where: and(
          eq(releases.serviceId, service.id),
          options.withDeleted ? undefined : isNull(releases.retiredAt),
        ),
        orderBy: [desc(releases.id)],
        paging: options.paging,
      });
    },

    async get(userId: string, id: number | null, scope: NeededScope): Promise<ReleaseRow> {
      return load(await access.forUser(userId), id, scope);
    },

    /** A release's containers; stopped ones only with `with_deleted` (the metrics look back at them). */
    async containers(
      userId: string,
      releaseId: number | null,
      scope: NeededScope,
      options: { withDeleted: boolean; paging: Paging | null },
    ): Promise<Page<ContainerRow>> {
      const release = await load(await access.forUser(userId), releaseId, scope);
      return selectPage(db, containers, {
        where: and(
          eq(containers.releaseId, release.id),
          options.withDeleted ? undefined : isNull(containers.deletedAt),
        ),
        orderBy: [containers.id],
        paging: options.paging,
      });
    },
  };
}

import { and, desc, eq, isNull } from 'drizzle-orm';
import type { CallerAccess, CallerRef } from '../../auth/caller-access.ts';
import type { Db } from '../../db/client.ts';
import { containers, releases, services } from '../../db/schema.ts';
import { type Page, selectPage } from '../../db/select-page.ts';
import type { Paging } from '../../http/hal.ts';
import type { ServicesService } from '../services/services.service.ts';
import type { ContainerRow, ReleaseRow } from './releases.hal.ts';

export function createReleasesService(deps: { db: Db; services: ServicesService }) {
  const { db, services: servicesService } = deps;
  const { access } = servicesService;

  async function load(caller: CallerAccess, id: number | null): Promise<ReleaseRow> {
    const [found] =
      id === null
        ? []
        : await db
            .select({ release: releases, environmentId: services.environmentId })
            .from(releases)
            .innerJoin(services, eq(releases.serviceId, services.id))
            .where(eq(releases.id, id));
    return (await access.resource(caller, found, 'release.read', 'Release')).row.release;
  }

  return {
    /** A service's releases, newest first; retired ones only with `with_deleted` (contract §5.7). */
    async listForService(
      ref: CallerRef,
      serviceId: number | null,
      options: { withDeleted: boolean; paging: Paging | null },
    ): Promise<Page<ReleaseRow>> {
      const service = await servicesService.load(await access.caller(ref), serviceId, 'release.read');
      return selectPage(db, releases, {
        where: and(
          eq(releases.serviceId, service.id),
          options.withDeleted ? undefined : isNull(releases.retiredAt),
        ),
        orderBy: [desc(releases.id)],
        paging: options.paging,
      });
    },

    async get(ref: CallerRef, id: number | null): Promise<ReleaseRow> {
      return load(await access.caller(ref), id);
    },

    /** A release's containers; stopped ones only with `with_deleted` (the metrics look back at them). */
    async containers(
      ref: CallerRef,
      releaseId: number | null,
      options: { withDeleted: boolean; paging: Paging | null },
    ): Promise<Page<ContainerRow>> {
      const release = await load(await access.caller(ref), releaseId);
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
export type ReleasesService = ReturnType<typeof createReleasesService>;

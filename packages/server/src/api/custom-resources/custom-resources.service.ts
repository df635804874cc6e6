import { and, asc, eq, inArray } from 'drizzle-orm';
import type { CallerRef } from '../../auth/caller-access.ts';
import type { Db } from '../../db/client.ts';
import { customResources } from '../../db/schema.ts';
import { selectPage } from '../../db/select-page.ts';
import { notFound } from '../../http/errors.ts';
import type { Paging } from '../../http/hal.ts';
import { createAccess } from '../access/access.ts';
import type { CustomResourceRow } from './custom-resources.hal.ts';

/**
 * Custom resources (contract §4.3, read at every console start): an organization's, seen by every member
 * (`custom_resource.read`), across the caller's organizations (contract §1.11). Berth has no screen or
 * call that makes one yet, so the list is empty until one is recorded.
 */
export function createCustomResourcesService(deps: { db: Db }) {
  const { db } = deps;
  const access = createAccess(db);

  return {
    async list(ref: CallerRef, paging: Paging) {
      const caller = await access.caller(ref);
      const organizationIds = access.organizations(caller, 'custom_resource.read');
      if (organizationIds.length === 0) {
        return { items: [] as CustomResourceRow[], paging: { ...paging, total: 0 } };
      }
      return selectPage(db, customResources, {
        where: inArray(customResources.organizationId, organizationIds),
        orderBy: [asc(customResources.id)],
        paging,
      });
    },

    async get(ref: CallerRef, id: number | null): Promise<CustomResourceRow> {
      const caller = await access.caller(ref);
      const organizationIds = access.organizations(caller, 'custom_resource.read');
      const [row] =
        id === null || organizationIds.length === 0
          ? []
          : await db
              .select()
              .from(customResources)
              .where(
                and(eq(customResources.id, id), inArray(customResources.organizationId, organizationIds)),
              );
      if (!row) throw notFound('Custom resource');
      return row;
    },
  };
}
export type CustomResourcesService = ReturnType<typeof createCustomResourcesService>;

import type { CustomResourceResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import type { customResources } from '../../db/schema.ts';
import { iso, links } from '../../http/hal.ts';

export type CustomResourceRow = typeof customResources.$inferSelect;

export function toCustomResourceHal(row: CustomResourceRow, urls: FamilyUrls): CustomResourceResource {
  return {
    id: String(row.id),
    _type: 'custom_resource' as const,
    handle: row.handle,
    resource_type: row.resourceType,
    data: row.data,
    deleted_at: iso(row.deletedAt),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    _links: links({
      self: `${urls.api}/custom_resources/${row.id}`,
      organization: `${urls.auth}/organizations/${row.organizationId}`,
    }),
  };
}

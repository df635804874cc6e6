import type { FamilyUrls } from '../../config.ts';
import type { sources } from '../../db/schema.ts';
import { iso, links } from '../../http/hal.ts';

export type SourceRow = typeof sources.$inferSelect;

/** Contract §4.3 source: `display_name` null is shown as "Unknown"; live commits are the console's to compute. */
export function toSourceHal(source: SourceRow, urls: FamilyUrls) {
  return {
    id: String(source.id),
    _type: 'source',
    display_name: source.displayName,
    url: source.url,
    created_at: iso(source.createdAt),
    updated_at: iso(source.updatedAt),
    _links: links({
      self: `${urls.api}/sources/${source.id}`,
      organization: `${urls.auth}/organizations/${source.organizationId}`,
      deployments: `${urls.api}/sources/${source.id}/deployments`,
    }),
  };
}

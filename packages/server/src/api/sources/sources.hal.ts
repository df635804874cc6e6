import type { SourceResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import type { sources } from '../../db/schema.ts';
import { iso, links } from '../../http/hal.ts';

export type SourceRow = typeof sources.$inferSelect;

export interface SourceStats {
  apps: number;
  deployments: number;
  liveCommits: { sha: string; ref: string; message: string; date: Date; url: string }[];
}

/**
 * Contract §4.3 source: `display_name` null is shown as "Unknown". Berth adds the row figures of
 * spec 3 §3 (app and deployment counts, live commits) so no client has to derive them.
 */
export function toSourceHal(source: SourceRow, urls: FamilyUrls, stats?: SourceStats): SourceResource {
  return {
    id: String(source.id),
    _type: 'source' as const,
    display_name: source.displayName,
    url: source.url,
    app_count: stats?.apps ?? 0,
    deployment_count: stats?.deployments ?? 0,
    live_commits: (stats?.liveCommits ?? []).map((commit) => ({ ...commit, date: iso(commit.date) })),
    created_at: iso(source.createdAt),
    updated_at: iso(source.updatedAt),
    _links: links({
      self: `${urls.api}/sources/${source.id}`,
      organization: `${urls.auth}/organizations/${source.organizationId}`,
      deployments: `${urls.api}/sources/${source.id}/deployments`,
    }),
  };
}

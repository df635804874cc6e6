import type { HomeResource } from '@berth/core';
import type { CallerAccess } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { iso, links } from '../../http/hal.ts';
import { toOperationHal } from '../../operations/operations.hal.ts';
import { showsConfiguration } from '../../operations/operations.service.ts';
import type { HomeSummary } from './home.service.ts';

/** The home dashboard of an organization (core's homeResource): its id is the organization's. */
export function toHomeHal(
  summary: HomeSummary,
  urls: FamilyUrls,
  caller: CallerAccess,
  scanResults: Map<number, number>,
): HomeResource {
  const { organizationId, topSource } = summary;
  const self = `${urls.api}/organizations/${organizationId}/home`;
  return {
    id: organizationId,
    _type: 'home' as const,
    counts: summary.counts,
    estimated_monthly_cost: summary.estimatedMonthlyCost,
    scaling: summary.scaling,
    top_source: topSource
      ? {
          id: String(topSource.id),
          display_name: topSource.displayName,
          url: topSource.url,
          app_count: topSource.appCount,
          live_commit_count: topSource.liveCommitCount,
          live_commits: topSource.liveCommits.map((commit) => ({ ...commit, date: iso(commit.date) })),
        }
      : null,
    security: summary.security,
    feedback_banner_dismissed: summary.feedbackBannerDismissed,
    _embedded: {
      // As the operation lists answer them: configuration values only for callers who may read them.
      activities: summary.activities.map((op) =>
        toOperationHal(op, urls, {
          showEnv: showsConfiguration(caller, op),
          codeScanResultId: scanResults.get(op.id) ?? null,
        }),
      ),
    },
    _links: links({
      self,
      organization: `${urls.auth}/organizations/${organizationId}`,
      operations: `${urls.api}/organizations/${organizationId}/operations`,
      feedback_banner: `${self}/feedback_banner`,
      top_source: topSource ? `${urls.api}/sources/${topSource.id}` : null,
    }),
  };
}

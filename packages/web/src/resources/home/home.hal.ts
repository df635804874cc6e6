import type { HomeResource } from '@berth/core';
import { fromOperationResource, type Operation } from '../operations/operation.hal.ts';
import type { LiveCommit } from '../sources/source.hal.ts';

/** spec 3 §2 Home as the console reads it: every figure counts what the caller may read. */
export interface Home {
  counts: { dedicatedStacks: number; environments: number; apps: number; databases: number };
  /** USD per month, unrounded. */
  estimatedMonthlyCost: number;
  scaling: {
    services: number;
    containers: number;
    containerMemoryMb: number;
    autoscalingServices: number;
    horizontalAutoscalingServices: number;
    verticalAutoscalingServices: number;
    scaleDownServices: number;
    scaleUpServices: number;
    /** USD per month the Scale Down recommendations would save together. */
    potentialSavings: number;
  };
  topSource: {
    id: string;
    displayName: string | null;
    url: string;
    apps: number;
    /** Newest first, at most 7 (spec 3 §9). */
    liveCommits: LiveCommit[];
    /** How many distinct live commits there are in all, for the '+N'. */
    liveCommitCount: number;
  } | null;
  /** null: the caller has Full Visibility on no environment. */
  security: {
    members: number;
    membersWithTwoFactor: number;
    ssoConfigured: boolean;
    ssoEnforced: boolean;
    databases: number;
    databasesWithBackups: number;
    endpoints: number;
    endpointsWithIpAllowlist: number;
  } | null;
  /** The latest activities, polls left out, newest first. */
  activities: Operation[];
  feedbackBannerDismissed: boolean;
}

export function fromHomeResource(home: HomeResource): Home {
  const { counts, scaling, top_source: topSource, security } = home;
  return {
    counts: {
      dedicatedStacks: counts.dedicated_stacks,
      environments: counts.environments,
      apps: counts.apps,
      databases: counts.databases,
    },
    estimatedMonthlyCost: home.estimated_monthly_cost,
    scaling: {
      services: scaling.services,
      containers: scaling.containers,
      containerMemoryMb: scaling.container_memory_mb,
      autoscalingServices: scaling.autoscaling_services,
      horizontalAutoscalingServices: scaling.horizontal_autoscaling_services,
      verticalAutoscalingServices: scaling.vertical_autoscaling_services,
      scaleDownServices: scaling.scale_down_services,
      scaleUpServices: scaling.scale_up_services,
      potentialSavings: scaling.potential_savings,
    },
    topSource: topSource
      ? {
          id: topSource.id,
          displayName: topSource.display_name,
          url: topSource.url,
          apps: topSource.app_count,
          liveCommits: topSource.live_commits,
          liveCommitCount: topSource.live_commit_count,
        }
      : null,
    security: security
      ? {
          members: security.members,
          membersWithTwoFactor: security.members_with_two_factor,
          ssoConfigured: security.sso_configured,
          ssoEnforced: security.sso_enforced,
          databases: security.databases,
          databasesWithBackups: security.databases_with_backups,
          endpoints: security.endpoints,
          endpointsWithIpAllowlist: security.endpoints_with_ip_allowlist,
        }
      : null,
    activities: home._embedded.activities.map(fromOperationResource),
    feedbackBannerDismissed: home.feedback_banner_dismissed,
  };
}

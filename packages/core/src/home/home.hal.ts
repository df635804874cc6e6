import { z } from 'zod';
import { halId, halLinks } from '../hal/hal.ts';
import { operationResource } from '../operations/operation.hal.ts';
import { liveCommit } from '../sources/source.hal.ts';

/** spec 3 §2 Home: the counts of what the caller may read in the organization. */
export const homeCounts = z.strictObject({
  dedicated_stacks: z.number().int(),
  environments: z.number().int(),
  apps: z.number().int(),
  databases: z.number().int(),
});

/**
 * spec 3 §2 "A scaling summary": the services the caller may read, their containers and memory, how
 * many size themselves (autoscaling, by mode), and the sizing recommendations in force (spec 2 §4:
 * at least 150 USD a month either way, at most 2 days old, for the size the service still has).
 */
export const homeScaling = z.strictObject({
  services: z.number().int(),
  containers: z.number().int(),
  container_memory_mb: z.number().int(),
  autoscaling_services: z.number().int(),
  horizontal_autoscaling_services: z.number().int(),
  vertical_autoscaling_services: z.number().int(),
  scale_down_services: z.number().int(),
  scale_up_services: z.number().int(),
  /** USD per month the Scale Down recommendations would save together. */
  potential_savings: z.number(),
});

/**
 * spec 3 §2 "A sources summary: the top repository with up to 7 live commits": the source the most apps
 * the caller may read run, its app count, and its distinct live commits (newest first, at most 7, with
 * how many there are in all for the '+N').
 */
export const homeTopSource = z.strictObject({
  id: halId,
  /** null is shown as "Unknown" (spec 3 §3). */
  display_name: z.string().nullable(),
  url: z.string(),
  app_count: z.number().int(),
  live_commit_count: z.number().int(),
  live_commits: z.array(liveCommit),
});

/**
 * spec 3 §2 "Security and compliance cards", as far as Berth knows today: members with two-factor
 * authentication, SAML single sign-on and its enforcement, databases with backups, endpoints with an
 * IP allowlist. Present only for callers with Full Visibility on some environment (the Security &
 * Compliance entry's rule); databases and endpoints count in the environments where they have it.
 */
export const homeSecurity = z.strictObject({
  members: z.number().int(),
  members_with_two_factor: z.number().int(),
  sso_configured: z.boolean(),
  sso_enforced: z.boolean(),
  databases: z.number().int(),
  databases_with_backups: z.number().int(),
  endpoints: z.number().int(),
  endpoints_with_ip_allowlist: z.number().int(),
});

/**
 * The home dashboard of an organization in one answer (Berth's; the contract has none): its id is the
 * organization's. The latest activities are full operations, so a client that ingests by `_type` reads
 * them as it reads any list; the top source is a summary (no `_type`: not a whole source).
 */
export const homeResource = z
  .strictObject({
    id: halId,
    _type: z.literal('home'),
    counts: homeCounts,
    /** USD per month, unrounded: the organization's environments and dedicated stacks (contract §4.3 cost). */
    estimated_monthly_cost: z.number(),
    scaling: homeScaling,
    top_source: homeTopSource.nullable(),
    security: homeSecurity.nullable(),
    /** Whether the caller dismissed the beta feedback banner (it stays dismissed on every device). */
    feedback_banner_dismissed: z.boolean(),
    _embedded: z.strictObject({ activities: z.array(operationResource) }),
    _links: halLinks(['self', 'organization', 'operations', 'feedback_banner'], ['top_source']),
  })
  .meta({ id: 'Home' });
export type HomeResource = z.infer<typeof homeResource>;
export type HomeCounts = z.infer<typeof homeCounts>;
export type HomeScaling = z.infer<typeof homeScaling>;
export type HomeSecurity = z.infer<typeof homeSecurity>;
export type HomeTopSource = z.infer<typeof homeTopSource>;

import {
  can,
  HOME_ACTIVITY_COUNT,
  HOME_HIDDEN_OPERATION_TYPES,
  HOME_LIVE_COMMIT_COUNT,
  type HomeCounts,
  type HomeScaling,
  type HomeSecurity,
  hasFullVisibilityAnywhere,
  RECOMMENDATION,
} from '@berth/core';
import { and, asc, desc, eq, gt, inArray, isNotNull, notExists, notInArray, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { CallerRef } from '../../auth/caller-access.ts';
import type { Db } from '../../db/client.ts';
import {
  apps,
  databases,
  deployments,
  environments,
  homeFeedbackDismissals,
  memberships,
  operations,
  organizations,
  roles,
  samlConfigurations,
  services,
  sizingPolicies,
  sizingRecommendations,
  sources,
  stacks,
  users,
  vhosts,
} from '../../db/schema.ts';
import type { OperationRow } from '../../operations/operations.hal.ts';
import type { OperationsService } from '../../operations/operations.service.ts';
import { createAccess, isVisible } from '../access/access.ts';
import type { CostsService, Running } from '../costs/costs.service.ts';

/** The top source: the repository most of the caller's readable apps run, with its live commits. */
export interface HomeTopSourceRow {
  id: number;
  displayName: string | null;
  url: string;
  appCount: number;
  liveCommitCount: number;
  liveCommits: { sha: string; ref: string; message: string; date: Date; url: string }[];
}

export interface HomeSummary {
  organizationId: string;
  counts: HomeCounts;
  estimatedMonthlyCost: number;
  scaling: HomeScaling;
  topSource: HomeTopSourceRow | null;
  security: HomeSecurity | null;
  activities: OperationRow[];
  feedbackBannerDismissed: boolean;
}

/** Rows in these environments (an empty list matches nothing). */
const inEnvironments = (column: AnyPgColumn, ids: number[]) => inArray(column, ids.length ? ids : [-1]);

const count = () => sql<number>`count(*)`.mapWith(Number);

/**
 * spec 3 §2 Home: an organization's dashboard as the caller may see it, in one call. Every figure is
 * counted or summed by the database on an index of the environments the caller may read (issue 38: an
 * organization of 50,000 apps), never by reading the rows into the server: counts of apps, databases and
 * dedicated stacks; the estimated monthly cost (the costs service's sums); the services' sizes and
 * scaling; the source most apps run and its newest live commits; the latest activities; and, for callers
 * with Full Visibility somewhere, what Berth knows of the organization's security.
 */
export function createHomeService(deps: { db: Db; costs: CostsService; operations: OperationsService }) {
  const { db, costs, operations: operationsService } = deps;
  const access = createAccess(db);

  /**
   * The readable apps by the source they run (null: none), in one pass over the apps' source index: the
   * apps count and the top source both read it.
   */
  function appsBySource(readable: number[]) {
    const appCount = count();
    return db
      .select({ sourceId: apps.currentSourceId, apps: appCount })
      .from(apps)
      .where(inEnvironments(apps.environmentId, readable))
      .groupBy(apps.currentSourceId);
  }
  type AppGroups = Awaited<ReturnType<typeof appsBySource>>;

  async function counts(
    organizationId: string,
    readable: number[],
    appGroups: Promise<AppGroups>,
  ): Promise<HomeCounts> {
    const [groups, databaseCount, dedicatedStacks] = await Promise.all([
      appGroups,
      db.$count(databases, inEnvironments(databases.environmentId, readable)),
      // A dedicated stack is one the organization owns and Berth runs (spec 2: self-hosted ones are apart).
      db.$count(stacks, and(eq(stacks.organizationId, organizationId), eq(stacks.selfHosted, false))),
    ]);
    return {
      dedicated_stacks: dedicatedStacks,
      environments: readable.length,
      apps: groups.reduce((total, group) => total + group.apps, 0),
      databases: databaseCount,
    };
  }

  /** `running`: the readable services, their containers and memory, as the costs summed them. */
  async function scaling(readable: number[], running: Promise<Running>): Promise<HomeScaling> {
    const autoscaling = db
      .select({ mode: sizingPolicies.autoscaling, services: count() })
      .from(sizingPolicies)
      .where(
        and(inEnvironments(sizingPolicies.environmentId, readable), eq(sizingPolicies.scalingEnabled, true)),
      )
      .groupBy(sizingPolicies.autoscaling);
    // spec 2 §4 (core's scalingLabel): a recommendation counts for a service that does not autoscale,
    // while it has the size it was made for, for 2 days, from 150 USD a month either way.
    const autoscalingOn = db
      .select({ one: sql`1` })
      .from(sizingPolicies)
      .where(and(eq(sizingPolicies.serviceId, services.id), eq(sizingPolicies.scalingEnabled, true)));
    // Read from the recommendations (a few: recent and large), each joined to its service by its key.
    const recommendations = db
      .select({
        scaleDown: sql<number>`count(*) filter (where ${sizingRecommendations.costSavings} > 0)`.mapWith(
          Number,
        ),
        scaleUp: sql<number>`count(*) filter (where ${sizingRecommendations.costSavings} < 0)`.mapWith(
          Number,
        ),
        savings:
          sql<number>`coalesce(sum(${sizingRecommendations.costSavings}) filter (where ${sizingRecommendations.costSavings} > 0), 0)`.mapWith(
            Number,
          ),
      })
      .from(sizingRecommendations)
      .innerJoin(services, eq(services.id, sizingRecommendations.serviceId))
      .where(
        and(
          inEnvironments(sizingRecommendations.environmentId, readable),
          gt(sizingRecommendations.createdAt, new Date(Date.now() - RECOMMENDATION.validMs)),
          sql`abs(${sizingRecommendations.costSavings}) >= ${RECOMMENDATION.savingThreshold}`,
          eq(sizingRecommendations.instanceClassAtTime, services.instanceClass),
          eq(sizingRecommendations.containerMemoryLimitMbAtTime, services.containerMemoryLimitMb),
          notExists(autoscalingOn),
        ),
      );
    const [size, modes, [advice]] = await Promise.all([running, autoscaling, recommendations]);
    const autoscaled = (mode: string) => modes.find((row) => row.mode === mode)?.services ?? 0;
    return {
      services: size.services,
      containers: size.containers,
      container_memory_mb: size.containerMemoryMb,
      autoscaling_services: modes.reduce((total, row) => total + row.services, 0),
      horizontal_autoscaling_services: autoscaled('horizontal'),
      vertical_autoscaling_services: autoscaled('vertical'),
      scale_down_services: advice?.scaleDown ?? 0,
      scale_up_services: advice?.scaleUp ?? 0,
      potential_savings: advice?.savings ?? 0,
    };
  }

  /**
   * The source the most readable apps run now (ties: the newer source), and its distinct live commits
   * (spec 3 §3: the commits its apps currently run), newest first. Both read the apps' source index.
   */
  async function topSource(
    organizationId: string,
    readable: number[],
    appGroups: Promise<AppGroups>,
  ): Promise<HomeTopSourceRow | null> {
    let top: { sourceId: number; apps: number } | null = null;
    for (const group of await appGroups) {
      const { sourceId, apps: running } = group;
      if (sourceId === null) continue;
      if (!top || running > top.apps || (running === top.apps && sourceId > top.sourceId)) {
        top = { sourceId, apps: running };
      }
    }
    if (!top) return null;
    const date = sql<Date>`coalesce(${deployments.gitCommitTimestamp}, ${deployments.createdAt})`;
    // One row per commit (its newest deployment), then the newest commits with how many there are.
    const perCommit = db
      .selectDistinctOn([deployments.gitCommitSha], {
        sha: sql<string>`${deployments.gitCommitSha}`.as('sha'),
        ref: sql<string | null>`${deployments.gitRef}`.as('ref'),
        message: sql<string | null>`${deployments.gitCommitMessage}`.as('message'),
        url: sql<string | null>`${deployments.gitCommitUrl}`.as('url'),
        date: date.as('date'),
      })
      .from(apps)
      .innerJoin(deployments, eq(deployments.id, apps.currentDeploymentId))
      .where(
        and(
          eq(apps.currentSourceId, top.sourceId),
          inEnvironments(apps.environmentId, readable),
          isNotNull(deployments.gitCommitSha),
          sql`${deployments.gitCommitSha} <> ''`,
        ),
      )
      .orderBy(deployments.gitCommitSha, desc(date))
      .as('per_commit');
    const [source, commits] = await Promise.all([
      db
        .select()
        .from(sources)
        .where(and(eq(sources.id, top.sourceId), eq(sources.organizationId, organizationId))),
      db
        .select({
          sha: perCommit.sha,
          ref: perCommit.ref,
          message: perCommit.message,
          url: perCommit.url,
          date: perCommit.date,
          total: sql<number>`count(*) over ()`.mapWith(Number),
        })
        .from(perCommit)
        .orderBy(desc(perCommit.date), asc(perCommit.sha))
        .limit(HOME_LIVE_COMMIT_COUNT),
    ]);
    const [row] = source;
    if (!row) return null;
    return {
      id: row.id,
      displayName: row.displayName,
      url: row.url,
      appCount: top.apps,
      liveCommitCount: commits[0]?.total ?? 0,
      liveCommits: commits.map((commit) => ({
        sha: commit.sha,
        ref: commit.ref ?? '',
        message: commit.message ?? '',
        url: commit.url ?? '',
        // The drivers differ in what a computed timestamp arrives as.
        date: new Date(commit.date),
      })),
    };
  }

  /** spec 3 §2: the latest operations the caller may read, polls left out, newest first as the activity list. */
  async function activities(ref: CallerRef, organizationId: string): Promise<OperationRow[]> {
    const scope = await operationsService.organizationScope(ref, organizationId);
    return db
      .select()
      .from(operations)
      .where(and(scope, notInArray(operations.type, [...HOME_HIDDEN_OPERATION_TYPES])))
      .orderBy(desc(operations.updatedAt), desc(operations.id))
      .limit(HOME_ACTIVITY_COUNT);
  }

  /**
   * What Berth knows of the organization's security today: its members' two-factor adoption, SAML single
   * sign-on and its enforcement, and, in the environments where the caller has Full Visibility, the
   * databases with backups and the endpoints with an IP allowlist.
   */
  async function security(organizationId: string, fullyVisible: number[]): Promise<HomeSecurity> {
    const members = db
      .select({
        members: sql<number>`count(distinct ${memberships.userId})`.mapWith(Number),
        withTwoFactor:
          sql<number>`count(distinct ${memberships.userId}) filter (where ${users.otpEnabled})`.mapWith(
            Number,
          ),
      })
      .from(memberships)
      .innerJoin(roles, eq(roles.id, memberships.roleId))
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(eq(roles.organizationId, organizationId));
    const sso = db
      .select({ enforced: organizations.ssoEnforced, configured: samlConfigurations.id })
      .from(organizations)
      .leftJoin(samlConfigurations, eq(samlConfigurations.organizationId, organizations.id))
      .where(eq(organizations.id, organizationId));
    const databaseBackups = db
      .select({
        databases: count(),
        withBackups: sql<number>`count(*) filter (where ${databases.enableBackups})`.mapWith(Number),
      })
      .from(databases)
      .where(inEnvironments(databases.environmentId, fullyVisible));
    const endpoints = db
      .select({
        endpoints: count(),
        withAllowlist:
          sql<number>`count(*) filter (where jsonb_array_length(${vhosts.ipWhitelist}) > 0)`.mapWith(Number),
      })
      .from(vhosts)
      .where(inEnvironments(vhosts.environmentId, fullyVisible));
    const [[people], [signOn], [data], [traffic]] = await Promise.all([
      members,
      sso,
      databaseBackups,
      endpoints,
    ]);
    return {
      members: people?.members ?? 0,
      members_with_two_factor: people?.withTwoFactor ?? 0,
      sso_configured: Boolean(signOn?.configured),
      sso_enforced: signOn?.enforced ?? false,
      databases: data?.databases ?? 0,
      databases_with_backups: data?.withBackups ?? 0,
      endpoints: traffic?.endpoints ?? 0,
      endpoints_with_ip_allowlist: traffic?.withAllowlist ?? 0,
    };
  }

  return {
    async summary(ref: CallerRef, organizationId: string): Promise<HomeSummary> {
      const caller = await access.caller(ref);
      const actor = access.organization(caller, organizationId, 'home.read');
      const organizationEnvironments = await db
        .select({ id: environments.id, organizationId: environments.organizationId })
        .from(environments)
        .where(eq(environments.organizationId, organizationId))
        .orderBy(asc(environments.id));
      const readable = organizationEnvironments.filter((row) => isVisible(caller, row)).map((row) => row.id);
      // spec 3 §2: Security & Compliance needs Full Visibility on any environment; so does its card.
      const fullyVisible = hasFullVisibilityAnywhere(actor)
        ? organizationEnvironments.filter((row) => can(actor, 'read', String(row.id))).map((row) => row.id)
        : null;
      // Asked once (a query builder runs at each await), read by the counts and the top source.
      const appGroups = appsBySource(readable).then((groups) => groups);
      const monthly = costs.organizationMonthly(caller, organizationId);
      const [countsOf, { estCost }, scalingOf, top, latest, securityOf, dismissal] = await Promise.all([
        counts(organizationId, readable, appGroups),
        monthly,
        scaling(
          readable,
          monthly.then((summary) => summary.running),
        ),
        topSource(organizationId, readable, appGroups),
        activities(caller, organizationId),
        fullyVisible ? security(organizationId, fullyVisible) : Promise.resolve(null),
        db
          .select({ userId: homeFeedbackDismissals.userId })
          .from(homeFeedbackDismissals)
          .where(eq(homeFeedbackDismissals.userId, caller.user.id)),
      ]);
      return {
        organizationId,
        counts: countsOf,
        estimatedMonthlyCost: estCost,
        scaling: scalingOf,
        topSource: top,
        security: securityOf,
        activities: latest,
        feedbackBannerDismissed: dismissal.length > 0,
      };
    },

    /** The caller dismisses the beta feedback banner, for good (a second time changes nothing). */
    async dismissFeedbackBanner(ref: CallerRef, organizationId: string): Promise<void> {
      const caller = await access.caller(ref);
      access.organization(caller, organizationId, 'home.read');
      await db
        .insert(homeFeedbackDismissals)
        .values({ userId: caller.user.id })
        .onConflictDoNothing({ target: homeFeedbackDismissals.userId });
    },
  };
}
export type HomeService = ReturnType<typeof createHomeService>;

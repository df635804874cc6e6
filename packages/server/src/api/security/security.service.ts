import {
  CERTIFICATE_EXPIRY_WARNING_DAYS,
  PRIVILEGED_ACTIVITY_LIMIT,
  type RetentionPolicyValues,
  ROLE_TYPES,
  type RoleType,
  SECURITY_SUMMARY_LIST_LIMIT,
  visibleRoleTypes,
} from '@berth/core';
import { and, asc, desc, eq, exists, inArray, isNull, notInArray, or, type SQL, sql } from 'drizzle-orm';
import { type CallerRef, organizationsManagingMembers } from '../../auth/caller-access.ts';
import type { Db } from '../../db/client.ts';
import {
  backups,
  certificates,
  databases,
  disks,
  memberships,
  organizations,
  permissions,
  privilegedActivities,
  roles,
  samlConfigurations,
  users,
  vhosts,
} from '../../db/schema.ts';
import { createAccess } from '../access/access.ts';
import { retentionPolicyInForce } from '../backups/retention-policy.ts';
import type { EnvironmentRow } from '../environments/environments.hal.ts';

const DAY_MS = 86_400_000;
/** The endpoint types the edge serves over TLS, with a certificate (all but plain TCP). */
const TLS_TYPES = ['http', 'http_proxy_protocol', 'grpc', 'tls'];

export type PrivilegedActivityRow = typeof privilegedActivities.$inferSelect;

export interface SecuritySummary {
  environment: EnvironmentRow;
  twoFactor: { members: number; enabled: number; without: { name: string; email: string }[] };
  sso: { configured: boolean; enforced: boolean };
  backups: {
    databases: number;
    enabled: number;
    withoutBackups: string[];
    overdue: number;
    lastBackupAt: Date | null;
    retention: RetentionPolicyValues;
  };
  encryption: { disks: number; encrypted: number };
  endpoints: {
    total: number;
    tls: number;
    withoutTls: number;
    internal: number;
    ipAllowlisted: number;
    openToAll: number;
    certificatesExpiring: number;
  };
  privilegedActivity: PrivilegedActivityRow[];
  generatedAt: Date;
}

const count = sql<number>`count(*)::int`;
const countWhere = (condition: ReturnType<typeof sql>) =>
  sql<number>`(count(*) filter (where ${condition}))::int`;

/**
 * What of the organization the caller may read here: its organization-wide changes only when they may
 * read its members and roles (core's `member.roles.read`), and only the role types (with their holders)
 * core's isRoleVisible shows them, as the members and roles endpoints do.
 */
interface Reader {
  organizationWide: boolean;
  visibleRoleTypes: RoleType[];
}

/**
 * Issue 38 "Security & Compliance": what Berth knows of one environment's security, each part read by
 * one indexed query of that environment (or its organization), never a list of everything.
 */
export function createSecurityService(deps: { db: Db }) {
  const { db } = deps;
  const access = createAccess(db);

  /**
   * The members who may reach the environment: every holder of an owner-type role of its organization,
   * and of a role with a permission on it (spec 1 §6: owners pass every check; any permission grants
   * basic_read), through a role the reader may see.
   */
  function membersOf(environment: EnvironmentRow, reader: Reader) {
    const reaching = db
      .select({ userId: memberships.userId })
      .from(memberships)
      .innerJoin(roles, eq(roles.id, memberships.roleId))
      .where(
        and(
          eq(roles.organizationId, environment.organizationId),
          inArray(roles.type, reader.visibleRoleTypes),
          or(
            inArray(roles.type, ['owner', 'platform_owner']),
            exists(
              db
                .select({ one: sql`1` })
                .from(permissions)
                .where(and(eq(permissions.roleId, roles.id), eq(permissions.environmentId, environment.id))),
            ),
          ),
        ),
      );
    return inArray(users.id, reaching);
  }

  async function twoFactor(environment: EnvironmentRow, reader: Reader) {
    const members = membersOf(environment, reader);
    const [counts] = await db
      .select({ members: count, enabled: countWhere(sql`${users.otpEnabled}`) })
      .from(users)
      .where(members);
    const without = await db
      .select({ name: users.name, email: users.email })
      .from(users)
      .where(and(members, eq(users.otpEnabled, false)))
      .orderBy(asc(users.name), asc(users.email))
      .limit(SECURITY_SUMMARY_LIST_LIMIT);
    return { members: counts?.members ?? 0, enabled: counts?.enabled ?? 0, without };
  }

  async function sso(environment: EnvironmentRow) {
    const [row] = await db
      .select({ enforced: organizations.ssoEnforced, configurationId: samlConfigurations.id })
      .from(organizations)
      .leftJoin(samlConfigurations, eq(samlConfigurations.organizationId, organizations.id))
      .where(eq(organizations.id, environment.organizationId));
    return { configured: !!row?.configurationId, enforced: !!row?.enforced };
  }

  async function backupFacts(environment: EnvironmentRow, now: Date) {
    const inEnvironment = eq(databases.environmentId, environment.id);
    const since = new Date(now.getTime() - DAY_MS);
    const recentBackup = exists(
      db
        .select({ one: sql`1` })
        .from(backups)
        .where(and(eq(backups.databaseId, databases.id), sql`${backups.createdAt} > ${since}`)),
    );
    const [counts] = await db
      .select({
        databases: count,
        enabled: countWhere(sql`${databases.enableBackups}`),
        overdue: countWhere(
          sql`${databases.enableBackups} and ${databases.provisioned} and not ${recentBackup}`,
        ),
      })
      .from(databases)
      .where(inEnvironment);
    const withoutBackups = await db
      .select({ handle: databases.handle })
      .from(databases)
      .where(and(inEnvironment, eq(databases.enableBackups, false)))
      .orderBy(asc(databases.handle))
      .limit(SECURITY_SUMMARY_LIST_LIMIT);
    const [last] = await db
      .select({ at: backups.createdAt })
      .from(backups)
      .where(eq(backups.environmentId, environment.id))
      .orderBy(desc(backups.createdAt))
      .limit(1);
    return {
      databases: counts?.databases ?? 0,
      enabled: counts?.enabled ?? 0,
      overdue: counts?.overdue ?? 0,
      withoutBackups: withoutBackups.map((row) => row.handle),
      lastBackupAt: last?.at ?? null,
      retention: await retentionPolicyInForce(db, environment.id),
    };
  }

  async function encryption(environment: EnvironmentRow) {
    const [row] = await db
      .select({ disks: count, encrypted: countWhere(sql`${disks.keyBytes} > 0`) })
      .from(disks)
      .where(eq(disks.environmentId, environment.id));
    return { disks: row?.disks ?? 0, encrypted: row?.encrypted ?? 0 };
  }

  async function endpoints(environment: EnvironmentRow, now: Date) {
    const tls = inArray(vhosts.type, TLS_TYPES);
    const allowlisted = sql`jsonb_array_length(${vhosts.ipWhitelist}) > 0`;
    const soon = new Date(now.getTime() + CERTIFICATE_EXPIRY_WARNING_DAYS * DAY_MS);
    const [row] = await db
      .select({
        total: count,
        tls: countWhere(tls.getSQL()),
        internal: countWhere(sql`${vhosts.internal}`),
        ipAllowlisted: countWhere(allowlisted),
        openToAll: countWhere(sql`not ${vhosts.internal} and not ${allowlisted}`),
      })
      .from(vhosts)
      .where(eq(vhosts.environmentId, environment.id));
    // Custom certificates the environment's endpoints serve that end within the warning period.
    const [expiring] = await db
      .select({ n: sql<number>`count(distinct ${certificates.id})::int` })
      .from(vhosts)
      .innerJoin(certificates, eq(certificates.id, vhosts.certificateId))
      .where(and(eq(vhosts.environmentId, environment.id), sql`${certificates.notAfter} < ${soon}`));
    const total = row?.total ?? 0;
    return {
      total,
      tls: row?.tls ?? 0,
      withoutTls: total - (row?.tls ?? 0),
      internal: row?.internal ?? 0,
      ipAllowlisted: row?.ipAllowlisted ?? 0,
      openToAll: row?.openToAll ?? 0,
      certificatesExpiring: expiring?.n ?? 0,
    };
  }

  /**
   * The holders of the organization's roles of the given types (any type when none is given).
   */
  function holders(organizationId: string, types?: readonly RoleType[]) {
    return db
      .select({ userId: memberships.userId })
      .from(memberships)
      .innerJoin(roles, eq(roles.id, memberships.roleId))
      .where(and(eq(roles.organizationId, organizationId), types ? inArray(roles.type, types) : undefined));
  }

  /**
   * The recent privileged changes to this environment (not to others), with the organization's own for a
   * reader who may read its members and roles; none about a role hidden from the reader, nor about a
   * member who holds only such roles.
   */
  function privilegedActivity(environment: EnvironmentRow, reader: Reader) {
    const here = eq(privilegedActivities.environmentId, environment.id);
    const conditions: (SQL | undefined)[] = [
      eq(privilegedActivities.organizationId, environment.organizationId),
      reader.organizationWide ? or(isNull(privilegedActivities.environmentId), here) : here,
    ];
    if (reader.visibleRoleTypes.length < ROLE_TYPES.length) {
      conditions.push(
        or(
          isNull(privilegedActivities.roleType),
          inArray(privilegedActivities.roleType, reader.visibleRoleTypes),
        ),
        or(
          isNull(privilegedActivities.subjectId),
          inArray(
            privilegedActivities.subjectId,
            holders(environment.organizationId, reader.visibleRoleTypes),
          ),
          notInArray(privilegedActivities.subjectId, holders(environment.organizationId)),
        ),
      );
    }
    return db
      .select()
      .from(privilegedActivities)
      .where(and(...conditions))
      .orderBy(desc(privilegedActivities.createdAt), desc(privilegedActivities.id))
      .limit(PRIVILEGED_ACTIVITY_LIMIT);
  }

  return {
    /** The summary of an environment the caller has Full Visibility on (404 unseen, 403 without read). */
    async summary(ref: CallerRef, environmentId: number | null): Promise<SecuritySummary> {
      const caller = await access.caller(ref);
      const environment = await access.environment(caller, environmentId, 'security.read');
      const actor = caller.actors.get(environment.organizationId) ?? { roleTypes: [], permissions: [] };
      const reader: Reader = {
        organizationWide: organizationsManagingMembers(caller, [environment.organizationId]).length > 0,
        visibleRoleTypes: visibleRoleTypes(actor),
      };
      const now = new Date();
      const [twoFactorFacts, ssoFacts, backupSummary, encryptionFacts, endpointFacts, activity] =
        await Promise.all([
          twoFactor(environment, reader),
          sso(environment),
          backupFacts(environment, now),
          encryption(environment),
          endpoints(environment, now),
          privilegedActivity(environment, reader),
        ]);
      return {
        environment,
        twoFactor: twoFactorFacts,
        sso: ssoFacts,
        backups: backupSummary,
        encryption: encryptionFacts,
        endpoints: endpointFacts,
        privilegedActivity: activity,
        generatedAt: now,
      };
    },
  };
}
export type SecurityService = ReturnType<typeof createSecurityService>;

import { randomBytes } from 'node:crypto';
import { hash as hashPassword } from '@node-rs/argon2';
import { and, asc, count, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import { memberTarget, recordAuditEvent, scimTokenActor } from '../api/audit-events/audit-events.repo.ts';
import type { ScimConfigurationRow } from '../auth/scim-configurations/scim-configurations.service.ts';
import type { Db, Tx } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { memberships, roles, scimUsers, users } from '../db/schema.ts';
import { isUuid } from '../http/ids.ts';
import { ScimError, scimNotFound, uniqueness } from './scim-errors.ts';
import type { Filter } from './scim-filter.ts';
import { userFilterCondition } from './scim-filter-sql.ts';
import type { UserChanges } from './scim-input.ts';
import { giveDefaultRole, leaveOrganization, lockOrganization } from './scim-memberships.ts';
import type { GroupMember, ProvisionedUser } from './scim-resources.ts';

/** A page of the tenant's users, with the groups of each. */
export interface UserPage {
  total: number;
  rows: { row: ProvisionedUser; groups: GroupMember[] }[];
}

const notProvisioned = () => scimNotFound('User');

/** The name Berth shows: the formatted name, else given and family names, else displayName, else the address. */
function nameOf(
  parts: {
    formatted?: string | null;
    givenName?: string | null;
    familyName?: string | null;
    displayName?: string | null;
  },
  email: string,
) {
  const joined = [parts.givenName, parts.familyName].filter(Boolean).join(' ');
  return (parts.formatted || joined || parts.displayName || email.split('@')[0] || email).slice(0, 200);
}

/**
 * SCIM Users (RFC 7644 §3): the organization's provisioned users. A user is the Berth user whose email is
 * the userName (spec 1 §9), made a member with the configuration's default role. userName is unique
 * without regard to case: in the tenant (409 uniqueness), and in Berth, where an address already in use
 * is linked when its account is a member of the organization (an IdP adopting existing members), and
 * refused otherwise (409: the person joins by invitation first, so no organization takes in, or can sign
 * out, an account that never joined it).
 */
export function createScimUsersService(deps: { db: Db }) {
  const { db } = deps;

  const tenant = (organizationId: string) => eq(scimUsers.organizationId, organizationId);

  /** The SCIM groups (provisioned roles) each user is in. */
  async function groupsOf(organizationId: string, userIds: string[]) {
    const byUser = new Map<string, GroupMember[]>();
    if (userIds.length === 0) return byUser;
    const rows = await db
      .select({ userId: memberships.userId, id: roles.id, name: roles.name })
      .from(memberships)
      .innerJoin(roles, eq(memberships.roleId, roles.id))
      .where(
        and(
          eq(roles.organizationId, organizationId),
          eq(roles.scimCreated, true),
          inArray(memberships.userId, userIds),
        ),
      )
      .orderBy(asc(roles.id));
    for (const row of rows)
      byUser.set(row.userId, [...(byUser.get(row.userId) ?? []), { id: row.id, name: row.name }]);
    return byUser;
  }

  async function provisioned(tx: Db | Tx, organizationId: string, userId: string): Promise<ProvisionedUser> {
    if (!isUuid(userId)) throw notProvisioned();
    const [row] = await tx
      .select({ user: users, identity: scimUsers })
      .from(scimUsers)
      .innerJoin(users, eq(users.id, scimUsers.userId))
      .where(and(tenant(organizationId), eq(scimUsers.userId, userId)));
    if (!row) throw notProvisioned();
    return row;
  }

  async function withGroups(organizationId: string, row: ProvisionedUser) {
    return { row, groups: (await groupsOf(organizationId, [row.user.id])).get(row.user.id) ?? [] };
  }

  /** Whether the user holds a role in the organization (an account the IdP may adopt). */
  async function isMember(tx: Tx, organizationId: string, userId: string) {
    const [row] = await tx
      .select({ id: memberships.id })
      .from(memberships)
      .innerJoin(roles, eq(memberships.roleId, roles.id))
      .where(and(eq(memberships.userId, userId), eq(roles.organizationId, organizationId)))
      .limit(1);
    return row !== undefined;
  }

  /** Whether the user holds a role in an organization other than this one. */
  async function isMemberElsewhere(tx: Tx, organizationId: string, userId: string) {
    const [row] = await tx
      .select({ id: memberships.id })
      .from(memberships)
      .innerJoin(roles, eq(memberships.roleId, roles.id))
      .where(and(eq(memberships.userId, userId), ne(roles.organizationId, organizationId)))
      .limit(1);
    return row !== undefined;
  }

  /**
   * Active → inactive ends the user's memberships here and every token of theirs; inactive → active gives
   * the default role back (the IdP pushes the groups again).
   */
  async function setActive(
    tx: Tx,
    configuration: ScimConfigurationRow,
    identity: ProvisionedUser['identity'],
    active: boolean,
  ) {
    if (active === identity.active) return;
    // Recorded before what follows from it (the default role given back); a refusal rolls it back.
    await recordAuditEvent(tx, configuration.organizationId, {
      action: active ? 'scim_user.activate' : 'scim_user.deactivate',
      actor: scimTokenActor(configuration),
      target: await memberTarget(tx, identity.userId),
      detail: active ? '' : 'memberships and sessions in this organization ended',
    });
    if (active) await giveDefaultRole(tx, configuration, identity.userId);
    else await leaveOrganization(tx, configuration.organizationId, identity.userId);
  }

  /** Applies changes to a provisioned user (PUT and PATCH alike), in the request's transaction. */
  async function apply(
    tx: Tx,
    configuration: ScimConfigurationRow,
    current: ProvisionedUser,
    changes: UserChanges,
  ) {
    const { user, identity } = current;
    const now = new Date();
    const userSet: Partial<typeof users.$inferInsert> = {};
    if (changes.userName !== undefined && changes.userName.toLowerCase() !== user.email.toLowerCase()) {
      // An account the person made and the IdP adopted keeps its address: moving it would let the
      // organization take the account over (a reset mailed to the new address).
      if (!identity.createdByProvisioning) {
        throw new ScimError(
          400,
          'This account was not created by provisioning: its userName (email address) cannot be changed here',
          'mutability',
        );
      }
      // So does one provisioning made that has joined other organizations since: the same takeover would
      // reach them.
      if (await isMemberElsewhere(tx, configuration.organizationId, user.id)) {
        throw new ScimError(
          400,
          'This account belongs to other organizations too: its userName (email address) cannot be changed here',
          'mutability',
        );
      }
      userSet.email = changes.userName;
    } else if (
      changes.userName !== undefined &&
      changes.userName !== user.email &&
      identity.createdByProvisioning
    ) {
      // Only the case changed: keep it as the IdP writes it.
      userSet.email = changes.userName;
    }
    const identitySet: Partial<typeof scimUsers.$inferInsert> = { updatedAt: now };
    if (changes.externalId !== undefined) identitySet.externalId = changes.externalId;
    if (changes.givenName !== undefined) identitySet.givenName = changes.givenName;
    if (changes.familyName !== undefined) identitySet.familyName = changes.familyName;
    const naming =
      changes.givenName !== undefined ||
      changes.familyName !== undefined ||
      changes.formatted !== undefined ||
      changes.displayName !== undefined;
    if (naming) {
      userSet.name = nameOf(
        {
          formatted: changes.formatted,
          givenName: changes.givenName !== undefined ? changes.givenName : identity.givenName,
          familyName: changes.familyName !== undefined ? changes.familyName : identity.familyName,
          displayName: changes.displayName,
        },
        userSet.email ?? user.email,
      );
    }
    if (changes.externalId !== undefined) userSet.externalId = changes.externalId ?? user.id;
    if (changes.active !== undefined) {
      await setActive(tx, configuration, identity, changes.active);
      identitySet.active = changes.active;
    }
    await tx.update(scimUsers).set(identitySet).where(eq(scimUsers.id, identity.id));
    if (Object.keys(userSet).length > 0) {
      try {
        await tx
          .update(users)
          .set({ ...userSet, updatedAt: now })
          .where(eq(users.id, user.id));
      } catch (error) {
        if (isUniqueViolation(error)) throw uniqueness('Another account already has this userName');
        throw error;
      }
    }
  }

  /** One write of the organization's provisioning: its lock held, unique clashes answered as 409. */
  async function write<T>(configuration: ScimConfigurationRow, work: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      return await db.transaction(async (tx) => {
        await lockOrganization(tx, configuration.organizationId);
        return work(tx);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw uniqueness('A user with this userName already exists');
      throw error;
    }
  }

  return {
    /** A page of the tenant's users in id order (a stable order), optionally filtered. */
    async list(
      organizationId: string,
      filter: Filter | null,
      startIndex: number,
      limit: number,
    ): Promise<UserPage> {
      const where: SQL | undefined = filter
        ? and(tenant(organizationId), userFilterCondition(filter))
        : tenant(organizationId);
      const [totalRow] = await db
        .select({ n: count() })
        .from(scimUsers)
        .innerJoin(users, eq(users.id, scimUsers.userId))
        .where(where);
      const rows =
        limit === 0
          ? []
          : await db
              .select({ user: users, identity: scimUsers })
              .from(scimUsers)
              .innerJoin(users, eq(users.id, scimUsers.userId))
              .where(where)
              .orderBy(asc(scimUsers.userId))
              .limit(limit)
              .offset(startIndex - 1);
      const groups = await groupsOf(
        organizationId,
        rows.map((row) => row.user.id),
      );
      return {
        total: totalRow?.n ?? 0,
        rows: rows.map((row) => ({ row, groups: groups.get(row.user.id) ?? [] })),
      };
    },

    async get(organizationId: string, userId: string) {
      return withGroups(organizationId, await provisioned(db, organizationId, userId));
    },

    async create(configuration: ScimConfigurationRow, input: UserChanges & { userName: string }) {
      const { organizationId } = configuration;
      // A password nobody knows: a provisioned account signs in through single sign-on.
      const passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
      const userId = await write(configuration, async (tx) => {
        const [existing] = await tx
          .select()
          .from(users)
          .where(eq(sql`lower(${users.email})`, input.userName.toLowerCase()));
        let identityOwner: { userId: string; createdByProvisioning: boolean };
        if (existing) {
          const [identity] = await tx.select().from(scimUsers).where(eq(scimUsers.userId, existing.id));
          if (identity?.organizationId === organizationId) {
            throw uniqueness('A user with this userName is already provisioned');
          }
          if (identity) throw uniqueness('This user is managed by another organization’s provisioning');
          if (!(await isMember(tx, organizationId, existing.id))) {
            throw uniqueness(
              'A Berth account with this userName exists and is not a member of this organization: invite it to the organization, then provision it again',
            );
          }
          identityOwner = { userId: existing.id, createdByProvisioning: false };
        } else {
          const [created] = await tx
            .insert(users)
            .values({
              name: nameOf(input, input.userName),
              email: input.userName,
              passwordHash,
              // The identity provider vouches for the address.
              verified: true,
            })
            .returning();
          if (!created) throw new Error('User insert returned nothing');
          identityOwner = { userId: created.id, createdByProvisioning: true };
        }
        const [identity] = await tx
          .insert(scimUsers)
          .values({
            organizationId,
            userId: identityOwner.userId,
            externalId: input.externalId ?? null,
            givenName: input.givenName ?? null,
            familyName: input.familyName ?? null,
            createdByProvisioning: identityOwner.createdByProvisioning,
          })
          .returning();
        if (!identity) throw new Error('SCIM user insert returned nothing');
        const [user] = await tx.select().from(users).where(eq(users.id, identityOwner.userId));
        if (!user) throw new Error('The provisioned user is gone');
        await recordAuditEvent(tx, organizationId, {
          action: 'scim_user.create',
          actor: scimTokenActor(configuration),
          target: { type: 'member', id: user.id, name: user.email },
          detail: identityOwner.createdByProvisioning ? 'new account' : 'existing member linked',
        });
        // The name and marker as the IdP says them; a new account is active with the default role.
        await apply(
          tx,
          configuration,
          { user, identity },
          { ...input, externalId: input.externalId ?? null, active: undefined },
        );
        if (input.active === false) {
          await setActive(tx, configuration, identity, false);
          await tx.update(scimUsers).set({ active: false }).where(eq(scimUsers.id, identity.id));
        } else {
          await giveDefaultRole(tx, configuration, identityOwner.userId);
        }
        return identityOwner.userId;
      });
      return withGroups(organizationId, await provisioned(db, organizationId, userId));
    },

    /** PUT and PATCH: the changes applied to the user as they are now. */
    async update(configuration: ScimConfigurationRow, userId: string, changes: UserChanges) {
      const { organizationId } = configuration;
      await write(configuration, async (tx) => {
        const current = await provisioned(tx, organizationId, userId);
        await apply(tx, configuration, current, changes);
      });
      return withGroups(organizationId, await provisioned(db, organizationId, userId));
    },

    /**
     * Deprovisioning: the user leaves the organization (memberships, tokens) and provisioning forgets
     * them. An account provisioning made for this organization alone goes with it; a member's own account,
     * or one that joined other organizations since, stays theirs.
     */
    async remove(configuration: ScimConfigurationRow, userId: string) {
      const { organizationId } = configuration;
      await write(configuration, async (tx) => {
        const { identity } = await provisioned(tx, organizationId, userId);
        // Named before the account may go below.
        const target = await memberTarget(tx, userId);
        await leaveOrganization(tx, organizationId, userId);
        await tx.delete(scimUsers).where(eq(scimUsers.id, identity.id));
        const [elsewhere] = await tx
          .select({ id: memberships.id })
          .from(memberships)
          .where(eq(memberships.userId, userId))
          .limit(1);
        const accountDeleted = identity.createdByProvisioning && !elsewhere;
        if (accountDeleted) {
          await tx.delete(users).where(eq(users.id, userId));
        } else {
          await tx.update(users).set({ externalId: null, updatedAt: new Date() }).where(eq(users.id, userId));
        }
        await recordAuditEvent(tx, organizationId, {
          action: 'scim_user.delete',
          actor: scimTokenActor(configuration),
          target,
          detail: accountDeleted ? 'account deleted' : 'account kept',
        });
      });
    },
  };
}
export type ScimUsersService = ReturnType<typeof createScimUsersService>;

import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { memberTargets, recordAuditEvents, scimTokenActor } from '../api/audit-events/audit-events.repo.ts';
import type { ScimConfigurationRow } from '../auth/scim-configurations/scim-configurations.service.ts';
import { revokeTokenChains } from '../auth/tokens/token.service.ts';
import type { Tx } from '../db/client.ts';
import { memberships, organizations, roles, scimUsers, tokens } from '../db/schema.ts';
import { invalidValue } from './scim-errors.ts';

// What provisioning does to who holds which role, in the transaction of the request that asks it.

/**
 * Takes the organization's row lock: provisioning changes of one organization run one after another, so
 * "is anyone left without a role" and "is an Account Owner left" read what the others wrote.
 */
export async function lockOrganization(tx: Tx, organizationId: string) {
  await tx
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .for('update');
}

const rolesOf = (tx: Tx, organizationId: string) =>
  tx.select({ id: roles.id }).from(roles).where(eq(roles.organizationId, organizationId));

/**
 * An active provisioned user always holds a role in the organization: when a group change (or a group
 * deleted) leaves them none, the configuration's default role is theirs again. Okta and Entra assign a
 * user to the app apart from pushing groups, so someone still assigned is still a member; only
 * deactivation and deletion take them out.
 */
export async function keepSomeRole(tx: Tx, configuration: ScimConfigurationRow, userIds: string[]) {
  if (userIds.length === 0) return;
  const active = await tx
    .select({ userId: scimUsers.userId })
    .from(scimUsers)
    .where(
      and(
        eq(scimUsers.organizationId, configuration.organizationId),
        eq(scimUsers.active, true),
        inArray(scimUsers.userId, userIds),
      ),
    );
  if (active.length === 0) return;
  const holding = await tx
    .selectDistinct({ userId: memberships.userId })
    .from(memberships)
    .where(
      and(
        inArray(
          memberships.userId,
          active.map((row) => row.userId),
        ),
        inArray(memberships.roleId, rolesOf(tx, configuration.organizationId)),
      ),
    );
  const held = new Set(holding.map((row) => row.userId));
  const without = active.filter((row) => !held.has(row.userId));
  if (without.length === 0) return;
  const added = await tx
    .insert(memberships)
    .values(without.map((row) => ({ userId: row.userId, roleId: configuration.defaultRoleId })))
    .onConflictDoNothing()
    .returning({ userId: memberships.userId });
  await recordDefaultRoleGiven(tx, configuration, added, 'default role: no other role left');
}

/** The default role, given to a user provisioned (or provisioned again) as active. */
export async function giveDefaultRole(tx: Tx, configuration: ScimConfigurationRow, userId: string) {
  const added = await tx
    .insert(memberships)
    .values({ userId, roleId: configuration.defaultRoleId })
    .onConflictDoNothing()
    .returning({ userId: memberships.userId });
  await recordDefaultRoleGiven(tx, configuration, added, 'default role');
}

/** The default role given to these users: recorded only when given to someone (and only then read). */
async function recordDefaultRoleGiven(
  tx: Tx,
  configuration: ScimConfigurationRow,
  added: { userId: string }[],
  detail: string,
) {
  if (added.length === 0) return;
  const [role] = await tx
    .select({ id: roles.id, name: roles.name })
    .from(roles)
    .where(eq(roles.id, configuration.defaultRoleId));
  await recordMembershipChanges(
    tx,
    configuration,
    'membership.create',
    role ?? { id: configuration.defaultRoleId, name: '' },
    added,
    detail,
  );
}

/**
 * Memberships provisioning made or ended, one audit event each, by the organization's SCIM token
 * (issue 41), in the transaction that changed them. Only rows the change touched are passed.
 */
export async function recordMembershipChanges(
  tx: Tx,
  configuration: ScimConfigurationRow,
  action: 'membership.create' | 'membership.delete',
  role: { id: string; name: string },
  changed: { userId: string }[],
  detail = '',
) {
  if (changed.length === 0) return;
  const targets = await memberTargets(
    tx,
    changed.map((change) => change.userId),
  );
  const actor = scimTokenActor(configuration);
  await recordAuditEvents(
    tx,
    configuration.organizationId,
    targets.map((target) => ({
      action,
      actor,
      target,
      parent: { type: 'role', id: role.id, name: role.name },
      detail,
    })),
  );
}

/**
 * Deactivation and deletion: the user's memberships in this organization (and only this one) end at
 * once, and so do their tokens: every token and session of theirs when no other organization holds them,
 * else only the organization (SSO) tokens of this one. Memberships are read on every request, so their
 * other tokens reach nothing here any more, and one organization's directory cannot sign a person out of
 * another organization at will. Refused when the organization would be left without an Account Owner (a
 * linked owner deactivated by mistake must not orphan it).
 */
export async function leaveOrganization(tx: Tx, organizationId: string, userId: string) {
  await tx
    .delete(memberships)
    .where(and(eq(memberships.userId, userId), inArray(memberships.roleId, rolesOf(tx, organizationId))));
  const [owners] = await tx
    .select({ n: count() })
    .from(memberships)
    .innerJoin(roles, eq(memberships.roleId, roles.id))
    .where(and(eq(roles.organizationId, organizationId), eq(roles.type, 'owner')));
  if ((owners?.n ?? 0) === 0) {
    throw invalidValue(
      'This user is the organization’s last Account Owner: make someone else an owner first',
    );
  }
  const [elsewhere] = await tx.select({ n: count() }).from(memberships).where(eq(memberships.userId, userId));
  if ((elsewhere?.n ?? 0) === 0) await revokeTokenChains(tx, sql`${tokens.userId} = ${userId}`);
  else {
    await revokeTokenChains(
      tx,
      sql`${tokens.userId} = ${userId} and ${tokens.ssoOrganizationId} = ${organizationId}`,
    );
  }
}

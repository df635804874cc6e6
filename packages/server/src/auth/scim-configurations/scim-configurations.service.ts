import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  type CreateScimConfigurationInput,
  type GenerateScimTokenInput,
  lastUrlSegment,
  provisioningDenial,
  type RoleType,
  scimConfigurationMessages,
  type UpdateScimConfigurationInput,
} from '@berth/core';
import { and, eq, inArray } from 'drizzle-orm';
import { recordAuditEvent } from '../../api/audit-events/audit-events.repo.ts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { roles, scimConfigurations } from '../../db/schema.ts';
import { forbidden, notFound, unprocessable } from '../../http/errors.ts';
import { isUuid } from '../../http/ids.ts';
import { membershipsOf, organizationIdsOf } from '../access.ts';
import type { UserRow } from '../tokens/token.service.ts';

export type ScimConfigurationRow = typeof scimConfigurations.$inferSelect;

/** Tokens start with a prefix secret scanners can spot; the rest is 256 random bits. */
const TOKEN_PREFIX = 'berth_scim_';
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** contract §1.9: a bare id, or a URL ending in one. */
const idOf = (reference: string) => lastUrlSegment(reference.trim());

/**
 * Provisioning's configuration and its bearer token (spec 1 §3, §6, §7; contract §5.4). Only an Account
 * Owner who belongs to this one organization sets it up (spec 1 §6); anyone else of the organization is
 * refused with the reason, and someone outside it gets 404.
 */
export function createScimConfigurationsService(deps: { db: Db }) {
  const { db } = deps;

  /** The caller's role types in the organization and how many organizations they belong to; 404 outside it. */
  async function callerIn(user: UserRow, organizationId: string) {
    const mine = await membershipsOf(db, user.id);
    const here = mine.filter((m) => m.organizationId === organizationId);
    if (!isUuid(organizationId) || here.length === 0) throw notFound('Organization');
    return { roleTypes: here.map((m) => m.roleType), organizationCount: organizationIdsOf(mine).length };
  }

  /** 403 with spec 1 §6's reason unless the caller may set up provisioning of the organization. */
  async function assertMayProvision(user: UserRow, organizationId: string) {
    const { roleTypes, organizationCount } = await callerIn(user, organizationId);
    const denied = provisioningDenial({ roleTypes }, organizationCount);
    if (denied !== null) throw forbidden(denied);
  }

  async function configurationFor(user: UserRow, id: string): Promise<ScimConfigurationRow> {
    const [row] = isUuid(id)
      ? await db.select().from(scimConfigurations).where(eq(scimConfigurations.id, id))
      : [];
    // A configuration of an organization the caller is not in is not there for them.
    if (!row) throw notFound('SCIM configuration');
    await assertMayProvision(user, row.organizationId);
    return row;
  }

  /** The default role: a role of the organization that provisioning does not manage, not the owners' (spec 1 §5). */
  async function defaultRole(organizationId: string, reference: string): Promise<string> {
    const roleId = idOf(reference);
    const [role] = isUuid(roleId)
      ? await db
          .select()
          .from(roles)
          .where(and(eq(roles.id, roleId), eq(roles.organizationId, organizationId)))
      : [];
    if (!role) {
      throw unprocessable(scimConfigurationMessages.defaultRoleRequired, {
        default_role_id: [scimConfigurationMessages.defaultRoleRequired],
      });
    }
    if (role.scimCreated) {
      throw unprocessable(scimConfigurationMessages.defaultRoleManaged, {
        default_role_id: [scimConfigurationMessages.defaultRoleManaged],
      });
    }
    if (role.type === ('owner' satisfies RoleType)) {
      throw unprocessable(scimConfigurationMessages.defaultRoleOwner, {
        default_role_id: [scimConfigurationMessages.defaultRoleOwner],
      });
    }
    return role.id;
  }

  return {
    /**
     * contract §8.1: the list carries no organization; the console shows its first item. It holds the
     * configurations of the organizations where the caller is an Account Owner, the selected one first.
     */
    async list(user: UserRow): Promise<ScimConfigurationRow[]> {
      const owned = organizationIdsOf(
        (await membershipsOf(db, user.id)).filter((m) => m.roleType === ('owner' satisfies RoleType)),
      );
      if (owned.length === 0) return [];
      const rows = await db
        .select()
        .from(scimConfigurations)
        .where(inArray(scimConfigurations.organizationId, owned))
        .orderBy(scimConfigurations.createdAt);
      const selected = user.selectedOrganizationId;
      return [
        ...rows.filter((row) => row.organizationId === selected),
        ...rows.filter((row) => row.organizationId !== selected),
      ];
    },

    configurationFor,

    async create(user: UserRow, input: CreateScimConfigurationInput): Promise<ScimConfigurationRow> {
      const organizationId = idOf(input.scim_configuration.organization_id);
      await assertMayProvision(user, organizationId);
      const defaultRoleId = await defaultRole(organizationId, input.scim_configuration.default_role_id);
      try {
        return await db.transaction(async (tx) => {
          const [row] = await tx
            .insert(scimConfigurations)
            .values({ organizationId, defaultRoleId })
            .returning();
          if (!row) throw new Error('SCIM configuration insert returned nothing');
          await recordAuditEvent(tx, organizationId, {
            action: 'scim_configuration.create',
            actor: user,
            target: { type: 'scim_configuration', id: row.id, name: '' },
          });
          return row;
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw unprocessable(scimConfigurationMessages.alreadyConfigured);
        throw error;
      }
    },

    async update(user: UserRow, id: string, input: UpdateScimConfigurationInput) {
      const row = await configurationFor(user, id);
      const given = input.scim_configuration.organization_id;
      // The configuration stays with its organization: naming another one is a mistake, not a move.
      if (given !== undefined && idOf(given) !== row.organizationId) throw notFound('SCIM configuration');
      const defaultRoleId = await defaultRole(row.organizationId, input.scim_configuration.default_role_id);
      return db.transaction(async (tx) => {
        const [updated] = await tx
          .update(scimConfigurations)
          .set({ defaultRoleId, updatedAt: new Date() })
          .where(eq(scimConfigurations.id, row.id))
          .returning();
        if (defaultRoleId !== row.defaultRoleId) {
          await recordAuditEvent(tx, row.organizationId, {
            action: 'scim_configuration.update',
            actor: user,
            target: { type: 'scim_configuration', id: row.id, name: '' },
            detail: 'default role',
          });
        }
        return updated ?? row;
      });
    },

    /** Provisioning stops at once (its token goes with it); what it provisioned stays. */
    async remove(user: UserRow, id: string): Promise<void> {
      const row = await configurationFor(user, id);
      await db.transaction(async (tx) => {
        const removed = await tx
          .delete(scimConfigurations)
          .where(eq(scimConfigurations.id, row.id))
          .returning({ id: scimConfigurations.id });
        // Removed at the same moment by another request: that one records it.
        if (removed.length === 0) return;
        await recordAuditEvent(tx, row.organizationId, {
          action: 'scim_configuration.delete',
          actor: user,
          target: { type: 'scim_configuration', id: row.id, name: '' },
        });
      });
    },

    /** A new token, shown this once; the previous one stops working as the hash is replaced. */
    async generateToken(user: UserRow, input: GenerateScimTokenInput): Promise<string> {
      const row = await configurationFor(user, idOf(input.scim_configuration_id));
      if (idOf(input.user_id) !== user.id) {
        throw unprocessable(scimConfigurationMessages.ownUserOnly, {
          user_id: [scimConfigurationMessages.ownUserOnly],
        });
      }
      const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
      await db.transaction(async (tx) => {
        const tokenId = randomUUID();
        await tx
          .update(scimConfigurations)
          .set({
            tokenId,
            tokenHash: sha256(token),
            tokenCreatedAt: new Date(),
            tokenCreatedBy: user.id,
            updatedAt: new Date(),
          })
          .where(eq(scimConfigurations.id, row.id));
        // The token itself never leaves this answer; the event names its id only.
        await recordAuditEvent(tx, row.organizationId, {
          action: 'scim_token.create',
          actor: user,
          target: { type: 'scim_token', id: tokenId, name: '' },
          parent: { type: 'scim_configuration', id: row.id, name: 'SCIM provisioning' },
          detail: row.tokenHash ? 'replaces the previous token' : '',
        });
      });
      return token;
    },

    /**
     * The configuration a SCIM bearer token belongs to, or null. Looked up by its hash (a unique index):
     * the secret itself is never stored nor compared.
     */
    async authenticate(bearer: string): Promise<ScimConfigurationRow | null> {
      if (!bearer.startsWith(TOKEN_PREFIX) || bearer.length > 200) return null;
      const [row] = await db
        .select()
        .from(scimConfigurations)
        .where(eq(scimConfigurations.tokenHash, sha256(bearer)));
      return row ?? null;
    },
  };
}
export type ScimConfigurationsService = ReturnType<typeof createScimConfigurationsService>;

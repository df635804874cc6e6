import {
  actionDenial,
  type SamlConfigurationCreateInput,
  type SamlConfigurationUpdateInput,
  ssoMessages,
} from '@berth/core';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { recordAuditEvent } from '../../api/audit-events/audit-events.repo.ts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { organizations, roles, samlConfigurations, users } from '../../db/schema.ts';
import { ApiError, forbidden, notFound, unprocessable } from '../../http/errors.ts';
import { isUuid } from '../../http/ids.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import { organizationIdsOf } from '../access.ts';
import { assertUsable, type CallerAccess } from '../caller-access.ts';
import {
  decodeMetadata,
  fetchMetadata,
  type IdpMetadata,
  type MetadataFetchOptions,
  readIdpMetadata,
} from './idp-metadata.ts';
import { generateSpKeyPair } from './sp-keys.ts';

export type SamlConfigurationRow = typeof samlConfigurations.$inferSelect;

const handleTaken = () => unprocessable(ssoMessages.handleTaken, { handle: [ssoMessages.handleTaken] });

/**
 * The SAML configurations of organizations (contract §5.4): made, changed and removed by the Account
 * Owner only (spec 1 §6), from IdP metadata given as XML or fetched from a URL through the outbound guard.
 */
export function createSamlConfigurationsService(deps: {
  db: Db;
  /** Seals each organization's SP private key. */
  box: SecretBox;
  metadataFetch: MetadataFetchOptions;
}) {
  const { db, box } = deps;

  /**
   * The organization the caller belongs to (else 404; one this token may not use, SSO, is 403), once they
   * are its Account Owner (else 403).
   */
  async function ownedOrganization(caller: CallerAccess, organizationId: string) {
    if (!isUuid(organizationId)) throw notFound('Organization');
    assertUsable(caller, organizationId);
    const mine = caller.memberships.filter((m) => m.organizationId === organizationId);
    if (mine.length === 0) throw notFound('Organization');
    const denial = actionDenial({ roleTypes: mine.map((m) => m.roleType), permissions: [] }, 'sso.configure');
    if (denial) throw forbidden(denial);
    const [organization] = await db.select().from(organizations).where(eq(organizations.id, organizationId));
    if (!organization) throw notFound('Organization');
    return organization;
  }

  /** A configuration of an organization the caller belongs to (else 404), once they own it (else 403). */
  async function ownedConfiguration(caller: CallerAccess, id: string) {
    const [row] = isUuid(id)
      ? await db.select().from(samlConfigurations).where(eq(samlConfigurations.id, id))
      : [];
    const belongs =
      !!row &&
      (caller.reauthentication.has(row.organizationId) ||
        caller.memberships.some((m) => m.organizationId === row.organizationId));
    if (!row || !belongs) throw notFound('SAML configuration');
    const organization = await ownedOrganization(caller, row.organizationId);
    return { row, organization };
  }

  /** The metadata of the body: its XML, or what its URL answers (https only, through the guard). */
  async function metadataOf(body: {
    metadata?: string | null;
    metadata_url?: string | null;
  }): Promise<{ idp: IdpMetadata; metadataUrl: string | null }> {
    if (body.metadata) return { idp: readIdpMetadata(decodeMetadata(body.metadata)), metadataUrl: null };
    if (body.metadata_url) {
      const xml = await fetchMetadata(body.metadata_url, deps.metadataFetch);
      return { idp: readIdpMetadata(xml), metadataUrl: body.metadata_url };
    }
    throw unprocessable(ssoMessages.metadataRequired, { metadata: [ssoMessages.metadataRequired] });
  }

  /** The default role of just-in-time provisioning: a role of this organization, or none. */
  async function defaultRoleOf(organizationId: string, roleId: string | null | undefined) {
    if (!roleId) return null;
    const [role] = isUuid(roleId)
      ? await db
          .select({ id: roles.id })
          .from(roles)
          .where(and(eq(roles.id, roleId), eq(roles.organizationId, organizationId)))
      : [];
    if (!role)
      throw unprocessable(ssoMessages.defaultRoleNotFound, {
        default_role_id: [ssoMessages.defaultRoleNotFound],
      });
    return role.id;
  }

  function requireDefaultRole(jitEnabled: boolean, defaultRoleId: string | null) {
    if (jitEnabled && !defaultRoleId) {
      throw unprocessable(ssoMessages.defaultRoleRequired, {
        default_role_id: [ssoMessages.defaultRoleRequired],
      });
    }
  }

  const idpColumns = (idp: IdpMetadata, metadataUrl: string | null) => ({
    entityId: idp.entityId,
    signInUrl: idp.signInUrl,
    signOutUrl: idp.signOutUrl,
    nameFormat: idp.nameFormat,
    certificate: idp.certificate,
    metadataUrl,
  });

  return {
    /**
     * Contract §8.1: no organization in the path. The configurations of the organizations the caller owns,
     * the selected organization's first (the console shows item 0 for the selected organization).
     */
    async list(caller: CallerAccess): Promise<SamlConfigurationRow[]> {
      const owned = organizationIdsOf(
        caller.memberships.filter(
          (m) => actionDenial({ roleTypes: [m.roleType], permissions: [] }, 'sso.configure') === null,
        ),
      );
      if (owned.length === 0) return [];
      const rows = await db
        .select()
        .from(samlConfigurations)
        .where(inArray(samlConfigurations.organizationId, owned))
        .orderBy(samlConfigurations.createdAt);
      const [me] = await db
        .select({ selected: users.selectedOrganizationId })
        .from(users)
        .where(eq(users.id, caller.user.id));
      const selected = me?.selected;
      return [
        ...rows.filter((row) => row.organizationId === selected),
        ...rows.filter((row) => row.organizationId !== selected),
      ];
    },

    /** `readBody` checks the body once the caller may act here (a stranger learns nothing from a 422). */
    async create(caller: CallerAccess, organizationId: string, readBody: () => SamlConfigurationCreateInput) {
      const organization = await ownedOrganization(caller, organizationId);
      const body = readBody();
      const [existing] = await db
        .select({ id: samlConfigurations.id })
        .from(samlConfigurations)
        .where(eq(samlConfigurations.organizationId, organization.id));
      if (existing) throw unprocessable(ssoMessages.alreadyConfigured);
      const { idp, metadataUrl } = await metadataOf(body);
      const defaultRoleId = await defaultRoleOf(organization.id, body.default_role_id);
      const jitEnabled = body.jit_enabled ?? false;
      requireDefaultRole(jitEnabled, defaultRoleId);
      const sp = await generateSpKeyPair(organization.id);
      try {
        return await db.transaction(async (tx) => {
          const [row] = await tx
            .insert(samlConfigurations)
            .values({
              organizationId: organization.id,
              ...idpColumns(idp, metadataUrl),
              handle: body.handle || null,
              jitEnabled,
              defaultRoleId,
              spCertificate: sp.certificate,
              spPrivateKeySealed: box.seal(sp.privateKey),
            })
            .returning();
          if (!row) throw new Error('SAML configuration insert returned nothing');
          await recordAuditEvent(tx, organization.id, {
            action: 'saml_configuration.create',
            actor: caller.user,
            target: { type: 'saml_configuration', id: row.id, name: row.handle ?? '' },
            detail: row.entityId,
          });
          return row;
        });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        // Two at once: one organization has one configuration; else the handle is someone else's.
        const [raced] = await db
          .select({ id: samlConfigurations.id })
          .from(samlConfigurations)
          .where(eq(samlConfigurations.organizationId, organization.id));
        throw raced ? unprocessable(ssoMessages.alreadyConfigured) : handleTaken();
      }
    },

    async update(caller: CallerAccess, id: string, readBody: () => SamlConfigurationUpdateInput) {
      const { row } = await ownedConfiguration(caller, id);
      const body = readBody();
      const changesMetadata = !!body.metadata || !!body.metadata_url;
      const idp = changesMetadata ? await metadataOf(body) : null;
      const defaultRoleId =
        body.default_role_id !== undefined
          ? await defaultRoleOf(row.organizationId, body.default_role_id)
          : row.defaultRoleId;
      const jitEnabled = body.jit_enabled ?? row.jitEnabled;
      requireDefaultRole(jitEnabled, defaultRoleId);
      try {
        return await db.transaction(async (tx) => {
          const [updated] = await tx
            .update(samlConfigurations)
            .set({
              ...(idp ? idpColumns(idp.idp, idp.metadataUrl) : {}),
              ...(body.handle !== undefined ? { handle: body.handle || null } : {}),
              jitEnabled,
              defaultRoleId,
              updatedAt: new Date(),
            })
            .where(eq(samlConfigurations.id, row.id))
            .returning();
          await recordAuditEvent(tx, row.organizationId, {
            action: 'saml_configuration.update',
            actor: caller.user,
            target: { type: 'saml_configuration', id: row.id, name: (updated ?? row).handle ?? '' },
            detail: [
              changesMetadata ? 'identity provider metadata' : '',
              body.handle !== undefined ? 'handle' : '',
              body.jit_enabled !== undefined ? `just-in-time sign-up ${jitEnabled ? 'on' : 'off'}` : '',
              body.default_role_id !== undefined ? 'default role' : '',
            ]
              .filter(Boolean)
              .join(', '),
          });
          return updated ?? row;
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw handleTaken();
        throw error;
      }
    },

    /** spec 1 §4: removal is allowed only while SSO is not enforced (the spec's message otherwise). */
    async remove(caller: CallerAccess, id: string): Promise<void> {
      const { row } = await ownedConfiguration(caller, id);
      await db.transaction(async (tx) => {
        // The organization's row is locked, so enforcement cannot be turned on while this one goes.
        const [organization] = await tx
          .select({ ssoEnforced: organizations.ssoEnforced })
          .from(organizations)
          .where(eq(organizations.id, row.organizationId))
          .for('update');
        if (organization?.ssoEnforced) {
          throw new ApiError(422, 'unprocessable_entity', ssoMessages.enforcedRemoval);
        }
        await tx.delete(samlConfigurations).where(eq(samlConfigurations.id, row.id));
        await recordAuditEvent(tx, row.organizationId, {
          action: 'saml_configuration.delete',
          actor: caller.user,
          target: { type: 'saml_configuration', id: row.id, name: row.handle ?? '' },
        });
      });
    },

    /**
     * The configuration a browser's login names: an organization id first, else a handle (contract §8.22),
     * without regard to case. Null when there is none.
     */
    async byIdOrHandle(idOrHandle: string): Promise<SamlConfigurationRow | null> {
      if (isUuid(idOrHandle)) {
        const [byId] = await db
          .select()
          .from(samlConfigurations)
          .where(eq(samlConfigurations.organizationId, idOrHandle));
        if (byId) return byId;
      }
      const [byHandle] = await db
        .select()
        .from(samlConfigurations)
        .where(sql`lower(${samlConfigurations.handle}) = ${idOrHandle.toLowerCase()}`);
      return byHandle ?? null;
    },

    /** The organization's SP private key (PEM), opened from its seal. */
    spPrivateKey(row: SamlConfigurationRow): string {
      return box.open(row.spPrivateKeySealed);
    },
  };
}
export type SamlConfigurationsService = ReturnType<typeof createSamlConfigurationsService>;

import { actionDenial, ssoEnforcementMessages, whitelistMembershipCreateInput } from '@berth/core';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { memberships, organizations, roles, whitelistMemberships } from '../../db/schema.ts';
import { ApiError, forbidden, notFound, parseBody, unprocessable } from '../../http/errors.ts';
import { isUuid } from '../../http/ids.ts';
import { accessOf, assertUsable, type CallerRef } from '../caller-access.ts';
import type { WhitelistMembershipRow } from './whitelist-memberships.hal.ts';

/**
 * The SSO bypass list of an organization (spec 1 §6, contract §5.4 whitelist memberships): its members
 * who keep using password sessions while it enforces SSO. Like the rest of Single Sign-On, the Account
 * Owner's alone; Account Owners are exempt already and cannot be put on it.
 */
export function createWhitelistMemberships(deps: { db: Db }) {
  const { db } = deps;

  /** 404 unless the caller belongs to the organization (403 when SSO stops this token), 403 unless they own it. */
  async function asAccountOwner(ref: CallerRef, organizationId: string): Promise<void> {
    const caller = await accessOf(db, ref);
    if (isUuid(organizationId)) assertUsable(caller, organizationId);
    const actor = caller.actors.get(organizationId);
    if (!actor) throw notFound('Organization');
    const denial = actionDenial(actor, 'sso.configure');
    if (denial !== null) throw forbidden(denial);
  }

  return {
    async list(ref: CallerRef, organizationId: string): Promise<WhitelistMembershipRow[]> {
      await asAccountOwner(ref, organizationId);
      return db
        .select()
        .from(whitelistMemberships)
        .where(eq(whitelistMemberships.organizationId, organizationId))
        .orderBy(whitelistMemberships.createdAt, whitelistMemberships.id);
    },

    /** Adds a member; the body is read once the caller may (so others get 404 or 403 whatever they send). */
    async add(ref: CallerRef, organizationId: string, body: unknown): Promise<WhitelistMembershipRow> {
      await asAccountOwner(ref, organizationId);
      const { user_id: userId } = parseBody(whitelistMembershipCreateInput, body);
      return db.transaction(async (tx) => {
        // Member removals lock the organization's row too: nobody leaves between this check and the insert.
        await tx
          .select({ id: organizations.id })
          .from(organizations)
          .where(eq(organizations.id, organizationId))
          .for('update');
        const theirs = isUuid(userId)
          ? await tx
              .select({ type: roles.type })
              .from(memberships)
              .innerJoin(roles, eq(memberships.roleId, roles.id))
              .where(and(eq(memberships.userId, userId), eq(roles.organizationId, organizationId)))
          : [];
        if (theirs.length === 0) throw unprocessable(ssoEnforcementMessages.bypassNotMember);
        if (theirs.some((m) => m.type === 'owner')) throw unprocessable(ssoEnforcementMessages.bypassOwner);
        try {
          const [row] = await tx.insert(whitelistMemberships).values({ organizationId, userId }).returning();
          if (!row) throw new Error('Whitelist membership insert returned nothing');
          return row;
        } catch (error) {
          if (isUniqueViolation(error)) throw unprocessable(ssoEnforcementMessages.bypassDuplicate);
          throw error;
        }
      });
    },

    async remove(ref: CallerRef, id: string): Promise<void> {
      const [row] = isUuid(id)
        ? await db.select().from(whitelistMemberships).where(eq(whitelistMemberships.id, id))
        : [];
      if (!row) throw notFound('Whitelist membership');
      // Someone outside the organization learns nothing of its list: 404 as for an absent entry.
      await asAccountOwner(ref, row.organizationId).catch((error: unknown) => {
        throw error instanceof ApiError && error.status === 404 ? notFound('Whitelist membership') : error;
      });
      await db.delete(whitelistMemberships).where(eq(whitelistMemberships.id, row.id));
    },
  };
}
export type WhitelistMembershipsService = ReturnType<typeof createWhitelistMemberships>;

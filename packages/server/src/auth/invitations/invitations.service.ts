import { createHash, randomBytes } from 'node:crypto';
import {
  type CreateInvitationInput,
  canManageRoleMembers,
  invitationMatchesEmail,
  invitationMessages,
  isOwner,
  permissionMessages,
  type RoleType,
  scimMessages,
} from '@berth/core';
import { and, desc, eq, gt, type SQL, sql } from 'drizzle-orm';
import { recordAuditEvent } from '../../api/audit-events/audit-events.repo.ts';
import type { Config, FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { invitations, memberships, organizations, roles, users } from '../../db/schema.ts';
import { ApiError, forbidden, notFound, unprocessable } from '../../http/errors.ts';
import { isUuid } from '../../http/ids.ts';
import { invitationMail, type Mailer } from '../../mail/mailer.ts';
import { accessOf, assertUsable } from '../caller-access.ts';
import { recordPrivilegedChange } from '../privileged-activity.ts';
import { isProvisionedIn } from '../provisioned-users.ts';
import type { RoleAccessService } from '../roles/role-access.ts';
import { type Caller, sameSecret } from '../tokens/token.service.ts';
import { type InvitationRow, toInvitationHal } from './invitations.hal.ts';

const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');

// Contract §1.2: the console shows this on a 404 of GET /invitations/:id; the spec's text, from core.
const invitationNotFound = () => new ApiError(404, 'not_found', invitationMessages.notFound);

/** Too many wrong codes were tried for the invitation's link: it is dead until the invitation is resent. */
export const invitationLocked = () =>
  new ApiError(
    422,
    'invitation_locked',
    'This invitation link was tried too many times with a wrong code. Ask for the invitation to be sent again.',
  );

/**
 * Invitations (contract §5.3, §3.9): an owner or role admin invites an address into one role; the mailed
 * link carries a single code, stored hashed, that proves the address. Accepting makes the membership
 * and deletes the invitation in one transaction, so an invitation is used at most once.
 */
export function createInvitationsService(deps: {
  db: Db;
  mailer: Mailer;
  urls: FamilyUrls;
  ttlSeconds: Config['invitationTtlSeconds'];
  /** Wrong codes an invitation's link survives; the next attempt finds it dead (a resend revives it). */
  maxFailures: Config['verificationRateLimit']['perCode'];
  roleAccess: RoleAccessService;
  /** A failed delivery: the mail stays in the outbox with its error, and a resend tries again. */
  onMailError: (error: unknown) => void;
}) {
  const { db, mailer, urls, ttlSeconds, roleAccess } = deps;

  /** The invitation with the names shown beside it (organization, role). */
  async function withContext(where: SQL) {
    return db
      .select({
        invitation: invitations,
        organizationId: organizations.id,
        organizationName: organizations.name,
        roleName: roles.name,
        roleType: roles.type,
        roleScimCreated: roles.scimCreated,
      })
      .from(invitations)
      .innerJoin(roles, eq(invitations.roleId, roles.id))
      .innerJoin(organizations, eq(roles.organizationId, organizations.id))
      .where(where)
      .orderBy(desc(invitations.createdAt));
  }

  async function find(id: string) {
    if (!isUuid(id)) throw invitationNotFound();
    const [row] = await withContext(eq(invitations.id, id));
    if (!row) throw invitationNotFound();
    return row;
  }

  const hal = (row: Awaited<ReturnType<typeof find>>) => toInvitationHal(row.invitation, row, urls);

  /** A fresh code for the invitation (replacing any earlier one), mailed as the claim link. */
  async function sendCode(row: Awaited<ReturnType<typeof find>>): Promise<InvitationRow> {
    const code = randomBytes(24).toString('base64url');
    const now = new Date();
    const [updated] = await db
      .update(invitations)
      .set({
        codeHash: hashCode(code),
        codeExpiresAt: new Date(now.getTime() + ttlSeconds * 1000),
        failedAttempts: 0,
        updatedAt: now,
      })
      .where(eq(invitations.id, row.invitation.id))
      .returning();
    if (!updated) throw invitationNotFound();
    // The invitation stands once its code is set; a delivery failure must not turn that into an error.
    await mailer
      .send(
        invitationMail(
          updated.email,
          {
            inviterName: updated.inviterName,
            organizationName: row.organizationName,
            roleName: row.roleName,
            validForDays: Math.max(1, Math.round(ttlSeconds / 86400)),
          },
          `${urls.app}/claim/${updated.id}/${code}`,
        ),
      )
      .catch(deps.onMailError);
    return updated;
  }

  /** The caller joins the invitation's role; their address is proven by the code or by their verified account. */
  async function accept(caller: Caller, row: Awaited<ReturnType<typeof find>>) {
    const { invitation } = row;
    if (!invitationMatchesEmail(invitation.email, caller.user.email)) {
      throw unprocessable(invitationMessages.mismatch(invitation.email, caller.user.email));
    }
    if (invitation.codeExpiresAt.getTime() <= Date.now()) {
      throw unprocessable(invitationMessages.expired(row.organizationName, invitation.inviterName));
    }
    // spec 1 §6: provisioned users join provisioned roles through the identity provider only.
    if (row.roleScimCreated && (await isProvisionedIn(db, row.organizationId, caller.user.id))) {
      throw unprocessable(scimMessages.cannotAdd);
    }
    await db.transaction(async (tx) => {
      const deleted = await tx
        .delete(invitations)
        .where(eq(invitations.id, invitation.id))
        .returning({ id: invitations.id });
      if (deleted.length === 0) throw invitationNotFound(); // accepted or revoked meanwhile
      const joined = await tx
        .insert(memberships)
        .values({ userId: caller.user.id, roleId: invitation.roleId })
        .onConflictDoNothing()
        .returning({ id: memberships.id });
      // The role was given by whoever invited them, as if they had added the member themselves.
      if (joined.length > 0) {
        await recordPrivilegedChange(tx, row.organizationId, {
          kind: 'role_member_added',
          actor: { id: invitation.inviterId, name: invitation.inviterName, email: '' },
          subjectId: caller.user.id,
          detail: row.roleName,
          roleType: row.roleType,
        });
      }
      await recordAuditEvent(tx, row.organizationId, {
        action: 'invitation.accept',
        actor: caller.user,
        target: { type: 'invitation', id: invitation.id, name: invitation.email },
        parent: { type: 'role', id: invitation.roleId, name: row.roleName },
      });
      // The invitation reached this address, which proves it as a verification mail would.
      await tx
        .update(users)
        .set({ verified: true, updatedAt: new Date() })
        .where(eq(users.id, caller.user.id));
    });
  }

  return {
    async invite(caller: Caller, roleId: string, input: CreateInvitationInput) {
      const { role } = await roleAccess.forMemberManagement(caller, roleId);
      const email = input.email.trim().toLowerCase();
      const [holder] = await db
        .select({ id: memberships.id })
        .from(memberships)
        .innerJoin(users, eq(memberships.userId, users.id))
        .where(and(eq(memberships.roleId, role.id), sql`lower(${users.email}) = ${email}`));
      if (holder) throw unprocessable(`${email} already holds the ${role.name} role`);
      // Inviting the same address to the same role again refreshes the pending invitation.
      const saved = await db.transaction(async (tx) => {
        const [made] = await tx
          .insert(invitations)
          .values({
            roleId: role.id,
            email,
            inviterId: caller.user.id,
            inviterName: caller.user.name,
            codeHash: '',
            codeExpiresAt: new Date(),
          })
          .onConflictDoUpdate({
            target: [invitations.roleId, invitations.email],
            set: { inviterId: caller.user.id, inviterName: caller.user.name, createdAt: new Date() },
          })
          .returning();
        if (made) {
          await recordAuditEvent(tx, role.organizationId, {
            action: 'invitation.create',
            actor: caller.user,
            target: { type: 'invitation', id: made.id, name: email },
            parent: { type: 'role', id: role.id, name: role.name },
          });
        }
        return made;
      });
      if (!saved) throw new Error('Invitation insert returned nothing');
      const row = await find(saved.id);
      return hal({ ...row, invitation: await sendCode(row) });
    },

    /**
     * Pending invitations of an organization. They name people from outside it, so only those who may
     * invite see them: owners all, a role's admins those of their roles (core canManageRoleMembers).
     */
    async list(caller: Caller, organizationId: string) {
      const access = await accessOf(db, caller);
      if (isUuid(organizationId)) assertUsable(access, organizationId);
      const mine = access.memberships.filter((m) => m.organizationId === organizationId);
      if (mine.length === 0) throw notFound('Organization');
      const actor = { roleTypes: mine.map((m) => m.roleType) };
      const adminOf = new Set(mine.filter((m) => m.privileged).map((m) => m.roleId));
      if (!isOwner(actor) && adminOf.size === 0) throw forbidden(permissionMessages.roleManagement);
      const rows = await withContext(eq(roles.organizationId, organizationId));
      return rows
        .filter((row) =>
          canManageRoleMembers(actor, row.roleType as RoleType, adminOf.has(row.invitation.roleId)),
        )
        .map(hal);
    },

    /** Display fields only: the claim page shows them before anyone signs in (contract note 23). */
    async show(id: string) {
      return hal(await find(id));
    },

    async revoke(caller: Caller, id: string) {
      const row = await find(id);
      await roleAccess.forMemberManagement(caller, row.invitation.roleId).catch(rethrowHidden);
      await db.transaction(async (tx) => {
        const gone = await tx
          .delete(invitations)
          .where(eq(invitations.id, row.invitation.id))
          .returning({ id: invitations.id });
        if (gone.length === 0) return;
        await recordAuditEvent(tx, row.organizationId, {
          action: 'invitation.revoke',
          actor: caller.user,
          target: { type: 'invitation', id: row.invitation.id, name: row.invitation.email },
          parent: { type: 'role', id: row.invitation.roleId, name: row.roleName },
        });
      });
    },

    async resend(caller: Caller, id: string) {
      const row = await find(id);
      await roleAccess.forMemberManagement(caller, row.invitation.roleId).catch(rethrowHidden);
      await sendCode(row);
    },

    async acceptWithCode(caller: Caller, id: string, code: string) {
      const row = await find(id);
      // The row stays locked while the code is checked, so parallel guesses are counted one by one.
      const outcome = await db.transaction(async (tx) => {
        const [current] = await tx
          .select({ codeHash: invitations.codeHash, failedAttempts: invitations.failedAttempts })
          .from(invitations)
          .where(eq(invitations.id, row.invitation.id))
          .for('update');
        if (!current) return invitationNotFound();
        if (current.failedAttempts >= deps.maxFailures) return invitationLocked();
        if (sameSecret(current.codeHash, hashCode(code))) return null;
        await tx
          .update(invitations)
          .set({ failedAttempts: sql`${invitations.failedAttempts} + 1` })
          .where(eq(invitations.id, row.invitation.id));
        return invitationNotFound();
      });
      if (outcome) throw outcome;
      await accept(caller, row);
      return row;
    },

    /** Accepting without the code: the caller's own verified address must be the invited one. */
    async acceptAsCaller(caller: Caller, id: string) {
      const row = await find(id);
      if (!caller.user.verified)
        throw unprocessable('Verify your email address before accepting invitations');
      await accept(caller, row);
      return row;
    },

    /** Is an unexpired invitation waiting for this address? (sign-up must then go through it) */
    async pendingFor(email: string): Promise<boolean> {
      const [row] = await db
        .select({ id: invitations.id })
        .from(invitations)
        .where(
          and(
            sql`lower(${invitations.email}) = ${email.trim().toLowerCase()}`,
            gt(invitations.codeExpiresAt, new Date()),
          ),
        )
        .limit(1);
      return Boolean(row);
    },

    /** Sign-up with an invitation code (contract §5.2 challengeToken): does the code prove this address? */
    async provesAddress(email: string, code: string): Promise<boolean> {
      const [row] = await db
        .select({ id: invitations.id })
        .from(invitations)
        .where(
          and(
            eq(invitations.codeHash, hashCode(code)),
            sql`lower(${invitations.email}) = ${email.trim().toLowerCase()}`,
            gt(invitations.codeExpiresAt, new Date()),
          ),
        );
      return Boolean(row);
    },
  };
}
export type InvitationsService = ReturnType<typeof createInvitationsService>;

/** An invitation of another organization is as unknown to the caller as one that never existed. */
function rethrowHidden(error: unknown): never {
  if (error instanceof ApiError && error.status === 404) throw invitationNotFound();
  throw error;
}

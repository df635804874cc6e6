import { toCsv } from '../csv/csv.ts';
import {
  type Actor,
  canManageRoleMembers,
  isOwner,
  permissionMessages,
  type RoleType,
} from '../permissions/permissions.ts';
import { isRoleListed } from '../permissions/roles-overview.ts';

// spec 1 §2 Members list and Edit member, §4 Role editing, §5 user search, §6 removal, §9 Members CSV.

/** What the members screens know of an organization member. */
export interface MemberSummary {
  id: string;
  name: string;
  email: string;
  verified: boolean;
  otpEnabled: boolean;
}

export const memberMessages = {
  removeSelf: 'You cannot remove yourself from the organization.',
  removeProvisioned: 'This user is managed via provisioning and cannot be removed.',
  /**
   * spec 1 §4 "The last remaining role cannot be unchecked" (the spec gives no words): a member leaves the
   * organization by Remove member, never by losing their roles one by one.
   */
  lastRole: 'A member keeps at least one role. To take them out of the organization, remove the member.',
} as const;

const KEYWORDS: Record<string, (member: MemberSummary) => boolean> = {
  verified: (member) => member.verified,
  '!verified': (member) => !member.verified,
  mfa: (member) => member.otpEnabled,
  '!mfa': (member) => !member.otpEnabled,
};

/**
 * spec 1 §5: the search matches email or name as a case-insensitive substring, plus the keywords
 * verified, !verified, mfa and !mfa. Keywords and text combine: "ada !mfa" is Ada without 2FA.
 */
export function matchesMemberSearch(member: MemberSummary, query: string): boolean {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const text: string[] = [];
  for (const word of words) {
    const keyword = KEYWORDS[word];
    if (keyword) {
      if (!keyword(member)) return false;
    } else text.push(word);
  }
  const needle = text.join(' ');
  return !needle || member.name.toLowerCase().includes(needle) || member.email.toLowerCase().includes(needle);
}

/** spec 1 §9: the Members CSV columns, in this order. */
export const MEMBERS_CSV_COLUMNS = ['id', 'name', 'email', 'roles', 'verified', '2fa'] as const;

/** spec 1 §9 Members CSV: id, name, email, roles (names joined by commas), verified, 2fa. */
export function membersCsv(members: readonly (MemberSummary & { roleNames: readonly string[] })[]): string {
  return toCsv(
    MEMBERS_CSV_COLUMNS,
    members.map((member) => [
      member.id,
      member.name,
      member.email,
      member.roleNames.join(', '),
      String(member.verified),
      String(member.otpEnabled),
    ]),
  );
}

/**
 * spec 1 §6: "Owners can remove members, but not themselves or provisioned users". The reason a Remove
 * button is disabled, or null when the actor may remove the member.
 */
export function memberRemovalDenial(
  actor: Pick<Actor, 'roleTypes'>,
  target: { isSelf: boolean; provisioned: boolean },
): string | null {
  if (!isOwner(actor)) return permissionMessages.ownerOnly;
  if (target.isSelf) return memberMessages.removeSelf;
  if (target.provisioned) return memberMessages.removeProvisioned;
  return null;
}

/**
 * spec 1 §6: managing a role's members (adding, removing, inviting) needs an owner or that role's admin;
 * the owner and billing_owner roles only an Account Owner. The tooltip when denied, else null.
 */
export function roleMembersDenial(
  actor: Pick<Actor, 'roleTypes'>,
  role: { type: RoleType; isRoleAdmin: boolean },
): string | null {
  return canManageRoleMembers(actor, role.type, role.isRoleAdmin) ? null : permissionMessages.roleManagement;
}

/**
 * spec 1 §4 Role editing: the change between the member's roles and the chosen ones. Save is enabled only
 * when something changed.
 */
export function roleSelectionChange(
  current: ReadonlySet<string>,
  chosen: ReadonlySet<string>,
): { added: string[]; removed: string[] } {
  return {
    added: [...chosen].filter((id) => !current.has(id)),
    removed: [...current].filter((id) => !chosen.has(id)),
  };
}

/** spec 1 §4 Role editing: the last remaining role cannot be unchecked. */
export function canUncheckRole(chosen: ReadonlySet<string>, roleId: string): boolean {
  return !chosen.has(roleId) || chosen.size > 1;
}

/**
 * spec 1 §6 "Managing needs owner or role admin": whether the actor manages any role at all (the server
 * answers the pending invitations only to them).
 */
export function managesAnyRole(actor: Pick<Actor, 'roleTypes'>, adminRoleIds: ReadonlySet<string>): boolean {
  return isOwner(actor) || adminRoleIds.size > 0;
}

/**
 * spec 1 §6: the roles an actor may invite into (and so may offer in the Invite form): listed to them,
 * and managed by them (owner, or the role's admin).
 */
export function invitableRoles<R extends { id: string; type: RoleType }>(
  actor: Pick<Actor, 'roleTypes'>,
  roles: readonly R[],
  adminRoleIds: ReadonlySet<string>,
): R[] {
  return roles.filter(
    (role) =>
      isRoleListed(actor, role.type) && canManageRoleMembers(actor, role.type, adminRoleIds.has(role.id)),
  );
}

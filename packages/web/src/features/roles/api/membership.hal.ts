import { type HalResource, idOf, linkId } from '../../../lib/hal.ts';

/** contract §4.1 membership: a user holding a role; `privileged` makes them that role's admin. */
export interface MembershipHal extends HalResource {
  privileged: boolean;
  created_at?: string;
}

export interface Membership {
  id: string;
  userId: string;
  roleId: string;
  privileged: boolean;
  createdAt: string;
}

export function fromMembershipHal(membership: MembershipHal): Membership | null {
  const userId = linkId(membership, 'user');
  const roleId = linkId(membership, 'role');
  if (!userId || !roleId) return null;
  return {
    id: idOf(membership),
    userId,
    roleId,
    privileged: membership.privileged === true,
    createdAt: membership.created_at ?? '',
  };
}

/** The role ids the user administers (privileged memberships). */
export function roleAdminIds(memberships: readonly Membership[], userId: string): Set<string> {
  return new Set(memberships.filter((m) => m.userId === userId && m.privileged).map((m) => m.roleId));
}

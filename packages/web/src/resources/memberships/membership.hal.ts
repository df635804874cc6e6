import type { MembershipResource } from '@berth/core';
import { idOf, linkId } from '../../lib/hal.ts';

/** contract §4.1 membership: a user holding a role; `privileged` makes them that role's admin. */
export interface Membership {
  id: string;
  userId: string;
  roleId: string;
  privileged: boolean;
  createdAt: string;
}

export function fromMembershipResource(membership: MembershipResource): Membership {
  return {
    id: idOf(membership),
    userId: linkId(membership, 'user') ?? '',
    roleId: linkId(membership, 'role') ?? '',
    privileged: membership.privileged,
    createdAt: membership.created_at,
  };
}

/** The role ids the user administers (privileged memberships). */
export function roleAdminIds(memberships: readonly Membership[], userId: string): Set<string> {
  return new Set(memberships.filter((m) => m.userId === userId && m.privileged).map((m) => m.roleId));
}

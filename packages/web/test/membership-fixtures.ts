import type { MembershipResource, RoleMembershipsMap } from '@berth/core';
import { TEST_CONFIG } from './fixtures.ts';

// Contract §4.1 memberships and the map GET /organizations/:id/roles/memberships answers (§5.3), typed by
// core's wire shapes: a fixture that drifts from what the server sends fails the type check.

const auth = (path: string) => `${TEST_CONFIG.authUrl}${path}`;

export function membershipHal({
  id,
  userId,
  roleId,
  privileged = false,
}: {
  id: string;
  userId: string;
  roleId: string;
  privileged?: boolean;
}): MembershipResource {
  return {
    _type: 'membership',
    id,
    privileged,
    created_at: '2025-01-15T10:00:00.000Z',
    updated_at: '2025-01-15T10:00:00.000Z',
    _links: {
      self: { href: auth(`/memberships/${id}`) },
      user: { href: auth(`/users/${userId}`) },
      role: { href: auth(`/roles/${roleId}`) },
    },
  };
}

export function membershipsByRole(memberships: MembershipResource[]): RoleMembershipsMap {
  const byRole: RoleMembershipsMap['_embedded'] = {};
  for (const membership of memberships) {
    const roleId = membership._links.role.href.split('/').pop() ?? '';
    byRole[roleId] = { memberships: [...(byRole[roleId]?.memberships ?? []), membership] };
  }
  return { _embedded: byRole, _links: { self: { href: auth('/organizations/org-1/roles/memberships') } } };
}

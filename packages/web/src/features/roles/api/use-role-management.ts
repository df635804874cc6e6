import { type Actor, invitableRoles, managesAnyRole } from '@berth/core';
import { useMemo } from 'react';
import { roleAdminIds } from '../../../resources/memberships/membership.hal.ts';
import { useOrganizationMemberships } from './use-organization-memberships.ts';
import { useOrganizationRoles } from './use-organization-roles.ts';

/**
 * The caller's standing towards the organization's roles (spec 1 §6 "Managing needs owner or role admin"):
 * which roles they administer, which they may invite into, and whether they manage any role at all.
 * Until the roles and memberships are in, `isPending` is true: a role admin would look like a stranger.
 */
export function useRoleManagement(
  organizationId: string | null,
  actor: Pick<Actor, 'roleTypes'>,
  userId: string,
) {
  const roles = useOrganizationRoles(organizationId);
  const memberships = useOrganizationMemberships(organizationId);
  const standing = useMemo(() => {
    const adminRoleIds = roleAdminIds(memberships.data ?? [], userId);
    const invitable = invitableRoles(actor, roles.data ?? [], adminRoleIds);
    return {
      adminRoleIds,
      invitableRoles: invitable,
      canInvite: invitable.length > 0,
      managesAnyRole: managesAnyRole(actor, adminRoleIds),
    };
  }, [roles.data, memberships.data, userId, actor]);
  return {
    ...standing,
    isPending: roles.isPending || memberships.isPending,
    error: roles.error ?? memberships.error,
  };
}

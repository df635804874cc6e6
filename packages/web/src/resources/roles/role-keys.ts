export const roleKeys = {
  all: ['roles'] as const,
  organization: (organizationId: string) => [...roleKeys.all, 'organization', organizationId] as const,
  user: (userId: string) => [...roleKeys.all, 'user', userId] as const,
  /** GET /organizations/:id/roles/memberships: every membership of the organization. */
  organizationMemberships: (organizationId: string) =>
    [...roleKeys.all, 'organization', organizationId, 'memberships'] as const,
  memberships: (roleId: string) => [...roleKeys.all, 'role', roleId, 'memberships'] as const,
  /** GET /roles/:id/environment_access: where the role reaches (issue 41). */
  environmentAccess: (roleId: string) => [...roleKeys.all, 'role', roleId, 'environment_access'] as const,
};

export const whitelistMembershipKeys = {
  all: ['whitelist-memberships'] as const,
  organization: (organizationId: string) => [...whitelistMembershipKeys.all, organizationId] as const,
};

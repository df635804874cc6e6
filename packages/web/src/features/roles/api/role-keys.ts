export const roleKeys = {
  all: ['roles'] as const,
  organization: (organizationId: string) => [...roleKeys.all, 'organization', organizationId] as const,
  user: (userId: string) => [...roleKeys.all, 'user', userId] as const,
};

export const userKeys = {
  all: ['users'] as const,
  detail: (userId: string) => [...userKeys.all, userId] as const,
  /** GET /organizations/:id/users. */
  organization: (organizationId: string) => [...userKeys.all, 'organization', organizationId] as const,
};

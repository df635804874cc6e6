export const invitationKeys = {
  all: ['invitations'] as const,
  /** GET /organizations/:id/invitations: the pending ones. */
  organization: (organizationId: string) => [...invitationKeys.all, 'organization', organizationId] as const,
  detail: (invitationId: string) => [...invitationKeys.all, 'detail', invitationId] as const,
};

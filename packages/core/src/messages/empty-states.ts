// spec 1 §8 "Empty states": what a list says when it has nothing, each written once.

export const emptyStateMessages = {
  noPendingInvitations: 'No pending invitations',
  noPermissions: 'No permissions set',
  noSsoExceptions: 'No users added to SSO exception list',
  noEnvironments: 'No environments exist',
  roleWithoutMembers: (roleName: string) => `${roleName} currently has no members.`,
} as const;

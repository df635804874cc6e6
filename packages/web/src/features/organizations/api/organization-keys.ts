export const organizationKeys = {
  all: ['organizations'] as const,
  list: () => [...organizationKeys.all, 'list'] as const,
  reauthenticate: () => [...organizationKeys.all, 'reauthenticate'] as const,
};

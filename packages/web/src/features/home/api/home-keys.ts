export const homeKeys = {
  all: ['home'] as const,
  detail: (organizationId: string) => [...homeKeys.all, organizationId] as const,
};

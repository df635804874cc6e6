export const deploymentKeys = {
  all: ['deployments'] as const,
  list: () => [...deploymentKeys.all, 'list'] as const,
  detail: (id: string) => [...deploymentKeys.all, 'detail', id] as const,
  configuration: (id: string) => [...deploymentKeys.all, 'configuration', id] as const,
};

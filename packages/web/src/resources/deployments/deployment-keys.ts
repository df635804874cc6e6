/** Every deployment query sits under `deployments`, so one invalidation refreshes them all. */
export const deploymentKeys = {
  all: ['deployments'] as const,
  list: () => [...deploymentKeys.all, 'list'] as const,
  detail: (id: string) => [...deploymentKeys.all, 'detail', id] as const,
  app: (appId: string) => [...deploymentKeys.all, 'app', appId] as const,
  source: (sourceId: string) => [...deploymentKeys.all, 'source', sourceId] as const,
};

export const certificateKeys = {
  all: ['certificates'] as const,
  ofEnvironment: (environmentId: string) => [...certificateKeys.all, 'environment', environmentId] as const,
  detail: (id: string) => [...certificateKeys.all, 'detail', id] as const,
  apps: (id: string) => [...certificateKeys.all, 'detail', id, 'apps'] as const,
};

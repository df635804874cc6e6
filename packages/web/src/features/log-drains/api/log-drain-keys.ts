export const logDrainKeys = {
  all: ['log-drains'] as const,
  ofEnvironment: (environmentId: string) => [...logDrainKeys.all, 'environment', environmentId] as const,
};

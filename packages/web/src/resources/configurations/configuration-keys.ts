export const configurationKeys = {
  all: ['configurations'] as const,
  detail: (id: string) => [...configurationKeys.all, 'detail', id] as const,
  sensitive: (appId: string) => [...configurationKeys.all, 'sensitive', appId] as const,
};

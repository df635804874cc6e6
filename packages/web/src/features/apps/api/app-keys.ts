export const appKeys = {
  all: ['apps'] as const,
  list: () => [...appKeys.all, 'list'] as const,
  search: (text: string) => [...appKeys.all, 'search', text] as const,
  detail: (id: string) => [...appKeys.all, 'detail', id] as const,
  deployments: (id: string) => [...appKeys.all, 'deployments', id] as const,
  configuration: (id: string) => [...appKeys.all, 'configuration', id] as const,
  operation: (id: string) => [...appKeys.all, 'operation', id] as const,
};

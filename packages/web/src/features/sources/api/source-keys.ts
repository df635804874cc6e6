export const sourceKeys = {
  all: ['sources'] as const,
  list: () => [...sourceKeys.all, 'list'] as const,
  detail: (id: string) => [...sourceKeys.all, 'detail', id] as const,
  deployments: (id: string) => [...sourceKeys.all, 'deployments', id] as const,
};

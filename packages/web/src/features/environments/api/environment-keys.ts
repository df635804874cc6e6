export const environmentKeys = {
  all: ['environments'] as const,
  list: () => [...environmentKeys.all, 'list'] as const,
  detail: (id: string) => [...environmentKeys.all, 'detail', id] as const,
  apps: (id: string) => [...environmentKeys.all, 'detail', id, 'apps'] as const,
};

export const operationKeys = {
  all: ['operations'] as const,
  lists: () => [...operationKeys.all, 'list'] as const,
  list: (path: string) => [...operationKeys.lists(), path] as const,
  detail: (id: string) => [...operationKeys.all, 'detail', id] as const,
  logs: (id: string) => [...operationKeys.all, 'logs', id] as const,
};

/** The app queries (list, search, detail); its deployments and configuration have their own keys. */
export const appKeys = {
  all: ['apps'] as const,
  list: () => [...appKeys.all, 'list'] as const,
  search: (text: string) => [...appKeys.all, 'search', text] as const,
  detail: (id: string) => [...appKeys.all, 'detail', id] as const,
};

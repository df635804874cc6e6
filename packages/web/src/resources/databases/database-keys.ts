/** The database queries: lists, one database, its credentials and dependents, and the image catalog. */
export const databaseKeys = {
  all: ['databases'] as const,
  list: () => [...databaseKeys.all, 'list'] as const,
  inEnvironment: (environmentId: string) => [...databaseKeys.all, 'environment', environmentId] as const,
  detail: (id: string) => [...databaseKeys.all, 'detail', id] as const,
  credentials: (id: string) => [...databaseKeys.all, 'credentials', id] as const,
  dependents: (id: string) => [...databaseKeys.all, 'dependents', id] as const,
  images: () => ['database_images'] as const,
};

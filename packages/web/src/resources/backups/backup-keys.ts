/** The backup queries: a database's, an environment's (all or orphaned), one backup, and the policies. */
export const backupKeys = {
  all: ['backups'] as const,
  ofDatabase: (databaseId: string, page: number) =>
    [...backupKeys.all, 'database', databaseId, page] as const,
  ofEnvironment: (environmentId: string, orphaned: boolean, page: number) =>
    [...backupKeys.all, 'environment', environmentId, orphaned, page] as const,
  detail: (id: string) => [...backupKeys.all, 'detail', id] as const,
  policies: (environmentId: string) => ['backup_retention_policies', environmentId] as const,
};

import {
  type BackupCollection,
  type BackupResource,
  type BackupRetentionPolicyCollection,
  type BackupRetentionPolicyInput,
  type BackupRetentionPolicyResource,
  type OperationRequest,
  type OperationResource,
  operationRequest,
  operationsPath,
  SERVER_PAGE_SIZE_DEFAULT,
} from '@berth/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromBackupResource, fromRetentionPolicyResource } from '../../../resources/backups/backup.hal.ts';
import { backupKeys } from '../../../resources/backups/backup-keys.ts';
import { databaseKeys } from '../../../resources/databases/database-keys.ts';
import { fromOperationResource } from '../../../resources/operations/operation.hal.ts';

/** One server page of backups, with what the pager needs (contract §3: total_count and per_page). */
async function fetchBackupPage(path: string, signal: AbortSignal) {
  const list = await apiRequest<BackupCollection>('api', path, { signal });
  const backups = embeddedList(list, 'backups').map(fromBackupResource);
  return {
    backups,
    totalCount: list.total_count ?? backups.length,
    perPage: list.per_page || SERVER_PAGE_SIZE_DEFAULT,
  };
}

export type BackupPage = Awaited<ReturnType<typeof fetchBackupPage>>;

/** contract §5.8 GET /databases/:id/backups?page=N, newest first. */
export function useDatabaseBackups(databaseId: string, page: number) {
  const { phase } = useSession();
  return useQuery({
    queryKey: backupKeys.ofDatabase(databaseId, page),
    queryFn: ({ signal }) =>
      fetchBackupPage(`/databases/${encodeURIComponent(databaseId)}/backups?page=${page}`, signal),
    enabled: phase === 'authenticated' && databaseId !== '',
    placeholderData: (previous) => previous,
  });
}

/** contract §5.8 GET /accounts/:id/backups?page=N (orphaned=true: backups of deprovisioned databases). */
export function useEnvironmentBackups(environmentId: string, orphaned: boolean, page: number) {
  const { phase } = useSession();
  const query = new URLSearchParams({ page: String(page) });
  if (orphaned) query.set('orphaned', 'true');
  return useQuery({
    queryKey: backupKeys.ofEnvironment(environmentId, orphaned, page),
    queryFn: ({ signal }) =>
      fetchBackupPage(`/accounts/${encodeURIComponent(environmentId)}/backups?${query}`, signal),
    enabled: phase === 'authenticated' && environmentId !== '',
    placeholderData: (previous) => previous,
  });
}

/** contract §5.8 GET /backups/:id. */
export function useBackup(id: string) {
  const { phase } = useSession();
  return useQuery({
    queryKey: backupKeys.detail(id),
    queryFn: async ({ signal }) =>
      fromBackupResource(
        await apiRequest<BackupResource>('api', `/backups/${encodeURIComponent(id)}`, { signal }),
      ),
    enabled: phase === 'authenticated' && id !== '',
  });
}

/** contract §5.8 GET /accounts/:id/backup_retention_policies: the newest is the one in force (or null). */
export function useRetentionPolicy(environmentId: string) {
  const { phase } = useSession();
  return useQuery({
    queryKey: backupKeys.policies(environmentId),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<BackupRetentionPolicyCollection>(
        'api',
        `/accounts/${encodeURIComponent(environmentId)}/backup_retention_policies`,
        { signal },
      );
      const policies = embeddedList(list, 'backup_retention_policies')
        .map(fromRetentionPolicyResource)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
      return policies[0] ?? null;
    },
    enabled: phase === 'authenticated' && environmentId !== '',
  });
}

/** contract §5.8 POST /accounts/:id/backup_retention_policies: a new policy in force. */
export function useSaveRetentionPolicy(environmentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (policy: BackupRetentionPolicyInput) =>
      fromRetentionPolicyResource(
        await apiRequest<BackupRetentionPolicyResource>(
          'api',
          `/accounts/${encodeURIComponent(environmentId)}/backup_retention_policies`,
          { method: 'POST', body: policy },
        ),
      ),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: backupKeys.policies(environmentId) });
    },
  });
}

/** contract §6 POST /databases/:id/operations {type: 'backup'}: a manual backup; answers the operation. */
export function useCreateBackup(databaseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      fromOperationResource(
        await apiRequest<OperationResource>('api', operationsPath('database', databaseId), {
          method: 'POST',
          body: operationRequest('database', 'backup'),
        }),
      ),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: backupKeys.all });
    },
  });
}

/** contract §6 POST /backups/:id/operations {type: 'purge'}: deletes the backup. */
export function usePurgeBackup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (backupId: string) =>
      fromOperationResource(
        await apiRequest<OperationResource>('api', operationsPath('backup', backupId), {
          method: 'POST',
          body: operationRequest('backup', 'purge'),
        }),
      ),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: backupKeys.all });
    },
  });
}

export type RestoreRequest = OperationRequest<'backup', 'restore'>;

/** contract §6 POST /backups/:id/operations {type: 'restore', …}: a new database from the backup. */
export function useRestoreBackup(backupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: RestoreRequest) =>
      fromOperationResource(
        await apiRequest<OperationResource>('api', operationsPath('backup', backupId), {
          method: 'POST',
          body: request,
        }),
      ),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: databaseKeys.all });
    },
  });
}

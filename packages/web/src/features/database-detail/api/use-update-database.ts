import type { DatabaseResource, UpdateDatabaseInput } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromDatabaseResource } from '../../../resources/databases/database.hal.ts';
import { databaseKeys } from '../../../resources/databases/database-keys.ts';

/**
 * contract §5.8 PUT /databases/:id: rename, backups on/off, PITR on/off (the server turns PITR off with
 * backups, spec 2 §4). The answer replaces the cached database.
 */
export function useUpdateDatabase(databaseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (changes: UpdateDatabaseInput) =>
      fromDatabaseResource(
        await apiRequest<DatabaseResource>('api', `/databases/${encodeURIComponent(databaseId)}`, {
          method: 'PUT',
          body: changes,
        }),
      ),
    onSuccess: (database) => {
      queryClient.setQueryData(databaseKeys.detail(databaseId), (previous: typeof database | undefined) =>
        // The PUT answer may leave out the embedded disk and last operation: keep what the page had.
        previous
          ? { ...database, disk: database.disk ?? previous.disk, lastOperation: previous.lastOperation }
          : database,
      );
      void queryClient.invalidateQueries({ queryKey: databaseKeys.all });
    },
  });
}

/** contract §5.8 POST /databases/:id/unlink (204): the replica stops depending on its source. */
export function useUnlinkDatabase(databaseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest('api', `/databases/${encodeURIComponent(databaseId)}/unlink`, { method: 'POST' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: databaseKeys.all }),
  });
}

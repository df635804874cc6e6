import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, type EmptyResponse } from '../../../lib/api-client.ts';
import { roleKeys } from '../../../resources/roles/role-keys.ts';
import { environmentKeys } from './environment-keys.ts';

/** contract §5.6 DELETE /permissions/:id. */
export function useDeletePermission() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (permissionId: string) =>
      apiRequest<EmptyResponse>('api', `/permissions/${encodeURIComponent(permissionId)}`, {
        method: 'DELETE',
      }),
    // Which role held it is not at hand: every role's reach (issue 41) is read again when next shown.
    // (The predicate leaves the organization's role lists alone.)
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: environmentKeys.all }),
        queryClient.invalidateQueries({
          queryKey: roleKeys.all,
          predicate: (query) => query.queryKey.includes('environment_access'),
        }),
      ]),
  });
}

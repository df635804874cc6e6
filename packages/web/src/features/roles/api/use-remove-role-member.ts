import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, type EmptyResponse } from '../../../lib/api-client.ts';
import { roleKeys } from '../../../resources/roles/role-keys.ts';

/** contract §5.3 DELETE /memberships/:id (a user's last membership takes them out of the organization). */
export function useRemoveRoleMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (membershipId: string) =>
      apiRequest<EmptyResponse>('auth', `/memberships/${encodeURIComponent(membershipId)}`, {
        method: 'DELETE',
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: roleKeys.all }),
  });
}

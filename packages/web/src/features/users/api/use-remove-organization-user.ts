import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, type EmptyResponse } from '../../../lib/api-client.ts';
import { userKeys } from '../../../resources/users/user-keys.ts';

/** contract §5.3 DELETE /organizations/:id/users/:userId: takes the member out (all their memberships). */
export function useRemoveOrganizationUser(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      apiRequest<EmptyResponse>(
        'auth',
        `/organizations/${encodeURIComponent(organizationId)}/users/${encodeURIComponent(userId)}`,
        { method: 'DELETE' },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.organization(organizationId) }),
  });
}

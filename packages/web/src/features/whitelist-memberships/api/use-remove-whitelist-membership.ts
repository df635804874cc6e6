import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { whitelistMembershipKeys } from './whitelist-membership-keys.ts';

/** contract §5.4 DELETE /whitelist_memberships/:id. */
export function useRemoveWhitelistMembership(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<unknown>('auth', `/whitelist_memberships/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: whitelistMembershipKeys.organization(organizationId) }),
  });
}

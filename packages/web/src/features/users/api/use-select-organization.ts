import type { UserResource } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromUserResource } from '../../../resources/users/user.hal.ts';
import { userKeys } from '../../../resources/users/user-keys.ts';

/** contract §5.2: PUT /users/:id persists the selection, which drives the user's selected_organization link. */
export function useSelectOrganization() {
  const queryClient = useQueryClient();
  const { accessToken } = useSession();
  const userId = accessToken?.userId ?? '';
  return useMutation({
    mutationFn: async (organizationId: string) =>
      fromUserResource(
        await apiRequest<UserResource>('auth', `/users/${encodeURIComponent(userId)}`, {
          method: 'PUT',
          body: { selected_organization_id: organizationId },
        }),
      ),
    onSuccess: (user) => {
      queryClient.setQueryData(userKeys.detail(user.id), user);
      // Everything scoped to the organization follows the new selection (contract §7: steps 2-9 rerun).
      return queryClient.invalidateQueries();
    },
  });
}

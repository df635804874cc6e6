import type { UserResource } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromUserResource } from '../../../resources/users/user.hal.ts';
import { userKeys } from '../../../resources/users/user-keys.ts';

/** contract §5.2 PATCH /users/:id `{name}`: the profile's name. */
export function useUpdateName(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) =>
      fromUserResource(
        await apiRequest<UserResource>('auth', `/users/${encodeURIComponent(userId)}`, {
          method: 'PATCH',
          body: { name },
        }),
      ),
    onSuccess: (user) => queryClient.setQueryData(userKeys.detail(userId), user),
  });
}

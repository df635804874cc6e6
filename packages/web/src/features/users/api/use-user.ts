import type { UserResource } from '@berth/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session-store.ts';
import { startupPaths } from '../../../lib/startup-paths.ts';
import { fromUserResource } from '../../../resources/users/user.hal.ts';
import { userKeys } from '../../../resources/users/user-keys.ts';

export function userQuery(userId: string) {
  return queryOptions({
    queryKey: userKeys.detail(userId),
    // contract §3.6: the console sends its elevated token here when it holds a valid one.
    queryFn: async ({ signal }) =>
      fromUserResource(
        await apiRequest<UserResource>('auth', startupPaths.user(userId), {
          auth: 'elevated',
          signal,
        }),
      ),
  });
}

/** The signed-in user (contract §7 step 3): id from the token's user link. */
export function useCurrentUser() {
  const { phase, accessToken } = useSession();
  const userId = accessToken?.userId ?? '';
  return useQuery({ ...userQuery(userId), enabled: phase === 'authenticated' && userId !== '' });
}

import type { RoleCollection } from '@berth/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { startupPaths } from '../../../lib/startup-paths.ts';
import { fromRoleResource } from '../../../resources/roles/role.hal.ts';
import { roleKeys } from '../../../resources/roles/role-keys.ts';

/** contract §7 step 6: every role of the user, in all organizations. */
export function userRolesQuery(userId: string) {
  return queryOptions({
    queryKey: roleKeys.user(userId),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<RoleCollection>('auth', startupPaths.userRoles(userId), {
        signal,
      });
      return embeddedList(list, 'roles').map(fromRoleResource);
    },
  });
}

export function useUserRoles() {
  const { phase, accessToken } = useSession();
  const userId = accessToken?.userId ?? '';
  return useQuery({ ...userRolesQuery(userId), enabled: phase === 'authenticated' && userId !== '' });
}

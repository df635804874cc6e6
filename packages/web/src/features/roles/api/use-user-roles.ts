import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList, type HalCollection } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromRoleHal, type RoleHal } from './role.hal.ts';
import { roleKeys } from './role-keys.ts';

/** contract §7 step 6: every role of the user, in all organizations. */
export function useUserRoles() {
  const { phase, accessToken } = useSession();
  const userId = accessToken?.userId ?? '';
  return useQuery({
    queryKey: roleKeys.user(userId),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<HalCollection<RoleHal>>(
        'auth',
        `/users/${encodeURIComponent(userId)}/roles`,
        {
          signal,
        },
      );
      return embeddedList(list, 'roles').map(fromRoleHal);
    },
    enabled: phase === 'authenticated' && userId !== '',
  });
}

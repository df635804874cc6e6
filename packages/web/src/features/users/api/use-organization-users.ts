import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList, type HalCollection } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromUserHal, type UserHal } from './user.hal.ts';
import { userKeys } from './user-keys.ts';

/** contract §5.3 GET /organizations/:id/users: the organization's members (contract §7 step 7). */
export function useOrganizationUsers(organizationId: string | null) {
  const { phase } = useSession();
  const id = organizationId ?? '';
  return useQuery({
    queryKey: userKeys.organization(id),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<HalCollection<UserHal>>(
        'auth',
        `/organizations/${encodeURIComponent(id)}/users`,
        { signal },
      );
      return embeddedList(list, 'users').map(fromUserHal);
    },
    enabled: phase === 'authenticated' && id !== '',
  });
}

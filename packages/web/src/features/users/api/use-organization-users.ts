import type { UserCollection } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromUserResource } from '../../../resources/users/user.hal.ts';
import { userKeys } from '../../../resources/users/user-keys.ts';

/** contract §5.3 GET /organizations/:id/users: the organization's members (contract §7 step 7). */
export function useOrganizationUsers(organizationId: string | null) {
  const { phase } = useSession();
  const id = organizationId ?? '';
  return useQuery({
    queryKey: userKeys.organization(id),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<UserCollection>(
        'auth',
        `/organizations/${encodeURIComponent(id)}/users`,
        { signal },
      );
      return embeddedList(list, 'users').map(fromUserResource);
    },
    enabled: phase === 'authenticated' && id !== '',
  });
}

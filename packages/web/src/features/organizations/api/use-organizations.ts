import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList, type HalCollection } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromOrganizationHal, type OrganizationHal } from './organization.hal.ts';
import { organizationKeys } from './organization-keys.ts';

export function organizationsQuery() {
  return queryOptions({
    queryKey: organizationKeys.list(),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<HalCollection<OrganizationHal>>('auth', '/organizations', { signal });
      return embeddedList(list, 'organizations').map(fromOrganizationHal);
    },
  });
}

/** contract §7 step 2: the caller's organizations. */
export function useOrganizations() {
  const { phase } = useSession();
  return useQuery({ ...organizationsQuery(), enabled: phase === 'authenticated' });
}

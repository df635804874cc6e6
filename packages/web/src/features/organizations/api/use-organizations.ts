import type { OrganizationCollection } from '@berth/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { startupPaths } from '../../../lib/startup-paths.ts';
import { fromOrganizationResource } from '../../../resources/organizations/organization.hal.ts';
import { organizationKeys } from './organization-keys.ts';

export function organizationsQuery() {
  return queryOptions({
    queryKey: organizationKeys.list(),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<OrganizationCollection>('auth', startupPaths.organizations, { signal });
      return embeddedList(list, 'organizations').map(fromOrganizationResource);
    },
  });
}

/** contract §7 step 2: the caller's organizations. */
export function useOrganizations() {
  const { phase } = useSession();
  return useQuery({ ...organizationsQuery(), enabled: phase === 'authenticated' });
}

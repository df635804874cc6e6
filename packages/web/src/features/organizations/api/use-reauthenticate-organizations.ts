import type { ReauthenticateOrganizationCollection } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromOrganizationResource } from '../../../resources/organizations/organization.hal.ts';
import { organizationKeys } from './organization-keys.ts';

/** contract §5.3: organizations this token may not use until the user logs in again (e.g. SSO enforced). */
export function useReauthenticateOrganizations() {
  const { phase } = useSession();
  return useQuery({
    queryKey: organizationKeys.reauthenticate(),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<ReauthenticateOrganizationCollection>(
        'auth',
        '/reauthenticate_organizations',
        {
          signal,
        },
      );
      return embeddedList(list, 'organizations').map(fromOrganizationResource);
    },
    enabled: phase === 'authenticated',
  });
}

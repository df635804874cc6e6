import type { RoleCollection } from '@berth/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { startupPaths } from '../../../lib/startup-paths.ts';
import { fromRoleResource } from '../../../resources/roles/role.hal.ts';
import { roleKeys } from '../../../resources/roles/role-keys.ts';

/** contract §7 step 5: the selected organization's roles. */
export function useOrganizationRoles(organizationId: string | null) {
  const { phase } = useSession();
  const id = organizationId ?? '';
  return useQuery({
    queryKey: roleKeys.organization(id),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<RoleCollection>('auth', startupPaths.organizationRoles(id), { signal });
      return embeddedList(list, 'roles').map(fromRoleResource);
    },
    enabled: phase === 'authenticated' && id !== '',
    // Switching organization keeps the shell on screen while the new roles load.
    placeholderData: keepPreviousData,
  });
}

import type { RoleEnvironmentAccessResource } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromRoleEnvironmentAccessResource } from '../../../resources/roles/role.hal.ts';
import { roleKeys } from '../../../resources/roles/role-keys.ts';

/**
 * Issue 41 GET /roles/:id/environment_access: where a role reaches, answered by the server for those who
 * may invite into it, so the invite form's summary does not depend on the environments the console has
 * loaded. An empty id reads nothing (no role chosen, or an owner type summed up by its type).
 */
export function useRoleEnvironmentAccess(roleId: string) {
  return useQuery({
    queryKey: roleKeys.environmentAccess(roleId),
    queryFn: async ({ signal }) =>
      fromRoleEnvironmentAccessResource(
        await apiRequest<RoleEnvironmentAccessResource>(
          'auth',
          `/roles/${encodeURIComponent(roleId)}/environment_access`,
          { signal },
        ),
      ),
    enabled: roleId !== '',
  });
}

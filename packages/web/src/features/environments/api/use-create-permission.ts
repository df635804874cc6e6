import { createPermissionSchema, type PermissionResource, type Scope } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { roleKeys } from '../../../resources/roles/role-keys.ts';
import { environmentKeys } from './environment-keys.ts';

export interface NewPermission {
  environmentId: string;
  roleId: string;
  scope: Scope;
}

/** contract §5.6 POST /accounts/:id/permissions {role: <bare role id>, scope}. */
export function useCreatePermission() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ environmentId, roleId, scope }: NewPermission) =>
      apiRequest<PermissionResource>('api', `/accounts/${encodeURIComponent(environmentId)}/permissions`, {
        method: 'POST',
        body: createPermissionSchema.parse({ role: roleId, scope }),
      }),
    // Permissions travel embedded in the environments (contract §4.3): their lists carry the change.
    // and a role's reach (issue 41) changes with them.
    onSuccess: (_permission, { roleId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: environmentKeys.all }),
        queryClient.invalidateQueries({ queryKey: roleKeys.environmentAccess(roleId) }),
      ]),
  });
}

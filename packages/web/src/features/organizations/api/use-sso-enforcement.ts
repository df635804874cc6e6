import type { OrganizationResource } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromOrganizationResource } from '../../../resources/organizations/organization.hal.ts';
import { organizationKeys } from './organization-keys.ts';

/** contract §5.3 PATCH /organizations/:id `{sso_enforced}` (spec 1 §4: enforcement toggles Enable/Disable). */
export function useSsoEnforcement(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (enforced: boolean) =>
      fromOrganizationResource(
        await apiRequest<OrganizationResource>(
          'auth',
          `/organizations/${encodeURIComponent(organizationId)}`,
          {
            method: 'PATCH',
            body: { sso_enforced: enforced },
          },
        ),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationKeys.all }),
  });
}

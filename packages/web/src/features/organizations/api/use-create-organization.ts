import type { OrganizationResource } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromOrganizationResource } from '../../../resources/organizations/organization.hal.ts';
import { organizationKeys } from './organization-keys.ts';

export async function createOrganization(name: string) {
  return fromOrganizationResource(
    await apiRequest<OrganizationResource>('auth', '/organizations', { method: 'POST', body: { name } }),
  );
}

/**
 * contract §5.3 POST /organizations; the list is read again so the new organization can be selected. Read
 * again even when no page shows it (the create page is outside the console): a list cached earlier without
 * it would otherwise be taken as current on the way to Home, which then finds no organization.
 */
export function useCreateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOrganization,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationKeys.all, refetchType: 'all' }),
  });
}

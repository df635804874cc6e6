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

/** contract §5.3 POST /organizations; the list is read again so the new organization can be selected. */
export function useCreateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOrganization,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationKeys.all }),
  });
}
